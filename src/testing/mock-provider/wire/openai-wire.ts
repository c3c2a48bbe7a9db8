/**
 * OpenAI chat completions (`POST /v1/chat/completions`): JSON answers and SSE chunks ending in
 * `data: [DONE]`; errors as `{"error":{"message","type","param","code"}}`.
 */
import {
  CANONICAL_TO_OPENAI_FINISH_REASON,
  openAIChatWire,
  renderOpenAIChatCompletion,
  renderOpenAIUsage,
} from "../../../wire/openai-chat/index.js";
import { messageFor, type ResolvedMockError } from "../error-presets.js";
import { splitArguments, type MockConversation, type MockReply } from "../reply.js";
import {
  bodyNamingModel,
  canonicalReply,
  chatRequestRead,
  featuresOf,
  isRecord,
  sseData,
  textOf,
  type MockWire,
  type ReplyContext,
  type WireReadResult,
} from "./mock-wire.js";

function readConversation(messages: unknown[], tools: unknown): MockConversation {
  let inputCharacters = 0;
  for (const message of messages) if (isRecord(message)) inputCharacters += textOf(message.content).length;
  const last = messages[messages.length - 1];
  const lastRole = isRecord(last) ? last.role : undefined;
  const offered = Array.isArray(tools)
    ? tools.flatMap((tool) => {
        const fn = isRecord(tool) && isRecord(tool.function) ? tool.function : undefined;
        if (!fn || typeof fn.name !== "string") return [];
        return [{ name: fn.name, ...(isRecord(fn.parameters) ? { parameters: fn.parameters } : {}) }];
      })
    : [];
  const lastText = isRecord(last) ? textOf(last.content) : "";
  const previous = messages[messages.length - 2];
  const previousAssistant =
    lastRole === "user" && isRecord(previous) && previous.role === "assistant" ? textOf(previous.content) : undefined;
  return {
    ...(lastRole === "user" ? { lastUserText: lastText } : {}),
    ...(lastRole === "tool" ? { lastToolResultText: lastText } : {}),
    ...(lastRole === "assistant" ? { trailingAssistantText: lastText } : {}),
    ...(previousAssistant !== undefined ? { previousAssistantText: previousAssistant } : {}),
    tools: offered,
    inputCharacters,
  };
}

function finishUsage(reply: MockReply) {
  return renderOpenAIUsage(reply.usage);
}

export const openAIWire: MockWire = {
  api: "openai",
  streamContentType: "text/event-stream; charset=utf-8",

  readRequest(input): WireReadResult {
    const read = bodyNamingModel(input, "you must provide a model parameter");
    if (!read.ok) return read;
    const { body, model } = read;
    if (!Array.isArray(body.messages)) return { ok: false, message: "'messages' is a required property" };
    const streamOptions = isRecord(body.stream_options) ? body.stream_options : {};
    return chatRequestRead(body, model, {
      includeUsage: streamOptions.include_usage === true,
      conversation: { ...readConversation(body.messages, body.tools), ...featuresOf(openAIChatWire, body) },
    });
  },

  renderJson(reply, context: ReplyContext) {
    const body = renderOpenAIChatCompletion(canonicalReply(reply, context), { createdSeconds: context.createdSeconds });
    // As OpenAI sends it: a text-less answer carries null content, and every message an `annotations` list.
    const choices = body.choices.map((choice) => ({
      ...choice,
      message: { ...choice.message, ...(choice.message.content === "" ? { content: null } : {}), annotations: [] },
    }));
    return { ...body, choices, system_fingerprint: "fp_mock" };
  },

  streamFrames(reply, context) {
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
      sseData({
        id: context.id,
        object: "chat.completion.chunk",
        created: context.createdSeconds,
        model: context.model,
        system_fingerprint: "fp_mock",
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      });
    const content = reply.textTokens.map((token) => chunk({ content: token }));
    if (reply.toolCall) {
      const call = reply.toolCall;
      content.push(
        chunk({
          tool_calls: [{ index: 0, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
        }),
        ...splitArguments(call.arguments).map((piece) => chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] })),
      );
    }
    const finish = [chunk({}, CANONICAL_TO_OPENAI_FINISH_REASON[reply.finishReason])];
    if (context.includeUsage) {
      finish.push(
        sseData({
          id: context.id,
          object: "chat.completion.chunk",
          created: context.createdSeconds,
          model: context.model,
          system_fingerprint: "fp_mock",
          choices: [],
          usage: finishUsage(reply),
        }),
      );
    }
    return {
      lead: [chunk({ role: "assistant", content: "", refusal: null })],
      content,
      finish,
      done: ["data: [DONE]\n\n"],
    };
  },

  errorBody(error: ResolvedMockError) {
    const row = error.row.openai;
    let message = messageFor(error, "openai");
    if (error.retryAfterSeconds !== undefined && error.message === undefined && error.preset === "rate-limit") {
      message += ` Please try again in ${error.retryAfterSeconds}s.`;
    }
    return { error: { message, type: row.type, param: row.param ?? null, code: row.code } };
  },

  errorHeaders(error): Record<string, string> {
    if (error.retryAfterSeconds === undefined) return {};
    return {
      "retry-after-ms": String(Math.round(error.retryAfterSeconds * 1000)),
      "x-ratelimit-reset-requests": `${error.retryAfterSeconds}s`,
    };
  },

  streamErrorFrame(error) {
    return sseData(this.errorBody(error));
  },

  malformedFrame() {
    return 'data: {"id":"chatcmpl-broken","choices":[{"delta":{"content":"unterminated\n\n';
  },

  badRequestBody(message) {
    return { error: { message, type: "invalid_request_error", param: null, code: null } };
  },
};
