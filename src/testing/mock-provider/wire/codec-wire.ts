/**
 * A mock wire built on a format's own server codecs (wire/<format>): requests are decoded into the canonical
 * request, and answers, streams and errors are the canonical reply encoded by the format. The mock knows no
 * field of such a format; it only decides what to answer and where a fault cuts the stream.
 */
import type { CanonicalRequest, CanonicalStreamEvent } from "../../../ports/canonical.js";
import { describeDialectIssues } from "../../../wire/shared/validation-issues.js";
import type { WireFormat } from "../../../wire/wire-format.js";
import { messageFor, type ResolvedMockError } from "../error-presets.js";
import type { MockConversation, MockReply } from "../reply.js";
import { requestFeatures } from "../request-features.js";
import type { MockWireApi } from "../scenario-schema.js";
import {
  canonicalReply,
  thinkingEvents,
  type MockWire,
  type ReplyContext,
  type StreamFrames,
  type WireReadResult,
  type WireRoute,
} from "./mock-wire.js";

/** What a mock wire reads from a decoded request: the text the reply is made from. */
export function conversationOf(request: CanonicalRequest): MockConversation {
  const textOf = (message: CanonicalRequest["messages"][number] | undefined) =>
    (message?.content ?? []).flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  const results = (message: CanonicalRequest["messages"][number] | undefined) =>
    (message?.content ?? []).flatMap((part) => (part.type === "tool-result" ? [part.content] : []));
  let inputCharacters = (request.systemParts?.map((part) => part.text).join("\n") ?? request.system ?? "").length;
  for (const message of request.messages) inputCharacters += textOf(message).length + results(message).join("").length;
  const messages = request.messages;
  const last = messages.at(-1);
  const previous = messages.at(-2);
  const lastResults = results(last);
  return {
    ...(last?.role === "user" ? { lastUserText: textOf(last) } : {}),
    ...(lastResults.length > 0 ? { lastToolResultText: lastResults.join("\n") } : {}),
    ...(last?.role === "assistant" ? { trailingAssistantText: textOf(last) } : {}),
    ...(last?.role === "user" && previous?.role === "assistant" ? { previousAssistantText: textOf(previous) } : {}),
    tools: (request.tools ?? []).map((tool) => ({ name: tool.name, parameters: tool.parameters })),
    inputCharacters,
    features: requestFeatures(request),
  };
}

/** The reply as canonical stream events, grouped as the fault plan cuts them: one content group per token. */
export function replyEvents(
  reply: MockReply,
  context: ReplyContext,
): { lead: CanonicalStreamEvent[]; content: CanonicalStreamEvent[][]; finish: CanonicalStreamEvent[] } {
  const content: CanonicalStreamEvent[][] = [
    ...thinkingEvents(reply),
    ...reply.textTokens.map((text): CanonicalStreamEvent[] => [{ type: "text-delta", text }]),
  ];
  if (reply.toolCall) {
    const call = reply.toolCall;
    content.push([{ type: "tool-call-delta", index: 0, id: call.id, name: call.name, argumentsDelta: call.arguments }]);
  }
  return {
    lead: [{ type: "message-start", id: context.id, model: context.model }],
    content,
    finish: [{ type: "finish", reason: reply.finishReason, usage: reply.usage }],
  };
}

/** A frame cut in the middle of its JSON, its framing kept, so a reader must skip it (R-ST-2). */
function broken(frame: string): string {
  const start = frame.indexOf("{");
  const end = frame.trimEnd().length;
  if (start < 0) return frame;
  return `${frame.slice(0, start + Math.floor((end - start) / 2))}${frame.slice(end)}`;
}

export interface CodecWireOptions {
  api: Extract<MockWireApi, "google" | "ollama">;
  format: WireFormat;
  streamContentType: string;
  /** A check of the URL before the body is read (Gemini streams only with `?alt=sse`). */
  checkRoute?(route: WireRoute): string | undefined;
}

export function codecWire(options: CodecWireOptions): MockWire {
  const { api, format } = options;
  const decode = format.request.decode;
  const renderResponse = format.response.render;
  const renderError = format.errors.render;
  const encoder = format.stream.encoder;
  if (!decode || !renderResponse || !renderError || !encoder) throw new Error(`The ${format.id} wire format has no server codecs.`);

  const streamEncoder = (context: ReplyContext) =>
    encoder({ model: context.model, createdSeconds: context.createdSeconds, includeUsage: context.includeUsage });
  const errorInput = (error: ResolvedMockError) => ({
    message: messageFor(error, api),
    status: error.status,
    ...(api === "google" ? { code: error.row.google.status } : {}),
    ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
  });

  const wire: MockWire = {
    api,
    streamContentType: options.streamContentType,

    readRequest(body, route): WireReadResult {
      const problem = options.checkRoute?.(route);
      if (problem !== undefined) return { ok: false, message: problem };
      const decoded = decode(body, {
        ...(route.modelFromPath !== undefined ? { model: route.modelFromPath } : {}),
        ...(route.streamFromPath !== undefined ? { stream: route.streamFromPath } : {}),
      });
      if (!decoded.ok) return { ok: false, message: describeDialectIssues(decoded.issues) };
      const { model, stream, includeUsage, request } = decoded.value;
      return { ok: true, info: { model, stream, includeUsage, conversation: conversationOf(request) } };
    },

    renderJson(reply, context) {
      return renderResponse(canonicalReply(reply, context), { createdSeconds: context.createdSeconds });
    },

    streamFrames(reply, context): StreamFrames {
      const events = replyEvents(reply, context);
      const stream = streamEncoder(context);
      return {
        lead: events.lead.flatMap((event) => stream.encode(event)),
        content: events.content.map((group) => group.flatMap((event) => stream.encode(event)).join("")),
        finish: events.finish.flatMap((event) => stream.encode(event)),
        done: [],
      };
    },

    errorBody: (error) => renderError(errorInput(error)),
    errorHeaders: () => ({}),

    streamErrorFrame(error) {
      const stream = streamEncoder({ id: "", model: error.model, createdSeconds: 0, includeUsage: true });
      return stream.encode({ type: "error", error: errorInput(error) }).join("");
    },

    malformedFrame() {
      const stream = streamEncoder({ id: "broken", model: "broken", createdSeconds: 0, includeUsage: true });
      return broken(stream.encode({ type: "text-delta", text: "oops" }).join(""));
    },

    badRequestBody: (message) => renderError({ message, status: 400 }),
  };
  return wire;
}
