/** Canonical request → Anthropic Messages request (R-GW-2, R-GW-6: lossless for what Anthropic can say). */
import type { CanonicalCacheMark, CanonicalImage, CanonicalMessage, CanonicalRequest, CanonicalToolChoice } from "../../ports/canonical.js";
import { budgetForReasoning, EncodingNotes, ownProviderOptions, type WireEncoding } from "../shared/encoding.js";
import { imageAsBase64 } from "../shared/images.js";
import { toolArgumentsObject } from "../shared/tool-arguments.js";
import type { AnthropicCacheControl, AnthropicMessagesRequest, AnthropicRequestBlock } from "./schemas.js";

/** Anthropic requires `max_tokens`; this applies when the client did not say. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;
/** Anthropic rejects a thinking budget below this. */
export const MIN_THINKING_BUDGET_TOKENS = 1024;

type AnthropicMessage = AnthropicMessagesRequest["messages"][number];
type ImageBlock = Extract<AnthropicRequestBlock, { type: "image" }>;
type TextBlock = Extract<AnthropicRequestBlock, { type: "text" }>;

function cacheOf(mark: CanonicalCacheMark | undefined): { cache_control?: AnthropicCacheControl } {
  if (!mark) return {};
  return { cache_control: { type: "ephemeral", ...(mark.ttl === undefined ? {} : { ttl: mark.ttl }) } };
}

/** The request body, or the field Anthropic cannot carry (R-GW-6 `incompatible`). */
export function encodeAnthropicRequest(
  request: CanonicalRequest,
  options: { model: string; stream: boolean },
): WireEncoding<AnthropicMessagesRequest> {
  const notes = new EncodingNotes("anthropic-messages");
  const own = ownProviderOptions(request.providerOptions, notes);
  const wire: AnthropicMessagesRequest = {
    ...own,
    model: options.model,
    max_tokens: request.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
    messages: mergeConsecutiveRoles(request.messages.map((message) => toAnthropicMessage(message, notes))),
  };
  const system = systemOf(request);
  if (system !== undefined) wire.system = system;
  if (request.tools && request.tools.length > 0) {
    wire.tools = request.tools.map((tool) => {
      if (tool.strict !== undefined) notes.drop("strict");
      return {
        name: tool.name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        input_schema: tool.parameters,
        ...cacheOf(tool.cache),
      };
    });
  }
  const toolChoice = toAnthropicToolChoice(request.toolChoice, request.parallelToolCalls === false && wire.tools !== undefined);
  if (toolChoice) wire.tool_choice = toolChoice;
  if (request.temperature !== undefined) wire.temperature = request.temperature;
  // Current Claude models reject temperature and top_p together; temperature is the more common knob.
  if (request.topP !== undefined) {
    if (request.temperature === undefined) wire.top_p = request.topP;
    else notes.drop("top_p");
  }
  if (request.topK !== undefined) wire.top_k = request.topK;
  if (request.stop && request.stop.length > 0) wire.stop_sequences = request.stop;
  if (request.reasoning) applyThinking(wire, request.reasoning);
  // Hints Anthropic has no field for (R-GW-6: dropped and named).
  if (request.seed !== undefined) notes.drop("seed");
  if (request.frequencyPenalty !== undefined) notes.drop("frequency_penalty");
  if (request.presencePenalty !== undefined) notes.drop("presence_penalty");
  // Fields whose loss changes the answer make this candidate incompatible.
  if (request.responseFormat && request.responseFormat.type !== "text") notes.reject("response_format");
  if (request.logprobs) notes.reject("logprobs");
  if (request.topLogprobs !== undefined && request.topLogprobs > 0) notes.reject("top_logprobs");
  if (request.logitBias && Object.keys(request.logitBias).length > 0) notes.reject("logit_bias");
  if (request.choiceCount !== undefined && request.choiceCount > 1) notes.reject("n", "Anthropic answers with one message");
  const userId = request.user ?? request.metadata?.user_id;
  if (userId) wire.metadata = { user_id: userId };
  // Anthropic's metadata accepts only `user_id`; other keys would be rejected with a 400.
  if (request.metadata && Object.keys(request.metadata).some((key) => key !== "user_id")) notes.drop("metadata");
  if (options.stream) wire.stream = true;
  else delete wire.stream;
  return notes.finish(wire);
}

