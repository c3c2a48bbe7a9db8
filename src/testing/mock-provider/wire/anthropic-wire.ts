/**
 * Anthropic messages (`POST /v1/messages`): JSON answers and the SSE event stream (message_start,
 * content_block_start/delta/stop, message_delta, message_stop); errors as
 * `{"type":"error","error":{"type","message"}}` and in-band `event: error`.
 */
import {
  anthropicMessagesWire,
  CANONICAL_TO_ANTHROPIC_STOP_REASON,
  renderAnthropicMessage,
  renderAnthropicUsage,
} from "../../../wire/anthropic-messages/index.js";
import { messageFor } from "../error-presets.js";
import { splitArguments, type MockConversation, type MockReply } from "../reply.js";
import {
  bodyNamingModel,
  canonicalReply,
  chatRequestRead,
  featuresOf,
  isRecord,
  sseEvent,
  textOf,
  type MockWire,
  type WireReadResult,
} from "./mock-wire.js";

const STOP_REASON = CANONICAL_TO_ANTHROPIC_STOP_REASON;

function toolResultText(block: Record<string, unknown>): string {
  return typeof block.content === "string" ? block.content : textOf(block.content);
}

function readConversation(body: Record<string, unknown>): MockConversation {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  let inputCharacters = textOf(body.system).length;
  for (const message of messages) {
    if (!isRecord(message)) continue;
    inputCharacters += textOf(message.content).length;
    if (Array.isArray(message.content)) {
      for (const block of message.content) {
        if (isRecord(block) && block.type === "tool_result") inputCharacters += toolResultText(block).length;
      }
    }
  }
  const last = messages[messages.length - 1];
  const lastContent = isRecord(last) ? last.content : undefined;
  const toolResult = Array.isArray(lastContent)
    ? lastContent.find((block): block is Record<string, unknown> => isRecord(block) && block.type === "tool_result")
    : undefined;
  const isUser = isRecord(last) && last.role === "user";
  const tools = Array.isArray(body.tools)
    ? body.tools.flatMap((tool) =>
        isRecord(tool) && typeof tool.name === "string"
          ? [{ name: tool.name, ...(isRecord(tool.input_schema) ? { parameters: tool.input_schema } : {}) }]
          : [],
      )
    : [];
  const previous = messages[messages.length - 2];
  const previousAssistant = isUser && isRecord(previous) && previous.role === "assistant" ? textOf(previous.content) : undefined;
  return {
    ...(isUser && !toolResult ? { lastUserText: textOf(lastContent) } : {}),
    ...(isRecord(last) && last.role === "assistant" ? { trailingAssistantText: textOf(lastContent) } : {}),
    ...(previousAssistant !== undefined ? { previousAssistantText: previousAssistant } : {}),
    ...(isUser && toolResult ? { lastToolResultText: toolResultText(toolResult) } : {}),
    tools,
    inputCharacters,
  };
}

/**
 * Block stops ride on the block's last delta so that every element of `content` is one token: a fault
 * "after N tokens" then means N deltas, as the scenario author expects.
 */
function closeLastFrame(content: string[], index: number): void {
  const last = content.length - 1;
  content[last] = `${content[last] ?? ""}${sseEvent("content_block_stop", { type: "content_block_stop", index })}`;
}

export const anthropicWire: MockWire = {
  api: "anthropic",
  streamContentType: "text/event-stream; charset=utf-8",

  readRequest(input): WireReadResult {
    const read = bodyNamingModel(input, "model: Field required");
    if (!read.ok) return read;
    const { body, model } = read;
    if (!Array.isArray(body.messages)) return { ok: false, message: "messages: Field required" };
    if (typeof body.max_tokens !== "number") return { ok: false, message: "max_tokens: Field required" };
    return chatRequestRead(body, model, {
      includeUsage: true,
      conversation: { ...readConversation(body), ...featuresOf(anthropicMessagesWire, body) },
    });
  },

  renderJson(reply, context) {
    const call = reply.toolCall;
    // Anthropic names tool calls toolu_…; the reply's ids are OpenAI-style.
    const anthropicReply = call ? { ...reply, toolCall: { ...call, id: call.id.replace(/^call_/, "toolu_") } } : reply;
    return renderAnthropicMessage(canonicalReply(anthropicReply, context));
  },

  streamFrames(reply, context) {
    const lead = [
      sseEvent("message_start", {
        type: "message_start",
        message: {
          id: context.id,
          type: "message",
          role: "assistant",
          model: context.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: renderAnthropicUsage({ ...reply.usage, outputTokens: 1 }),
        },
      }),
    ];
    const content: string[] = [];
    const finish: string[] = [];
    let blockIndex = 0;
    const blockStart = (index: number, block: Record<string, unknown>) =>
      sseEvent("content_block_start", { type: "content_block_start", index, content_block: block });
    const delta = (index: number, payload: Record<string, unknown>) =>
      sseEvent("content_block_delta", { type: "content_block_delta", index, delta: payload });
    if (reply.thinking) {
      // Thinking comes first, its signature at the end of the block, as Anthropic streams it.
      lead.push(blockStart(0, { type: "thinking", thinking: "", signature: "" }));
      for (const token of reply.thinking.tokens) content.push(delta(0, { type: "thinking_delta", thinking: token }));
      content[content.length - 1] = `${content.at(-1) ?? ""}${delta(0, { type: "signature_delta", signature: reply.thinking.signature })}`;
      closeLastFrame(content, 0);
      blockIndex = 1;
    }
    if (reply.textTokens.length > 0) {
      const index = blockIndex;
      const start = [blockStart(index, { type: "text", text: "" }), sseEvent("ping", { type: "ping" })];
      // With no block before it, the text block opens with the headers; after thinking, with its first token.
      if (index === 0) lead.push(...start);
      reply.textTokens.forEach((token, position) => {
        const frame = delta(index, { type: "text_delta", text: token });
        content.push(position === 0 && index > 0 ? `${start.join("")}${frame}` : frame);
      });
      closeLastFrame(content, index);
      blockIndex = index + 1;
    }
    if (reply.toolCall) {
      const call = reply.toolCall;
      const index = blockIndex;
      content.push(
        blockStart(index, { type: "tool_use", id: call.id.replace(/^call_/, "toolu_"), name: call.name, input: {} }),
        ...splitArguments(call.arguments).map((piece) => delta(index, { type: "input_json_delta", partial_json: piece })),
      );
      closeLastFrame(content, index);
    }
    finish.push(
      sseEvent("message_delta", {
        type: "message_delta",
        delta: { stop_reason: STOP_REASON[reply.finishReason], stop_sequence: null },
        usage: renderAnthropicUsage(reply.usage),
      }),
    );
    return { lead, content, finish, done: [sseEvent("message_stop", { type: "message_stop" })] };
  },

  errorBody(error) {
    return { type: "error", error: { type: error.row.anthropic.type, message: messageFor(error, "anthropic") } };
  },

  errorHeaders(error): Record<string, string> {
    if (error.retryAfterSeconds === undefined) return {};
    const resetAt = new Date(Date.now() + error.retryAfterSeconds * 1000).toISOString();
    return { "anthropic-ratelimit-requests-reset": resetAt };
  },

  streamErrorFrame(error) {
    return sseEvent("error", this.errorBody(error));
  },

  malformedFrame() {
    return 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"oops"\n\n';
  },

  badRequestBody(message) {
    return { type: "error", error: { type: "invalid_request_error", message } };
  },
};
