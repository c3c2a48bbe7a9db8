/**
 * OpenAI Chat Completions provider (`api: "openai-chat"`): OpenAI itself, OpenRouter, and any
 * OpenAI-compatible base URL (vLLM, LM Studio, Ollama's /v1, Codex-compatible proxies).
 */
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent } from "../../ports/canonical.js";
import type { Provider, ProviderCallContext } from "../../ports/provider.js";
import { bearerHeaders } from "../shared/credentials.js";
import { answersWithJson, joinUrl, type ResponseHeaders } from "../shared/http-client.js";
import { responseIdFactory } from "../shared/ids.js";
import type { ProviderSettings } from "../shared/provider-settings.js";
import { pumpSseCanonical, pushAnswer, sseCanonicalEvents, type SseCanonicalDecoder } from "../shared/sse-canonical.js";
import { answerStreamEvents } from "../../wire/shared/answer-stream-events.js";
import { encodedOrThrow } from "../shared/incompatible.js";
import { errorStopReasonFailure, streamEndedEarlyFailure, unreadableResponseFailure } from "../shared/upstream-failure.js";
import {
  completeWireCall,
  openWireStream,
  readJsonAnswer,
  reportMalformedChunk,
  streamErrorFailure,
  type WireCall,
} from "../shared/wire-call.js";
import { parseJsonText, parseWireJson, validateWire } from "../../wire/shared/wire-json.js";
import {
  decodeOpenAiResponse,
  encodeOpenAiRequest,
  maxTokensFieldFor,
  openAiChatChunkSchema,
  openAiChatCompletionSchema,
  OpenAiStreamTranslator,
  type MaxTokensField,
} from "../../wire/openai-chat/index.js";
import { describeOpenAiError, describeOpenAiStreamError } from "../../wire/openai-chat/read-error.js";

export class OpenAiProvider implements Provider {
  readonly api = "openai-chat" as const;
  readonly id: string;
  private readonly maxTokensField: MaxTokensField;
  /** Fixed per provider: built once, not on every call. */
  private readonly url: string;

  constructor(private readonly settings: ProviderSettings) {
    this.id = settings.id;
    this.maxTokensField = maxTokensFieldFor(settings.baseUrl);
    this.url = joinUrl(settings.baseUrl, "chat/completions");
  }

  async complete(request: CanonicalRequest, context: ProviderCallContext): Promise<CanonicalResponse> {
    const { call, dropped } = this.wireCall(request, context, false);
    const { text } = await completeWireCall(call);
    return this.answerOf(text, dropped);
  }

  stream(request: CanonicalRequest, context: ProviderCallContext): AsyncIterableIterator<CanonicalStreamEvent> {
    // One generator, not one wrapping another: every event of the stream would cross both.
    return sseCanonicalEvents(async () => {
      const { call, dropped } = this.wireCall(request, context, true);
      const response = await openWireStream(call);
      // R-GW-10: an upstream that ignored `stream: true` sent its whole answer; that answer is the stream.
      if (answersWithJson(response.headers)) return { answer: answerStreamEvents(this.jsonAnswerOf(call, response.headers, await readJsonAnswer(call, response), dropped)) };
      return { body: response.body, decoder: this.decoder(call, response.headers, dropped) };
    }, { provider: this.id, signal: context.signal });
  }

  /**
   * `stream` pushed (R-ST-6's assembled answers): each canonical event goes to `push` as the body's reads
   * arrive; `push` returns false once it needs no more. Resolves when the body ended or the push stopped it.
   */
  async pushStream(request: CanonicalRequest, context: ProviderCallContext, push: (event: CanonicalStreamEvent) => boolean): Promise<void> {
    const { call, dropped } = this.wireCall(request, context, true);
    const response = await openWireStream(call);
    if (answersWithJson(response.headers)) return pushAnswer(answerStreamEvents(this.jsonAnswerOf(call, response.headers, await readJsonAnswer(call, response), dropped)), push);
    await pumpSseCanonical(response.body, this.decoder(call, response.headers, dropped), { provider: this.id, signal: context.signal }, push);
  }

