/** Canonical request → Anthropic Messages request (R-GW-2). */
import type { CanonicalMessage, CanonicalRequest, CanonicalToolChoice } from "../../ports/canonical.js";
import { imageAsBase64 } from "../shared/images.js";
import { toolArgumentsObject } from "../shared/tool-arguments.js";
import type { AnthropicMessagesRequest, AnthropicRequestBlock } from "./anthropic-wire.js";

/** Anthropic requires `max_tokens`; this applies when the client did not say. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;

type AnthropicMessage = AnthropicMessagesRequest["messages"][number];

export function toAnthropicRequest(
  request: CanonicalRequest,
  options: { model: string; stream: boolean },
): AnthropicMessagesRequest {
  const wire: AnthropicMessagesRequest = {
    model: options.model,
    max_tokens: request.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
    messages: mergeConsecutiveRoles(request.messages.map(toAnthropicMessage)),
  };
  if (request.system) wire.system = request.system;
  if (request.tools && request.tools.length > 0) {
    wire.tools = request.tools.map((tool) => ({
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      input_schema: tool.parameters,
    }));
  }
  if (request.toolChoice !== undefined) wire.tool_choice = toAnthropicToolChoice(request.toolChoice);
  if (request.temperature !== undefined) wire.temperature = request.temperature;
  // Current Claude models reject temperature and top_p together; temperature is the more common knob.
  if (request.topP !== undefined && request.temperature === undefined) wire.top_p = request.topP;
  if (request.stop && request.stop.length > 0) wire.stop_sequences = request.stop;
  // Anthropic's metadata accepts only `user_id`; other keys would be rejected with a 400.
  const userId = request.metadata?.user_id;
  if (userId) wire.metadata = { user_id: userId };
  if (options.stream) wire.stream = true;
  return wire;
}

function toAnthropicToolChoice(choice: CanonicalToolChoice): NonNullable<AnthropicMessagesRequest["tool_choice"]> {
  if (choice === "auto" || choice === "none") return { type: choice };
  if (choice === "required") return { type: "any" };
  return { type: "tool", name: choice.name };
}

function toAnthropicMessage(message: CanonicalMessage): AnthropicMessage {
  const blocks = message.content.flatMap((part): AnthropicRequestBlock[] => {
    switch (part.type) {
      case "text":
        // Anthropic rejects empty text blocks.
        return part.text === "" ? [] : [{ type: "text", text: part.text }];
      case "image": {
        const inline = imageAsBase64(part);
        if (inline) return [{ type: "image", source: { type: "base64", media_type: inline.mediaType, data: inline.data } }];
        return part.source.kind === "url" ? [{ type: "image", source: { type: "url", url: part.source.url } }] : [];
      }
      case "tool-call":
        return [{ type: "tool_use", id: part.id, name: part.name, input: toolArgumentsObject(part.arguments) }];
      case "tool-result":
        return [
          {
            type: "tool_result",
            tool_use_id: part.toolCallId,
            content: part.content,
            ...(part.isError ? { is_error: true } : {}),
          },
        ];
    }
  });
  // Tool results travel in user turns on this API.
  return { role: message.role === "assistant" ? "assistant" : "user", content: blocks };
}

/**
 * Anthropic wants alternating turns, and every tool result of one assistant turn inside the single
 * user turn that follows it, tool results first. Canonical `tool` messages are therefore merged into
 * the neighbouring user turn.
 */
function mergeConsecutiveRoles(messages: AnthropicMessage[]): AnthropicMessage[] {
  const merged: AnthropicMessage[] = [];
  for (const message of messages) {
    if (message.content.length === 0) continue;
    const previous = merged.at(-1);
    if (previous && previous.role === message.role) previous.content = [...previous.content, ...message.content];
    else merged.push({ role: message.role, content: [...message.content] });
  }
  for (const message of merged) {
    if (message.role === "user") message.content = toolResultsFirst(message.content);
  }
  return merged;
}

function toolResultsFirst(blocks: AnthropicRequestBlock[]): AnthropicRequestBlock[] {
  return [...blocks.filter((block) => block.type === "tool_result"), ...blocks.filter((block) => block.type !== "tool_result")];
}
