/**
 * Anthropic messages request → canonical request (R-GW-2, R-GW-6). Tool results, which Anthropic carries
 * inside a user message, become a canonical `tool` message placed before the rest of that user turn.
 * Cache marks, thinking blocks and system blocks are kept; fields the canonical model has no slot for
 * ride in the provider-options bag under `anthropic-messages`.
 */
import type {
  CanonicalCacheMark,
  CanonicalContentPart,
  CanonicalImage,
  CanonicalMessage,
  CanonicalRequest,
  CanonicalSystemPart,
  CanonicalText,
  CanonicalToolChoice,
  CanonicalToolResult,
} from "../../ports/canonical.js";
import { unmappedFields } from "../shared/encoding.js";
import { toDialectIssues, type DialectParseResult } from "../shared/validation-issues.js";
import {
  ANTHROPIC_MAPPED_FIELDS,
  anthropicMessagesRequestSchema,
  type AnthropicMessage,
  type AnthropicMessagesRequest,
} from "./request-schema.js";

export type AnthropicParseResult = DialectParseResult<{
  request: CanonicalRequest;
  /** The `model` field as sent: an alias, `provider/model`, or an agent id (R-GW-3). */
  model: string;
  stream: boolean;
}>;

type UserBlock = Extract<AnthropicMessage, { role: "user" }>["content"][number];
type ImageBlock = Extract<UserBlock, { type: "image" }>;
type CacheControl = { type: "ephemeral"; ttl?: string | undefined } | null | undefined;

function cacheMark(control: CacheControl): { cache?: CanonicalCacheMark } {
  if (!control) return {};
  return { cache: { type: "ephemeral", ...(control.ttl === undefined ? {} : { ttl: control.ttl }) } };
}

function imagePart(block: ImageBlock): CanonicalImage {
  const source: CanonicalImage["source"] =
    block.source.type === "base64"
      ? { kind: "base64", mediaType: block.source.media_type, data: block.source.data }
      : { kind: "url", url: block.source.url };
  return { type: "image", source, ...cacheMark(block.cache_control) };
}

function toolResultPart(block: Extract<UserBlock, { type: "tool_result" }>): CanonicalToolResult {
  const base = {
    type: "tool-result" as const,
    toolCallId: block.tool_use_id,
    ...(block.is_error === undefined ? {} : { isError: block.is_error }),
    ...cacheMark(block.cache_control),
  };
  if (typeof block.content === "string" || block.content === undefined) return { ...base, content: block.content ?? "" };
  const parts = block.content.map((inner): CanonicalText | CanonicalImage =>
    inner.type === "text" ? { type: "text", text: inner.text, ...cacheMark(inner.cache_control) } : imagePart(inner),
  );
  const text = parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  // Structured parts only when plain text would lose something (images, cache marks, several blocks).
  const plain = parts.length === 1 && parts[0]?.type === "text" && parts[0].cache === undefined;
  return { ...base, content: text, ...(plain ? {} : { parts }) };
}

function toCanonicalMessages(message: AnthropicMessage): CanonicalMessage[] {
  if (typeof message.content === "string") {
    return [{ role: message.role, content: [{ type: "text", text: message.content }] }];
  }
  if (message.role === "assistant") {
    const content = message.content.map((block): CanonicalContentPart => {
      switch (block.type) {
        case "text":
          return { type: "text", text: block.text, ...cacheMark(block.cache_control) };
        case "tool_use":
          return {
            type: "tool-call",
            id: block.id,
            name: block.name,
            arguments: JSON.stringify(block.input),
            ...cacheMark(block.cache_control),
          };
        case "thinking":
          return { type: "thinking", text: block.thinking, ...(block.signature === undefined ? {} : { signature: block.signature }) };
        case "redacted_thinking":
          return { type: "thinking", text: "", redactedData: block.data };
      }
    });
    return [{ role: "assistant", content }];
  }
  const toolResults: CanonicalContentPart[] = [];
  const userContent: CanonicalContentPart[] = [];
  for (const block of message.content) {
    if (block.type === "tool_result") toolResults.push(toolResultPart(block));
    else if (block.type === "text") userContent.push({ type: "text", text: block.text, ...cacheMark(block.cache_control) });
    else userContent.push(imagePart(block));
  }
  const messages: CanonicalMessage[] = [];
  if (toolResults.length > 0) messages.push({ role: "tool", content: toolResults });
  if (userContent.length > 0 || toolResults.length === 0) messages.push({ role: "user", content: userContent });
  return messages;
}

function toToolChoice(choice: AnthropicMessagesRequest["tool_choice"]): CanonicalToolChoice | undefined {
  switch (choice?.type) {
    case undefined:
      return undefined;
    case "auto":
      return "auto";
    case "any":
      return "required";
    case "none":
      return "none";
    case "tool":
      return { name: choice.name };
  }
}

function systemParts(system: AnthropicMessagesRequest["system"]): CanonicalSystemPart[] | undefined {
  if (system === undefined) return undefined;
  if (typeof system === "string") return system === "" ? undefined : [{ role: "system", text: system }];
  return system.map((block) => ({ role: "system", text: block.text, ...cacheMark(block.cache_control) }));
}

export function toCanonicalFromAnthropic(body: AnthropicMessagesRequest): CanonicalRequest {
  const system = systemParts(body.system);
  const toolChoice = toToolChoice(body.tool_choice);
  const disableParallel =
    body.tool_choice && "disable_parallel_tool_use" in body.tool_choice ? body.tool_choice.disable_parallel_tool_use : undefined;
  const userId = body.metadata?.user_id;
  const extra = unmappedFields(body, ANTHROPIC_MAPPED_FIELDS);
  const thinking = body.thinking;
  return {
    ...(system ? { system: system.map((part) => part.text).join("\n\n"), systemParts: system } : {}),
    messages: body.messages.flatMap(toCanonicalMessages),
    ...(body.tools && body.tools.length > 0
      ? {
          tools: body.tools.map((tool) => ({
            name: tool.name,
            ...(tool.description === undefined ? {} : { description: tool.description }),
            parameters: tool.input_schema,
            ...cacheMark(tool.cache_control),
          })),
        }
      : {}),
    ...(toolChoice === undefined ? {} : { toolChoice }),
    ...(disableParallel === true ? { parallelToolCalls: false } : {}),
    ...(body.temperature === undefined ? {} : { temperature: body.temperature }),
    ...(body.top_p === undefined ? {} : { topP: body.top_p }),
    ...(body.top_k === undefined ? {} : { topK: body.top_k }),
    maxTokens: body.max_tokens,
    ...(body.stop_sequences && body.stop_sequences.length > 0 ? { stop: body.stop_sequences } : {}),
    ...(thinking === undefined
      ? {}
      : { reasoning: thinking.type === "enabled" ? { enabled: true, budgetTokens: thinking.budget_tokens } : { enabled: false } }),
    stream: body.stream === true,
    ...(typeof userId === "string" ? { user: userId } : {}),
    ...(extra ? { providerOptions: { "anthropic-messages": extra } } : {}),
  };
}

export function parseAnthropicMessagesRequest(body: unknown): AnthropicParseResult {
  const parsed = anthropicMessagesRequestSchema.safeParse(body);
  if (!parsed.success) return { ok: false, issues: toDialectIssues(parsed.error.issues) };
  return {
    ok: true,
    request: toCanonicalFromAnthropic(parsed.data),
    model: parsed.data.model,
    stream: parsed.data.stream === true,
  };
}