function systemOf(request: CanonicalRequest): AnthropicMessagesRequest["system"] {
  const parts = request.systemParts;
  if (!parts || parts.length === 0) return request.system ? request.system : undefined;
  // Developer and system instructions share Anthropic's one system slot, in order, as separate blocks.
  if (parts.length === 1 && !parts[0]?.cache) return parts[0]?.text;
  return parts.map((part): TextBlock => ({ type: "text", text: part.text, ...cacheOf(part.cache) }));
}

function applyThinking(wire: AnthropicMessagesRequest, reasoning: NonNullable<CanonicalRequest["reasoning"]>): void {
  if (!reasoning.enabled) {
    wire.thinking = { type: "disabled" };
    return;
  }
  const budget = Math.max(MIN_THINKING_BUDGET_TOKENS, budgetForReasoning(reasoning));
  // max_tokens counts thinking too and must exceed the budget; the client's limit stays the answer's room.
  if (wire.max_tokens <= budget) wire.max_tokens = budget + wire.max_tokens;
  wire.thinking = { type: "enabled", budget_tokens: budget };
}

function toAnthropicToolChoice(
  choice: CanonicalToolChoice | undefined,
  oneCallAtMost: boolean,
): AnthropicMessagesRequest["tool_choice"] | undefined {
  const disable = oneCallAtMost ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined) return oneCallAtMost ? { type: "auto", ...disable } : undefined;
  if (choice === "none") return { type: "none" };
  if (choice === "auto") return { type: "auto", ...disable };
  if (choice === "required") return { type: "any", ...disable };
  return { type: "tool", name: choice.name, ...disable };
}

function imageBlock(part: CanonicalImage, notes: EncodingNotes): ImageBlock | undefined {
  if (part.detail !== undefined) notes.drop("detail");
  const inline = imageAsBase64(part);
  if (inline) return { type: "image", source: { type: "base64", media_type: inline.mediaType, data: inline.data }, ...cacheOf(part.cache) };
  return part.source.kind === "url" ? { type: "image", source: { type: "url", url: part.source.url }, ...cacheOf(part.cache) } : undefined;
}

function toAnthropicMessage(message: CanonicalMessage, notes: EncodingNotes): AnthropicMessage {
  const blocks = message.content.flatMap((part): AnthropicRequestBlock[] => {
    switch (part.type) {
      case "text":
        // Anthropic rejects empty text blocks.
        return part.text === "" ? [] : [{ type: "text", text: part.text, ...cacheOf(part.cache) }];
      case "image": {
        const block = imageBlock(part, notes);
        return block ? [block] : [];
      }
      case "thinking":
        if (part.origin !== undefined) {
          // OpenAI reasoning items are encrypted for OpenAI; Anthropic cannot read them back (R-GW-6 hint).
          notes.drop("reasoning");
          return [];
        }
        if (part.redactedData !== undefined) return [{ type: "redacted_thinking", data: part.redactedData }];
        return [{ type: "thinking", thinking: part.text, ...(part.signature === undefined ? {} : { signature: part.signature }) }];
      case "tool-call":
        return [{ type: "tool_use", id: part.id, name: part.name, input: toolArgumentsObject(part.arguments), ...cacheOf(part.cache) }];
      case "tool-result": {
        const content = part.parts
          ? part.parts.flatMap((inner): (TextBlock | ImageBlock)[] => {
              if (inner.type === "text") return [{ type: "text", text: inner.text, ...cacheOf(inner.cache) }];
              const block = imageBlock(inner, notes);
              return block ? [block] : [];
            })
          : part.content;
        return [
          {
            type: "tool_result",
            tool_use_id: part.toolCallId,
            content,
            ...(part.isError ? { is_error: true } : {}),
            ...cacheOf(part.cache),
          },
        ];
      }
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
