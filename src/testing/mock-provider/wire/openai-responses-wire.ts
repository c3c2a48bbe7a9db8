/**
 * OpenAI Responses (`POST /v1/responses`): JSON `response` objects and typed SSE events ending in
 * `response.completed`; errors as OpenAI's `{"error":{"message","type","param","code"}}` over HTTP and an
 * `error` event inside a stream. Answers are rendered by the shared wire module (`wire/openai-responses`).
 */
import type { CanonicalStreamEvent } from "../../../ports/canonical.js";
import {
  createResponsesStreamEncoder,
  openAIResponsesWire as responsesFormat,
  renderResponsesResponse,
  responsesSseEvent,
} from "../../../wire/openai-responses/index.js";
import { splitArguments, type MockConversation, type MockReply } from "../reply.js";
import { openAIWire } from "./openai-wire.js";
import {
  bodyNamingModel,
  canonicalReply,
  chatRequestRead,
  featuresOf,
  isRecord,
  textOf,
  type MockWire,
  type ReplyContext,
  type WireReadResult,
} from "./mock-wire.js";

function readConversation(input: unknown, instructions: unknown, tools: unknown): MockConversation {
  const items: unknown[] = typeof input === "string" ? [{ role: "user", content: input }] : Array.isArray(input) ? input : [];
  let inputCharacters = typeof instructions === "string" ? instructions.length : 0;
  for (const item of items) {
    if (!isRecord(item)) continue;
    inputCharacters += textOf(item.content).length + (typeof item.output === "string" ? item.output.length : 0);
  }
  const last = items[items.length - 1];
  const offered = Array.isArray(tools)
    ? tools.flatMap((tool) =>
        isRecord(tool) && tool.type === "function" && typeof tool.name === "string"
          ? [{ name: tool.name, ...(isRecord(tool.parameters) ? { parameters: tool.parameters } : {}) }]
          : [],
      )
    : [];
  const lastIsUser = isRecord(last) && last.role === "user";
  const lastIsToolOutput = isRecord(last) && last.type === "function_call_output";
  return {
    ...(lastIsUser ? { lastUserText: textOf(last.content) } : {}),
    ...(lastIsToolOutput ? { lastToolResultText: typeof last.output === "string" ? last.output : textOf(last.output) } : {}),
    tools: offered,
    inputCharacters,
  };
}

/** The reply as canonical stream events, one token per text delta (so faults can cut between tokens). */
function replyEvents(reply: MockReply, context: ReplyContext) {
  const start: CanonicalStreamEvent = { type: "message-start", id: context.id, model: context.model };
  // Responses reasoning items are OpenAI's encrypted state: the mock reports reasoning as usage only.
  const content: CanonicalStreamEvent[][] = reply.textTokens.map((text) => [{ type: "text-delta", text }]);
  if (reply.toolCall) {
    const call = reply.toolCall;
    content.push(
      [{ type: "tool-call-delta", index: 0, id: call.id, name: call.name }],
      ...splitArguments(call.arguments).map((piece): CanonicalStreamEvent[] => [
        { type: "tool-call-delta", index: 0, argumentsDelta: piece },
      ]),
    );
  }
  const finish: CanonicalStreamEvent = { type: "finish", reason: reply.finishReason, usage: reply.usage };
  return { start, content, finish };
}

export const openAIResponsesWire: MockWire = {
  api: "openai-responses",
  streamContentType: "text/event-stream; charset=utf-8",

  readRequest(input): WireReadResult {
    const read = bodyNamingModel(input, "Missing required parameter: 'model'.");
    if (!read.ok) return read;
    const { body, model } = read;
    if (body.input === undefined && body.previous_response_id === undefined)
      return { ok: false, message: "Missing required parameter: 'input'." };
    return chatRequestRead(body, model, {
      // The Responses API always reports usage, in `response.completed`.
      includeUsage: true,
      conversation: { ...readConversation(body.input, body.instructions, body.tools), ...featuresOf(responsesFormat, body) },
    });
  },

  renderJson(reply, context) {
    return renderResponsesResponse(canonicalReply(reply, context), { createdSeconds: context.createdSeconds });
  },

  streamFrames(reply, context) {
    const encoder = createResponsesStreamEncoder({ id: context.id, model: context.model, createdSeconds: context.createdSeconds });
    const events = replyEvents(reply, context);
    return {
      lead: encoder.encode(events.start),
      content: events.content.map((group) => group.flatMap((event) => encoder.encode(event)).join("")),
      finish: encoder.encode(events.finish),
      done: [],
    };
  },

  errorBody(error) {
    return openAIWire.errorBody(error);
  },

  errorHeaders(error) {
    return openAIWire.errorHeaders(error);
  },

  streamErrorFrame(error) {
    const body = openAIWire.errorBody(error) as { error: { message: string; code: string | null } };
    return responsesSseEvent({ type: "error", code: body.error.code, message: body.error.message, param: null, sequence_number: 0 });
  },

  malformedFrame() {
    return 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"unterminated\n\n';
  },

  badRequestBody(message) {
    return openAIWire.badRequestBody(message);
  },
};
