/** Anthropic Messages provider (`api: "anthropic-messages"`). */
import type { Credential } from "../../core/types.js";
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent } from "../../ports/canonical.js";
import type { Provider, ProviderCallContext } from "../../ports/provider.js";
import { credentialSecret } from "../shared/credentials.js";
import { answersWithJson, joinUrl } from "../shared/http-client.js";
import type { ProviderSettings } from "../shared/provider-settings.js";
import type { ResponseHeaders } from "../shared/http-client.js";
import type { SseEvent } from "../shared/sse.js";
import { pumpSseCanonical, pushAnswer, sseCanonicalEvents, type SseCanonicalDecoder } from "../shared/sse-canonical.js";
import { answerStreamEvents } from "../../wire/shared/answer-stream-events.js";
import { streamEndedEarlyFailure, unreadableResponseFailure } from "../shared/upstream-failure.js";
import {
  completeWireCall,
  openWireStream,
  readJsonAnswer,
  reportMalformedChunk,
  streamErrorFailure,
  type WireCall,
} from "../shared/wire-call.js";
import { parseJsonText, parseWireJson } from "../../wire/shared/wire-json.js";
import { readAnthropicStreamEvent } from "../../wire/anthropic-messages/stream-event.js";
import {
  ANTHROPIC_STREAM_EVENT_TYPES,
  ANTHROPIC_VERSION,
  AnthropicStreamTranslator,
  anthropicMessageSchema,
  encodeAnthropicRequest,
  fromAnthropicResponse,
} from "../../wire/anthropic-messages/index.js";
import { encodedOrThrow } from "../shared/incompatible.js";
import { describeAnthropicError, describeAnthropicStreamError } from "../../wire/anthropic-messages/read-error.js";

/** Claude subscription tokens (OAuth and setup tokens) are only accepted with this beta flag. */
export const ANTHROPIC_OAUTH_BETA = "oauth-2025-04-20";

export function anthropicAuthHeaders(credential: Credential | undefined): Record<string, string> {
  const secret = credentialSecret(credential);
  if (!secret || !credential) return {};
  if (credential.type === "api_key") return { "x-api-key": secret };
  return { authorization: `Bearer ${secret}`, "anthropic-beta": ANTHROPIC_OAUTH_BETA };
}

/** `https://api.anthropic.com` → `/v1/messages`; a base URL that already ends in `/v1` is not doubled. */
export function anthropicMessagesUrl(baseUrl: string): string {
  return /\/v1\/?$/.test(baseUrl) ? joinUrl(baseUrl, "messages") : joinUrl(baseUrl, "v1/messages");
}

export class AnthropicProvider implements Provider {
  readonly api = "anthropic-messages" as const;
  readonly id: string;
  /** Fixed per provider: built once, not on every call. */
  private readonly url: string;

  constructor(private readonly settings: ProviderSettings) {
    this.id = settings.id;
    this.url = anthropicMessagesUrl(settings.baseUrl);
  }

  async complete(request: CanonicalRequest, context: ProviderCallContext): Promise<CanonicalResponse> {
    const { call, dropped } = this.wireCall(request, context, false);
    const { text } = await completeWireCall(call);
    return this.answerOf(text, dropped);
  }

  /**
   * R-GW-10: the whole JSON body sent for a stream. Anthropic's error object there is the provider's error,
   * read as the same error event in a stream would be (R-ST-2), not an unreadable answer.
   */
  private jsonAnswerOf(call: WireCall, headers: ResponseHeaders, text: string, dropped: readonly string[]): CanonicalResponse {
    const json = parseJsonText(text);
    const event = json.ok ? readAnthropicStreamEvent(json.value) : undefined;
    if (event?.ok && event.value.type === "error") throw streamErrorFailure(call, describeAnthropicStreamError(event.value.error), headers);
    return this.answerOf(text, dropped);
  }

  /** A non-streamed answer's text, decoded: the answer of `complete`, and of a stream the upstream sent whole. */
  private answerOf(text: string, dropped: readonly string[]): CanonicalResponse {
    const parsed = parseWireJson(text, anthropicMessageSchema);
    if (!parsed.ok) throw unreadableResponseFailure(this.id, parsed.problem, text);
    const response = fromAnthropicResponse(parsed.value);
    return dropped.length > 0 ? { ...response, dropped } : response;
  }

  stream(request: CanonicalRequest, context: ProviderCallContext): AsyncIterableIterator<CanonicalStreamEvent> {
    // One generator, not one wrapping another: every event of the stream would cross both.
    return sseCanonicalEvents(async () => {
      const { call, dropped } = this.wireCall(request, context, true);
      const response = await openWireStream(call);
      // R-GW-10: an upstream that ignored `stream: true` sent its whole answer; that answer is the stream.
      if (answersWithJson(response.headers)) return { answer: answerStreamEvents(this.jsonAnswerOf(call, response.headers, await readJsonAnswer(call, response), dropped)) };
      return { body: response.body, decoder: new AnthropicSseDecoder(call, response.headers, dropped) };
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
    await pumpSseCanonical(response.body, new AnthropicSseDecoder(call, response.headers, dropped), { provider: this.id, signal: context.signal }, push);
  }

  /** Throws `IncompatibleRequestError` before any HTTP call when Anthropic cannot carry a field (R-GW-6). */
  private wireCall(
    request: CanonicalRequest,
    context: ProviderCallContext,
    stream: boolean,
  ): { call: WireCall; dropped: readonly string[] } {
    const { body, dropped } = encodedOrThrow(encodeAnthropicRequest(request, { model: context.model, stream }), this.id, context.model);
    const call: WireCall = {
      settings: this.settings,
      context,
      url: this.url,
      headers: {
        "anthropic-version": ANTHROPIC_VERSION,
        ...anthropicAuthHeaders(context.credential),
        accept: stream ? "text/event-stream" : "application/json",
      },
      body,
      describeError: describeAnthropicError,
    };
    return { call, dropped };
  }
}

/** One Anthropic SSE event → canonical events: malformed events skipped and counted, unknown types ignored. */
class AnthropicSseDecoder implements SseCanonicalDecoder {
  readonly #translator: AnthropicStreamTranslator;

  constructor(
    private readonly call: WireCall,
    private readonly headers: ResponseHeaders,
    dropped: readonly string[],
  ) {
    this.#translator = new AnthropicStreamTranslator({ dropped });
  }

  take(sse: SseEvent, emit: (event: CanonicalStreamEvent) => void): boolean {
    const json = parseJsonText(sse.data);
    if (!json.ok) {
      reportMalformedChunk(this.call, sse.data, json.problem);
      return false;
    }
    const type = typeof json.value === "object" && json.value !== null ? (json.value as { type?: unknown }).type : undefined;
    // Anthropic documents that new event types may appear; they are skipped, not counted as malformed.
    if (typeof type === "string" && !ANTHROPIC_STREAM_EVENT_TYPES.has(type)) return false;
    const event = readAnthropicStreamEvent(json.value);
    if (!event.ok) {
      reportMalformedChunk(this.call, sse.data, event.problem);
      return false;
    }
    if (event.value.type === "error") {
      throw streamErrorFailure(this.call, describeAnthropicStreamError(event.value.error), this.headers);
    }
    return this.#translator.take(event.value, emit);
  }

  end(emit: (event: CanonicalStreamEvent) => void): void {
    const finish = this.#translator.finishAtEnd();
    if (!finish) throw streamEndedEarlyFailure(this.call.settings.id);
    for (const event of finish) emit(event);
  }
}
