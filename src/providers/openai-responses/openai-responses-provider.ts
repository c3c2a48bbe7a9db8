/**
 * OpenAI Responses provider (`api: "openai-responses"`): OpenAI's `POST /v1/responses`, the ChatGPT/Codex
 * backend (`openai-codex`), and any server that speaks the Responses API. Stateless: every request carries
 * the whole conversation and `store: false` unless the client's own Responses request said otherwise.
 */
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent } from "../../ports/canonical.js";
import type { Provider, ProviderCallContext } from "../../ports/provider.js";
import { bearerHeaders } from "../shared/credentials.js";
import { answersWithJson, joinUrl } from "../shared/http-client.js";
import { answerStreamEvents } from "../../wire/shared/answer-stream-events.js";
import { responseIdFactory } from "../shared/ids.js";
import { encodedOrThrow } from "../shared/incompatible.js";
import type { ProviderSettings } from "../shared/provider-settings.js";
import { readSseEvents } from "../shared/sse.js";
import { errorStopReasonFailure, streamEndedEarlyFailure, unreadableResponseFailure } from "../shared/upstream-failure.js";
import { completeWireCall, drainedWhenLeft, guardTransport, openWireStream, readJsonAnswer, reportMalformedChunk, streamErrorFailure, type WireCall } from "../shared/wire-call.js";
import { parseWireJson, validateWire, parseJsonText } from "../../wire/shared/wire-json.js";
import {
  decodeResponsesResponse,
  encodeResponsesRequest,
  responsesResponseSchema,
  responsesStreamEventSchema,
  ResponsesStreamTranslator,
} from "../../wire/openai-responses/index.js";
import { withBodyResets } from "../../wire/shared/body-reset-hints.js";
import { describeResponsesError, describeResponsesStreamError } from "../../wire/openai-responses/read-error.js";

export class OpenAiResponsesProvider implements Provider {
  readonly api = "openai-responses" as const;
  readonly id: string;
  private readonly url: string;

  constructor(private readonly settings: ProviderSettings) {
    this.id = settings.id;
    this.url = joinUrl(settings.baseUrl, "responses");
  }

  async complete(request: CanonicalRequest, context: ProviderCallContext): Promise<CanonicalResponse> {
    const { call, dropped } = this.wireCall(request, context, false);
    const { text } = await completeWireCall(call);
    return this.answerOf(text, call, dropped);
  }

  /** A non-streamed answer's text, decoded: the answer of `complete`, and of a stream the upstream sent whole. */
  private answerOf(text: string, call: WireCall, dropped: readonly string[]): CanonicalResponse {
    const context = call.context;
    const parsed = parseWireJson(text, responsesResponseSchema);
    if (!parsed.ok) throw unreadableResponseFailure(this.id, parsed.problem, text);
    const { response, rawStatus } = decodeResponsesResponse(parsed.value);
    if (response.finishReason === "error") {
      const error = parsed.value.error;
      if (error?.message) throw streamErrorFailure(call, withBodyResets({ message: error.message, ...(error.code ? { code: error.code } : {}) }, parsed.value));
      throw errorStopReasonFailure(this.id, rawStatus ?? "failed");
    }
    const answered = response.model === "" ? { ...response, model: context.model } : response;
    return dropped.length > 0 ? { ...answered, dropped } : answered;
  }

  async *stream(request: CanonicalRequest, context: ProviderCallContext): AsyncGenerator<CanonicalStreamEvent> {
    const { call, dropped } = this.wireCall(request, context, true);
    const response = await openWireStream(call);
    // R-GW-10: an upstream that ignored `stream: true` sent its whole answer; that answer is the stream.
    if (answersWithJson(response.headers)) {
      const text = await readJsonAnswer(call, response);
      // OpenAI's error body sent for a stream is the provider's error, read as the stream's `error` event is.
      const json = parseJsonText(text);
      const body = json.ok && typeof json.value === "object" && json.value !== null ? (json.value as { id?: unknown; error?: unknown }) : undefined;
      if (body && body.id === undefined && typeof body.error === "object" && body.error !== null) {
        throw streamErrorFailure(call, describeResponsesStreamError(body.error), response.headers);
      }
      yield* answerStreamEvents(this.answerOf(text, call, dropped));
      return;
    }
    const translator = new ResponsesStreamTranslator({ model: context.model, createId: responseIdFactory(this.settings), dropped });
    const events = guardTransport(readSseEvents(drainedWhenLeft(response.body)), { provider: this.id, signal: context.signal });
    for await (const event of events) {
      const data = event.data.trim();
      const json = parseJsonText(data);
      if (!json.ok) {
        reportMalformedChunk(call, data, json.problem);
        continue;
      }
      const parsed = validateWire(json.value, responsesStreamEventSchema);
      if (!parsed.ok) {
        reportMalformedChunk(call, data, parsed.problem);
        continue;
      }
      const step = translator.accept(parsed.value);
      yield* step.events;
      // R-EC-6: a reset the `error` event states is read like a header's.
      if (step.failure) throw streamErrorFailure(call, withBodyResets(step.failure, parsed.value), response.headers);
      // `response.completed` is the last event; leaving the loop closes the upstream body.
      if (step.complete) return;
    }
    throw streamEndedEarlyFailure(this.id);
  }

  /** Throws `IncompatibleRequestError` before any HTTP call when the Responses API cannot carry a field (R-GW-6). */
  private wireCall(request: CanonicalRequest, context: ProviderCallContext, stream: boolean): { call: WireCall; dropped: readonly string[] } {
    const encoding = encodeResponsesRequest(request, { model: context.model, stream });
    const { body, dropped } = encodedOrThrow(encoding, this.id, context.model);
    const call: WireCall = {
      settings: this.settings,
      context,
      url: this.url,
      headers: { ...bearerHeaders(context.credential), accept: stream ? "text/event-stream" : "application/json" },
      body,
      describeError: describeResponsesError,
    };
    return { call, dropped };
  }
}