  /**
   * R-GW-10: the whole JSON body sent for a stream. An error object there is the provider's error, read as the
   * same error in a stream would be (R-ST-2), not an unreadable answer.
   */
  private jsonAnswerOf(call: WireCall, headers: ResponseHeaders, text: string, dropped: readonly string[]): CanonicalResponse {
    const json = parseJsonText(text);
    if (json.ok) this.throwIfErrorChunk(json.value, call, headers);
    return this.answerOf(text, dropped);
  }

  /** A non-streamed answer's text, decoded: the answer of `complete`, and of a stream the upstream sent whole. */
  private answerOf(text: string, dropped: readonly string[]): CanonicalResponse {
    const parsed = parseWireJson(text, openAiChatCompletionSchema);
    if (!parsed.ok) throw unreadableResponseFailure(this.id, parsed.problem, text);
    const { response, rawFinishReason } = decodeOpenAiResponse(parsed.value);
    if (response.finishReason === "error") throw errorStopReasonFailure(this.id, rawFinishReason ?? "error");
    return dropped.length > 0 ? { ...response, dropped } : response;
  }

  /** One SSE event → canonical events; malformed chunks skipped and counted, an in-band error thrown. */
  private decoder(call: WireCall, headers: ResponseHeaders, dropped: readonly string[]): SseCanonicalDecoder {
    const translator = new OpenAiStreamTranslator({ model: call.context.model, createId: responseIdFactory(this.settings), dropped });
    const emitAll = (events: readonly CanonicalStreamEvent[], emit: (event: CanonicalStreamEvent) => void) => {
      for (const event of events) emit(event);
    };
    return {
      take: (sse, emit) => {
        const data = sse.data.trim();
        if (data === "[DONE]") {
          emitAll(translator.finishOnDone(), emit);
          return true;
        }
        const json = parseJsonText(data);
        if (!json.ok) {
          reportMalformedChunk(call, data, json.problem);
          return false;
        }
        this.throwIfErrorChunk(json.value, call, headers);
        const chunk = validateWire(json.value, openAiChatChunkSchema);
        if (!chunk.ok) {
          reportMalformedChunk(call, data, chunk.problem);
          return false;
        }
        const step = translator.accept(chunk.value);
        emitAll(step.events, emit);
        if (step.failedWith !== undefined) throw errorStopReasonFailure(this.id, step.failedWith);
        if (!step.complete) return false;
        // Finish reason and usage are in: finalise now rather than wait for a `[DONE]` that some
        // compatible servers never send (R-ST-2). What is left of the body is not read.
        emitAll(translator.finishOnDone(), emit);
        return true;
      },
      end: (emit) => {
        const finish = translator.finishAtEnd();
        if (!finish) throw streamEndedEarlyFailure(this.id);
        emitAll(finish, emit);
      },
    };
  }

  /** In-band errors arrive as a chunk with an `error` member (OpenRouter, many compatible servers). */
  private throwIfErrorChunk(value: unknown, call: WireCall, headers: ResponseHeaders): void {
    if (typeof value !== "object" || value === null || !("error" in value)) return;
    const raw = (value as { error: unknown }).error;
    if (raw === null || raw === undefined) return;
    // Read as the same-wire lane reads an in-band error chunk, so both lanes report it alike (R-ST-2).
    throw streamErrorFailure(call, describeOpenAiStreamError(raw), headers);
  }

  /** Throws `IncompatibleRequestError` before any HTTP call when OpenAI cannot carry a field (R-GW-6). */
  private wireCall(
    request: CanonicalRequest,
    context: ProviderCallContext,
    stream: boolean,
  ): { call: WireCall; dropped: readonly string[] } {
    const encoding = encodeOpenAiRequest(request, { model: context.model, stream, maxTokensField: this.maxTokensField });
    const { body, dropped } = encodedOrThrow(encoding, this.id, context.model);
    const call: WireCall = {
      settings: this.settings,
      context,
      url: this.url,
      headers: { ...bearerHeaders(context.credential), accept: stream ? "text/event-stream" : "application/json" },
      body,
      describeError: describeOpenAiError,
    };
    return { call, dropped };
  }
}
