/**
 * Anthropic messages request → canonical request (R-GW-2). Tool results, which Anthropic carries inside
 * a user message, become a canonical `tool` message placed before the rest of that user turn.
 */
import type {
  CanonicalContentPart,
  CanonicalMessage,
  CanonicalRequest,
  CanonicalToolChoice,
  CanonicalToolResult,
} from "../../../ports/canonical.js";
import { toDialectIssues, type DialectParseResult } from "../shared/validation-issues.js";
import {
  anthropicMessagesRequestSchema,
  type AnthropicMessage,
  type AnthropicMessagesRequest,
} from "./anthropic-request-schema.js";

export type AnthropicParseResult = DialectParseResult<{
  request: CanonicalRequest;
  /** The `model` field as sent: an alias, `provider/model`, or an agent id (R-GW-3). */
  model: string;
  stream: boolean;
}>;

type UserBlock = Extract<AnthropicMessage, { role: "user" }>["content"][number];
type ImageBlock = Extract<UserBlock, { type: "image" }>;

function imagePart(block: ImageBlock): CanonicalContentPart {
  return block.source.type === "base64"
    ? { type: "image", source: { kind: "base64", mediaType: block.source.media_type, data: block.source.data } }
    : { type: "image", source: { kind: "url", url: block.source.url } };
}

function toolResultPart(block: Extract<UserBlock, { type: "tool_result" }>): CanonicalToolResult {
  const content =
    typeof block.content === "string"
      ? block.content
      : (block.content ?? [])
          // Canonical tool results are text; images inside them are kept as a visible reference.
          .map((inner) => (inner.type === "text" ? inner.text : "[image]"))
          .join("\n");
  return {
    type: "tool-result",
    toolCallId: block.tool_use_id,
    content,
    ...(block.is_error === undefined ? {} : { isError: block.is_error }),
  };
}

function toCanonicalMessages(message: AnthropicMessage): CanonicalMessage[] {
  if (typeof message.content === "string") {
    return [{ role: message.role, content: [{ type: "text", text: message.content }] }];
  }
  if (message.role === "assistant") {
    const content = message.content.flatMap((block): CanonicalContentPart[] => {
      if (block.type === "text") return [{ type: "text", text: block.text }];
      if (block.type === "tool_use") {
        return [{ type: "tool-call", id: block.id, name: block.name, arguments: JSON.stringify(block.input) }];
      }
      return [];
    });
    return [{ role: "assistant", content }];
  }
  const toolResults: CanonicalContentPart[] = [];
  const userContent: CanonicalContentPart[] = [];
  for (const block of message.content) {
    if (block.type === "tool_result") toolResults.push(toolResultPart(block));
    else if (block.type === "text") userContent.push({ type: "text", text: block.text });
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

export function toCanonicalFromAnthropic(body: AnthropicMessagesRequest): CanonicalRequest {
  const system = typeof body.system === "string" ? body.system : body.system?.map((block) => block.text).join("\n\n");
  const toolChoice = toToolChoice(body.tool_choice);
  const userId = body.metadata?.user_id;
  return {
    ...(system === undefined || system === "" ? {} : { system }),
    messages: body.messages.flatMap(toCanonicalMessages),
    ...(body.tools && body.tools.length > 0
      ? {
          tools: body.tools.map((tool) => ({
            name: tool.name,
            ...(tool.description === undefined ? {} : { description: tool.description }),
            parameters: tool.input_schema,
          })),
        }
      : {}),
    ...(toolChoice === undefined ? {} : { toolChoice }),
    ...(body.temperature === undefined ? {} : { temperature: body.temperature }),
    ...(body.top_p === undefined ? {} : { topP: body.top_p }),
    maxTokens: body.max_tokens,
    ...(body.stop_sequences && body.stop_sequences.length > 0 ? { stop: body.stop_sequences } : {}),
    stream: body.stream === true,
    ...(typeof userId === "string" ? { metadata: { user_id: userId } } : {}),
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
