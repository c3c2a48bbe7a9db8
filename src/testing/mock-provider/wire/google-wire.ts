/**
 * Google Gemini (`POST /v1beta/models/<model>:generateContent` and `:streamGenerateContent?alt=sse`):
 * JSON answers and SSE chunks (no terminator: the chunk with `finishReason` is the last); errors as
 * `{"error":{"code","message","status","details"?}}`.
 */
import { messageFor } from "../error-presets.js";
import type { MockConversation, MockReply } from "../reply.js";
import { isRecord, sseData, textOf, type MockWire, type ReplyContext, type WireReadResult } from "./mock-wire.js";

/** Google's streams use CRLF line ends. */
const CRLF = "\r\n";

function partsOf(content: unknown): unknown[] {
  return isRecord(content) && Array.isArray(content.parts) ? content.parts : [];
}

function readConversation(body: Record<string, unknown>): MockConversation {
  const contents = Array.isArray(body.contents) ? body.contents : [];
  let inputCharacters = textOf(partsOf(body.systemInstruction)).length;
  for (const content of contents) inputCharacters += textOf(partsOf(content)).length;
  const last = contents[contents.length - 1];
  const lastParts = partsOf(last);
  const functionResponse = lastParts.find((part) => isRecord(part) && isRecord(part.functionResponse));
  const isUser = isRecord(last) && (last.role === undefined || last.role === "user");
  const tools = (Array.isArray(body.tools) ? body.tools : []).flatMap((tool) =>
    isRecord(tool) && Array.isArray(tool.functionDeclarations)
      ? tool.functionDeclarations.flatMap((declaration) =>
          isRecord(declaration) && typeof declaration.name === "string"
            ? [{ name: declaration.name, ...(isRecord(declaration.parameters) ? { parameters: declaration.parameters } : {}) }]
            : [],
        )
      : [],
  );
  const responseText =
    isRecord(functionResponse) && isRecord(functionResponse.functionResponse)
      ? JSON.stringify(functionResponse.functionResponse.response ?? {})
      : undefined;
  return {
    ...(isUser && responseText === undefined ? { lastUserText: textOf(lastParts) } : {}),
    ...(responseText !== undefined ? { lastToolResultText: responseText } : {}),
    tools,
    inputCharacters,
  };
}

function usageMetadata(reply: MockReply) {
  return {
    promptTokenCount: reply.usage.inputTokens,
    candidatesTokenCount: reply.usage.outputTokens,
    totalTokenCount: reply.usage.inputTokens + reply.usage.outputTokens,
  };
}

function candidateChunk(parts: unknown[], context: ReplyContext, extra: Record<string, unknown> = {}) {
  return {
    candidates: [{ content: { parts, role: "model" }, index: 0, ...extra }],
    modelVersion: context.model,
    responseId: context.id,
  };
}

export const googleWire: MockWire = {
  api: "google",
  streamContentType: "text/event-stream",

  readRequest(body, route): WireReadResult {
    if (!isRecord(body)) return { ok: false, message: "Invalid JSON payload received. Expected an object." };
    if (!route.modelFromPath) return { ok: false, message: "Model name is missing from the request path." };
    if (!Array.isArray(body.contents)) {
      return { ok: false, message: "* GenerateContentRequest.contents: contents is not specified" };
    }
    const stream = route.streamFromPath === true;
    if (stream && route.searchParams.get("alt") !== "sse") {
      return { ok: false, message: "The mock provider streams only with ?alt=sse (server-sent events)." };
    }
    return {
      ok: true,
      info: { model: route.modelFromPath, stream, includeUsage: true, conversation: readConversation(body) },
    };
  },

  renderJson(reply, context) {
    const parts: unknown[] = [];
    if (reply.textTokens.length > 0) parts.push({ text: reply.textTokens.join("") });
    if (reply.toolCall) {
      parts.push({ functionCall: { name: reply.toolCall.name, args: JSON.parse(reply.toolCall.arguments) as unknown } });
    }
    return {
      ...candidateChunk(parts, context, { finishReason: "STOP" }),
      usageMetadata: usageMetadata(reply),
    };
  },

  streamFrames(reply, context) {
    const promptOnly = { promptTokenCount: reply.usage.inputTokens, totalTokenCount: reply.usage.inputTokens };
    const content = reply.textTokens.map((token) =>
      sseData({ ...candidateChunk([{ text: token }], context), usageMetadata: promptOnly }, CRLF),
    );
    if (reply.toolCall) {
      // Gemini sends a function call whole, in one chunk.
      const functionCall = { name: reply.toolCall.name, args: JSON.parse(reply.toolCall.arguments) as unknown };
      content.push(sseData({ ...candidateChunk([{ functionCall }], context), usageMetadata: promptOnly }, CRLF));
    }
    const finish = [
      sseData(
        { ...candidateChunk([{ text: "" }], context, { finishReason: "STOP" }), usageMetadata: usageMetadata(reply) },
        CRLF,
      ),
    ];
    return { lead: [], content, finish, done: [] };
  },

  errorBody(error) {
    const details =
      error.retryAfterSeconds === undefined
        ? {}
        : {
            details: [
              { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${error.retryAfterSeconds}s` },
            ],
          };
    return {
      error: { code: error.status, message: messageFor(error, "google"), status: error.row.google.status, ...details },
    };
  },

  errorHeaders() {
    return {};
  },

  streamErrorFrame(error) {
    return sseData(this.errorBody(error), CRLF);
  },

  malformedFrame() {
    return `data: {"candidates":[{"content":{"parts":[{"text":"oops"}${CRLF}${CRLF}`;
  },

  badRequestBody(message) {
    return { error: { code: 400, message, status: "INVALID_ARGUMENT" } };
  },
};
