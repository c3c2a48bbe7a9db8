/**
 * A client's `/api/chat` request → canonical request: the server side of the format (the mock provider
 * answers with it). Ollama names tool results by the tool's name: each result is paired with the latest
 * unanswered call of that name.
 */
import type { CanonicalContentPart, CanonicalMessage, CanonicalRequest } from "../../ports/canonical.js";
import { unmappedFields } from "../shared/encoding.js";
import { samplingFromWire } from "../shared/sampling-names.js";
import { toolArgumentsText } from "../shared/tool-arguments.js";
import { toDialectIssues, type DialectParseResult } from "../shared/validation-issues.js";
import { OLLAMA_SAMPLING_NAMES } from "./schemas.js";
import { ollamaClientRequestSchema, type OllamaClientMessage } from "./request-schema.js";

export type OllamaRequestParse = DialectParseResult<{ request: CanonicalRequest; model: string; stream: boolean }>;

const MAPPED_FIELDS: ReadonlySet<string> = new Set(["model", "messages", "tools", "stream", "format", "think", "options"]);

/** Ollama's images are bare base64; the media type is read from the data's first bytes. */
function mediaTypeOf(data: string): string {
  if (data.startsWith("/9j/")) return "image/jpeg";
  if (data.startsWith("R0lGOD")) return "image/gif";
  if (data.startsWith("UklGR")) return "image/webp";
  return "image/png";
}

function readMessages(messages: readonly OllamaClientMessage[]): { system: string[]; messages: CanonicalMessage[] } {
  const system: string[] = [];
  const out: CanonicalMessage[] = [];
  const pending = new Map<string, string[]>();
  let calls = 0;
  for (const message of messages) {
    const text = message.content ?? "";
    if (message.role === "system") {
      if (text !== "") system.push(text);
      continue;
    }
    if (message.role === "tool") {
      const name = message.tool_name ?? "";
      const toolCallId = message.tool_call_id ?? pending.get(name)?.shift() ?? `call_${++calls}`;
      out.push({ role: "tool", content: [{ type: "tool-result", toolCallId, content: text }] });
      continue;
    }
    const content: CanonicalContentPart[] = [];
    if (message.role === "assistant" && message.thinking) content.push({ type: "thinking", text: message.thinking });
    if (text !== "") content.push({ type: "text", text });
    for (const image of message.images ?? [])
      content.push({ type: "image", source: { kind: "base64", mediaType: mediaTypeOf(image), data: image } });
    for (const call of message.tool_calls ?? []) {
      const id = call.id ?? `call_${++calls}`;
      pending.set(call.function.name, [...(pending.get(call.function.name) ?? []), id]);
      const args = call.function.arguments;
      content.push({
        type: "tool-call",
        id,
        name: call.function.name,
        arguments: typeof args === "string" ? args : toolArgumentsText(args),
      });
    }
    if (content.length > 0) out.push({ role: message.role, content });
  }
  return { system, messages: out };
}

export function parseOllamaRequest(raw: unknown): OllamaRequestParse {
  const parsed = ollamaClientRequestSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, issues: toDialectIssues(parsed.error.issues) };
  const body = parsed.data;
  const { system, messages } = readMessages(body.messages ?? []);
  const request: CanonicalRequest = { messages };
  if (system.length > 0) request.system = system.join("\n\n");
  if (body.tools && body.tools.length > 0) {
    request.tools = body.tools.map((tool) => ({
      name: tool.function.name,
      ...(tool.function.description !== undefined ? { description: tool.function.description } : {}),
      parameters: tool.function.parameters ?? { type: "object", properties: {} },
    }));
  }
  samplingFromWire(body.options, OLLAMA_SAMPLING_NAMES, request);
  if (body.format === "json") request.responseFormat = { type: "json" };
  else if (typeof body.format === "object") request.responseFormat = { type: "json-schema", name: "response", schema: body.format };
  if (body.think !== undefined) {
    request.reasoning = typeof body.think === "boolean" ? { enabled: body.think } : { enabled: true, effort: body.think };
  }
  const unmapped = unmappedFields(body, MAPPED_FIELDS);
  if (unmapped) request.providerOptions = { ollama: unmapped };
  return { ok: true, request, model: body.model, stream: body.stream !== false };
}
