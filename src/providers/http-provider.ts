/**
 * The one HTTP provider (DESIGN §1): a wire format (`WireFormat`: request encode, answer decode, stream
 * decode, error read) called at one endpoint (`ProviderQuirks`: URL, auth, signing). Every built-in provider
 * is this class; what sets OpenAI, Anthropic, Gemini, Ollama or a cloud apart is its quirks object. Exactly one
 * HTTP request per call (no retries, R-RA-1).
 */
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent } from "../ports/canonical.js";
import type { Provider, ProviderApi, ProviderCallContext } from "../ports/provider.js";
import { WIRE_FORMATS, type WireFormat, type WireFormatId } from "../wire/formats.js";
import { answerStreamEvents } from "../wire/shared/answer-stream-events.js";
import type { DecodeFallback } from "../wire/wire-format.js";
import { answersWithJson, type ResponseHeaders, type UpstreamResponse } from "./shared/http-client.js";
import { responseIdFactory, toolCallIdFactory } from "./shared/ids.js";
import { encodedOrThrow } from "./shared/incompatible.js";
import { signerFor, type ProviderEndpoint, type ProviderQuirks } from "./shared/provider-quirks.js";
import type { ProviderSettings } from "./shared/provider-settings.js";
import {
  pumpStreamCanonical,
  pushAnswer,
  streamCanonicalEvents,
  type OpenedStream,
  type StreamFailures,
} from "./shared/stream-canonical.js";
import { errorStopReasonFailure, streamEndedEarlyFailure, unreadableResponseFailure } from "./shared/upstream-failure.js";
import {
  completeWireCall,
  openWireStream,
  readJsonAnswer,
  reportMalformedChunk,
  streamErrorFailure,
  type WireCall,
} from "./shared/wire-call.js";

export class HttpProvider implements Provider {
  readonly api: ProviderApi;
  readonly id: string;
  readonly wire: WireFormat;
  /** Where and how this provider is called; the same-wire lane calls the same endpoint with a client's bytes. */
  readonly quirks: ProviderQuirks;
  /** A cloud's own settings (Azure deployments, Vertex project and token source), for the lane's calls. */
  readonly cloudSettings: Pick<ProviderSettings, "azure" | "vertex">;
  readonly #settings: ProviderSettings;
  readonly #endpoint: ProviderEndpoint;
  readonly #createToolCallId: () => string;
  readonly #createResponseId: () => string;

  constructor(settings: ProviderSettings, quirks: ProviderQuirks) {
    this.api = quirks.api;
    this.id = settings.id;
    // A cloud speaks one of the formats at its own address: its quirks say which one for these settings.
    this.wire = quirks.wireOf?.(settings) ?? WIRE_FORMATS[quirks.api as WireFormatId];
    this.quirks = quirks;
    this.cloudSettings = {
      ...(settings.azure ? { azure: settings.azure } : {}),
      ...(settings.vertex ? { vertex: settings.vertex } : {}),
    };
    this.#settings = settings;
    this.#endpoint = quirks.endpoint(settings);
    this.#createToolCallId = toolCallIdFactory(settings);
    this.#createResponseId = responseIdFactory(settings);
  }

  async complete(request: CanonicalRequest, context: ProviderCallContext): Promise<CanonicalResponse> {
    const { call, dropped } = this.#call(request, context, false);
    const { text } = await completeWireCall(call);
    return this.#answerOf(call, text, dropped);
  }

