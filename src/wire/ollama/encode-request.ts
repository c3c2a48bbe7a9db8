/** Canonical request → Ollama `/api/chat` request (R-GW-2, R-GW-6). */
import type { CanonicalMessage, CanonicalRequest } from "../../ports/canonical.js";
import { EncodingNotes, noteUncarriedFields, ownProviderOptions, type CanonicalField, type WireEncoding } from "../shared/encoding.js";
import { imageAsBase64 } from "../shared/images.js";
import { toolArgumentsObject, toolNamesById } from "../shared/tool-arguments.js";
import { SAMPLING_FIELDS_CARRIED, samplingToWire } from "../shared/sampling-names.js";
import { OLLAMA_SAMPLING_NAMES, type OllamaChatRequest, type OllamaRequestMessage } from "./schemas.js";

const CARRIED: ReadonlySet<CanonicalField> = new Set([...SAMPLING_FIELDS_CARRIED, "responseFormat", "reasoning"]);

/** The request body, or the field Ollama cannot carry (R-GW-6 `incompatible`). */
export function encodeOllamaRequest(
  request: CanonicalRequest,
  options: { model: string; stream: boolean },
): WireEncoding<OllamaChatRequest> {
  const notes = new EncodingNotes("ollama");
  const own = ownProviderOptions(request.providerOptions, notes);
  noteUncarriedFields(request, notes, CARRIED);
  return notes.finish({ ...own, ...toOllamaRequest(request, options) });
}

export function toOllamaRequest(request: CanonicalRequest, options: { model: string; stream: boolean }): OllamaChatRequest {
  const toolNames = toolNamesById(request.messages);
  const messages: OllamaRequestMessage[] = [];
  if (request.system) messages.push({ role: "system", content: request.system });
  for (const message of request.messages) messages.push(...toOllamaMessages(message, toolNames));

  const wire: OllamaChatRequest = { model: options.model, messages, stream: options.stream };
  // Ollama has no tool_choice: "none" is honoured by not offering tools; other choices are left to the model.
  if (request.tools && request.tools.length > 0 && request.toolChoice !== "none") {
    wire.tools = request.tools.map((tool) => ({
      type: "function" as const,
      function: {
        name: tool.name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        parameters: tool.parameters,
      },
    }));
  }
  const sampling: NonNullable<OllamaChatRequest["options"]> = samplingToWire(request, OLLAMA_SAMPLING_NAMES);
  if (Object.keys(sampling).length > 0) wire.options = sampling;
  const format = request.responseFormat;
  if (format?.type === "json") wire.format = "json";
  if (format?.type === "json-schema") wire.format = format.schema;
  if (request.reasoning) wire.think = request.reasoning.enabled;
  return wire;
}

function toOllamaMessages(message: CanonicalMessage, toolNames: ReadonlyMap<string, string>): OllamaRequestMessage[] {
  const wire: OllamaRequestMessage[] = [];
  const texts: string[] = [];
  const images: string[] = [];
  const toolCalls: NonNullable<OllamaRequestMessage["tool_calls"]> = [];
  for (const part of message.content) {
    switch (part.type) {
      case "text":
        texts.push(part.text);
        break;
      case "image": {
        const inline = imageAsBase64(part);
        // Ollama takes inline images only, and Detour never fetches URLs on a client's behalf.
        if (inline) images.push(inline.data);
        else if (part.source.kind === "url") texts.push(`[image: ${part.source.url}]`);
        break;
      }
      case "tool-call":
        toolCalls.push({ function: { name: part.name, arguments: toolArgumentsObject(part.arguments) } });
        break;
      case "thinking":
        // Another provider's signed reasoning; Ollama cannot take it back (named as dropped by the caller).
        break;
      case "tool-result":
        // Each result is its own `tool` message, ahead of any text sent with it.
        wire.push({ role: "tool", content: part.content, tool_name: toolNames.get(part.toolCallId) ?? part.toolCallId });
        break;
    }
  }
  const content = texts.join("\n");
  if (content === "" && images.length === 0 && toolCalls.length === 0) return wire;
  wire.push({
    role: message.role === "assistant" ? "assistant" : "user",
    content,
    ...(images.length > 0 ? { images } : {}),
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  });
  return wire;
}
