/**
 * Ollama native chat (`POST /api/chat`): JSON answers and NDJSON streams (streaming is the default, as
 * in Ollama; the `"done": true` line carries the finish reason and counts); errors as `{"error":"…"}`.
 */
import { messageFor } from "../error-presets.js";
import type { MockConversation, MockReply } from "../reply.js";
import { isRecord, textOf, type MockWire, type ReplyContext, type WireReadResult } from "./mock-wire.js";

function readConversation(body: Record<string, unknown>): MockConversation {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  let inputCharacters = 0;
  for (const message of messages) if (isRecord(message)) inputCharacters += textOf(message.content).length;
  const last = messages[messages.length - 1];
  const lastRole = isRecord(last) ? last.role : undefined;
  const lastText = isRecord(last) ? textOf(last.content) : "";
  const tools = (Array.isArray(body.tools) ? body.tools : []).flatMap((tool) => {
    const fn = isRecord(tool) && isRecord(tool.function) ? tool.function : undefined;
    return fn && typeof fn.name === "string"
      ? [{ name: fn.name, ...(isRecord(fn.parameters) ? { parameters: fn.parameters } : {}) }]
      : [];
  });
  return {
    ...(lastRole === "user" ? { lastUserText: lastText } : {}),
    ...(lastRole === "tool" ? { lastToolResultText: lastText } : {}),
    tools,
    inputCharacters,
  };
}

/** Ollama reports durations in nanoseconds; fixed plausible values keep answers deterministic. */
function finalFields(reply: MockReply) {
  return {
    done_reason: "stop",
    done: true,
    total_duration: 250_000_000,
    load_duration: 10_000_000,
    prompt_eval_count: reply.usage.inputTokens,
    prompt_eval_duration: 40_000_000,
    eval_count: reply.usage.outputTokens,
    eval_duration: 200_000_000,
  };
}

function line(payload: unknown): string {
  return `${JSON.stringify(payload)}\n`;
}

function toolCalls(reply: MockReply) {
  return reply.toolCall
    ? [{ function: { name: reply.toolCall.name, arguments: JSON.parse(reply.toolCall.arguments) as unknown } }]
    : undefined;
}

function createdAt(context: ReplyContext): string {
  return new Date(context.createdSeconds * 1000).toISOString();
}

export const ollamaWire: MockWire = {
  api: "ollama",
  streamContentType: "application/x-ndjson",

  readRequest(body): WireReadResult {
    if (!isRecord(body)) return { ok: false, message: "invalid request: body must be a JSON object" };
    if (typeof body.model !== "string" || body.model === "") return { ok: false, message: "model is required" };
    return {
      ok: true,
      info: {
        model: body.model,
        // Ollama streams unless told otherwise.
        stream: body.stream !== false,
        includeUsage: true,
        conversation: readConversation(body),
      },
    };
  },

  renderJson(reply, context) {
    const calls = toolCalls(reply);
    return {
      model: context.model,
      created_at: createdAt(context),
      message: { role: "assistant", content: reply.textTokens.join(""), ...(calls ? { tool_calls: calls } : {}) },
      ...finalFields(reply),
    };
  },

  streamFrames(reply, context) {
    const base = { model: context.model, created_at: createdAt(context) };
    const content = reply.textTokens.map((token) =>
      line({ ...base, message: { role: "assistant", content: token }, done: false }),
    );
    const calls = toolCalls(reply);
    if (calls) content.push(line({ ...base, message: { role: "assistant", content: "", tool_calls: calls }, done: false }));
    return {
      lead: [],
      content,
      finish: [line({ ...base, message: { role: "assistant", content: "" }, ...finalFields(reply) })],
      done: [],
    };
  },

  errorBody(error) {
    return { error: messageFor(error, "ollama") };
  },

  errorHeaders() {
    return {};
  },

  streamErrorFrame(error) {
    return line(this.errorBody(error));
  },

  malformedFrame() {
    return '{"model":"broken","message":{"role":"assistant","content":"oops"\n';
  },

  badRequestBody(message) {
    return { error: message };
  },
};