  stream(request: CanonicalRequest, context: ProviderCallContext): AsyncIterableIterator<CanonicalStreamEvent> {
    // One iterator over the body, not generators stacked on it: every event of the stream would cross each.
    return streamCanonicalEvents(() => this.#open(request, context), { provider: this.id, signal: context.signal });
  }

  /**
   * `stream` pushed (R-ST-6's assembled answers): each canonical event goes to `push` as the body's reads
   * arrive; `push` returns false once it needs no more. Resolves when the body ended or the push stopped it.
   */
  async pushStream(request: CanonicalRequest, context: ProviderCallContext, push: (event: CanonicalStreamEvent) => boolean): Promise<void> {
    const opened = await this.#open(request, context);
    if ("answer" in opened) return pushAnswer(opened.answer, push);
    await pumpStreamCanonical(opened.body, opened, { provider: this.id, signal: context.signal }, push);
  }

  async #open(request: CanonicalRequest, context: ProviderCallContext): Promise<OpenedStream> {
    const { call, dropped } = this.#call(request, context, true);
    const response = await openWireStream(call);
    const stream = this.wire.stream;
    // R-GW-10: an upstream that ignored `stream: true` sent its whole answer; that answer is the stream. An
    // NDJSON stream of one line is such an answer already: its framing reads it as it is. An event stream of AWS frames never is JSON.
    if (stream.framing !== "ndjson" && answersWithJson(response.headers))
      return { answer: await this.#wholeAnswer(call, response, dropped) };
    const decoder = stream.decoder({ ...this.#fallback(context.model), dropped });
    return { body: response.body, decoder, framing: stream.framing, failures: this.#failures(call, response.headers) };
  }

  /** R-GW-10: the events of a whole answer sent where a stream was asked for. */
  async #wholeAnswer(call: WireCall, response: UpstreamResponse, dropped: readonly string[]): Promise<CanonicalStreamEvent[]> {
    const text = await readJsonAnswer(call, response);
    // An error object sent for a stream is the provider's error, read as the same error in a stream would be.
    const error = this.wire.errors.readErrorAnswer?.(text);
    if (error) throw streamErrorFailure(call, error, response.headers);
    const decoder = this.wire.stream.decoder({ ...this.#fallback(call.context.model), dropped });
    if (!decoder.whole) return answerStreamEvents(this.#answerOf(call, text, dropped));
    const events: CanonicalStreamEvent[] = [];
    const unreadable = decoder.whole(text, { event: (event) => events.push(event), ...this.#failures(call, response.headers) });
    if (unreadable) throw unreadableResponseFailure(this.id, unreadable.problem, text);
    return events;
  }

  /** A non-streamed answer's text, decoded: the answer of `complete`, and of a stream the upstream sent whole. */
  #answerOf(call: WireCall, text: string, dropped: readonly string[]): CanonicalResponse {
    const decoded = this.wire.response.decode(text, this.#fallback(call.context.model));
    if (!decoded.ok) throw unreadableResponseFailure(this.id, decoded.problem, text);
    const response = decoded.response;
    if (response.finishReason === "error") {
      if (decoded.failure) throw streamErrorFailure(call, decoded.failure);
      throw errorStopReasonFailure(this.id, decoded.rawFinishReason ?? "error");
    }
    return dropped.length > 0 ? { ...response, dropped } : response;
  }

  #fallback(model: string): DecodeFallback {
    return { model, createResponseId: this.#createResponseId, createToolCallId: this.#createToolCallId };
  }

  /** What a stream decoder's findings become: skipped chunks counted (R-ST-2), the rest thrown as failures. */
  #failures(call: WireCall, headers: ResponseHeaders): StreamFailures {
    return {
      malformed: (raw, problem) => reportMalformedChunk(call, raw, problem),
      error: (details) => {
        throw streamErrorFailure(call, details, headers);
      },
      failed: (rawFinishReason) => {
        throw errorStopReasonFailure(this.id, rawFinishReason);
      },
      cut: () => {
        throw streamEndedEarlyFailure(this.id);
      },
    };
  }

  /** Throws `IncompatibleRequestError` before any HTTP call when the format cannot carry a field (R-GW-6). */
  #call(request: CanonicalRequest, context: ProviderCallContext, stream: boolean): { call: WireCall; dropped: readonly string[] } {
    const model = context.model;
    const encoding = this.wire.request.encode(request, { model, stream, baseUrl: this.#settings.baseUrl });
    const { body, dropped } = encodedOrThrow(encoding, this.id, model);
    const endpoint = this.#endpoint;
    const call: WireCall = {
      settings: this.#settings,
      context,
      url: endpoint.url(model, stream),
      headers: endpoint.headers(context.credential, stream),
      body,
      describeError: this.wire.errors.read,
      ...(endpoint.sign ? { sign: signerFor(endpoint, context.credential) } : {}),
    };
    return { call, dropped };
  }
}
