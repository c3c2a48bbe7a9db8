/**
 * Canonical request → Bedrock Converse request (R-GW-6: what Converse can say is carried; a field that would
 * change the answer and that Converse has no word for makes the candidate incompatible). The model is in the
 * URL, and streaming is the `converse-stream` operation: the body says neither.
 */
import type { CanonicalCacheMark, CanonicalImage, CanonicalMessage, CanonicalRequest } from "../../ports/canonical.js";
import { EncodingNotes, noteUncarriedFields, type CanonicalField, type WireEncoding } from "../shared/encoding.js";
import { imageAsBase64 } from "../shared/images.js";
import { toolArgumentsObject } from "../shared/tool-arguments.js";

export type ConverseContentBlock = Record<string, unknown>;

export interface ConverseMessage {
  role: "user" | "assistant";
  content: ConverseContentBlock[];
}

export interface ConverseRequest {
  messages: ConverseMessage[];
  system?: ConverseContentBlock[];
  inferenceConfig?: { maxTokens?: number; temperature?: number; topP?: number; stopSequences?: string[] };
  toolConfig?: { tools: ConverseContentBlock[]; toolChoice?: Record<string, unknown> };
  additionalModelRequestFields?: Record<string, unknown>;
}

/**
 * What Converse carries of the fields not every format has: cache points, earlier thinking blocks, `top_k`.
 * A reasoning budget is not among them: each non-Claude model names its own switch, so it is refused rather
 * than guessed (Claude, which has one, is called through InvokeModel).
 */
const CARRIED: ReadonlySet<CanonicalField> = new Set(["cache", "thinkingBlocks", "topK"]);

/** A Converse cache point goes after the block it marks (Anthropic's `cache_control` goes on the block). */
function cachePoint(mark: CanonicalCacheMark | undefined): ConverseContentBlock[] {
  return mark ? [{ cachePoint: { type: "default" } }] : [];
}

/** Converse names an image's format (`png`), not its media type, and takes only inline bytes. */
function imageBlock(image: CanonicalImage, notes: EncodingNotes): ConverseContentBlock[] {
  const inline = imageAsBase64(image);
  if (!inline) {
    notes.reject("image_url", "Bedrock Converse takes inline images only");
    return [];
  }
  const format = inline.mediaType.replace(/^image\//, "").replace("jpg", "jpeg");
  return [{ image: { format, source: { bytes: inline.data } } }, ...cachePoint(image.cache)];
}

function contentOf(message: CanonicalMessage, notes: EncodingNotes): ConverseContentBlock[] {
  return message.content.flatMap((part): ConverseContentBlock[] => {
    switch (part.type) {
      case "text":
        return part.text === "" ? [] : [{ text: part.text }, ...cachePoint(part.cache)];
      case "image":
        return imageBlock(part, notes);
      case "thinking":
        if (part.origin !== undefined) {
          notes.drop("reasoning");
          return [];
        }
        if (part.redactedData !== undefined) return [{ reasoningContent: { redactedContent: part.redactedData } }];
        return [{ reasoningContent: { reasoningText: { text: part.text, ...(part.signature ? { signature: part.signature } : {}) } } }];
      case "tool-call":
        return [
          { toolUse: { toolUseId: part.id, name: part.name, input: toolArgumentsObject(part.arguments) } },
          ...cachePoint(part.cache),
        ];
      case "tool-result": {
        const content = part.parts
          ? part.parts.flatMap((inner) => (inner.type === "text" ? [{ text: inner.text }] : imageBlock(inner, notes)))
          : [{ text: part.content }];
        return [
          { toolResult: { toolUseId: part.toolCallId, content, ...(part.isError ? { status: "error" } : {}) } },
          ...cachePoint(part.cache),
        ];
      }
    }
  });
}

/** Converse wants alternating turns; tool results travel in user turns, merged with the turn around them. */
function messagesOf(request: CanonicalRequest, notes: EncodingNotes): ConverseMessage[] {
  const merged: ConverseMessage[] = [];
  for (const message of request.messages) {
    const content = contentOf(message, notes);
    if (content.length === 0) continue;
    const role = message.role === "assistant" ? "assistant" : "user";
    const previous = merged.at(-1);
    if (previous && previous.role === role) previous.content.push(...content);
    else merged.push({ role, content });
  }
  return merged;
}

function systemOf(request: CanonicalRequest): ConverseContentBlock[] | undefined {
  const parts = request.systemParts;
  if (parts && parts.length > 0) return parts.flatMap((part) => [{ text: part.text }, ...cachePoint(part.cache)]);
  return request.system ? [{ text: request.system }] : undefined;
}

function toolChoiceOf(request: CanonicalRequest, notes: EncodingNotes): Record<string, unknown> | undefined {
  const choice = request.toolChoice;
  if (choice === undefined || choice === "auto") return choice === undefined ? undefined : { auto: {} };
  if (choice === "required") return { any: {} };
  if (choice === "none") {
    notes.reject("tool_choice", "Bedrock Converse cannot forbid tool calls while offering tools");
    return undefined;
  }
  return { tool: { name: choice.name } };
}

export function encodeConverseRequest(request: CanonicalRequest): WireEncoding<ConverseRequest> {
  const notes = new EncodingNotes("bedrock");
  noteUncarriedFields(request, notes, CARRIED);
  if (request.responseFormat && request.responseFormat.type !== "text") notes.reject("response_format");
  if (request.parallelToolCalls !== undefined) notes.drop("parallel_tool_calls");
  const wire: ConverseRequest = { messages: messagesOf(request, notes) };
  const system = systemOf(request);
  if (system) wire.system = system;
  const inference: NonNullable<ConverseRequest["inferenceConfig"]> = {};
  if (request.maxTokens !== undefined) inference.maxTokens = request.maxTokens;
  if (request.temperature !== undefined) inference.temperature = request.temperature;
  if (request.topP !== undefined) inference.topP = request.topP;
  if (request.stop && request.stop.length > 0) inference.stopSequences = request.stop;
  if (Object.keys(inference).length > 0) wire.inferenceConfig = inference;
  if (request.tools && request.tools.length > 0) {
    const tools = request.tools.flatMap((tool) => [
      {
        toolSpec: {
          name: tool.name,
          ...(tool.description !== undefined ? { description: tool.description } : {}),
          inputSchema: { json: tool.parameters },
        },
      },
      ...cachePoint(tool.cache),
    ]);
    const toolChoice = toolChoiceOf(request, notes);
    wire.toolConfig = { tools, ...(toolChoice ? { toolChoice } : {}) };
  }
  // Converse has no field of its own for `top_k`: it goes to the model under the name the models read.
  if (request.topK !== undefined) wire.additionalModelRequestFields = { top_k: request.topK };
  return notes.finish(wire);
}
