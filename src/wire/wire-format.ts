/**
 * One wire format behind one interface (DESIGN §1): everything Detour knows about a format's fields — how a
 * request is scanned and its `model` spliced, how a stream is scanned, both codecs, how errors are read and
 * rendered, how usage is read, the finish tables. Callers hold a `WireFormat` (looked up once, in
 * `wire/formats.ts`) and never name a wire field themselves.
 *
 * A member that a format does not have is absent, not a stub: the gateway does not speak Google or Ollama to
 * its clients, so they have no `lane` and no resumable streams; their server codecs (request decode, answer,
 * stream and error render) are what the mock provider answers with. The same-wire lane serves only the
 * formats that have `lane`.
 */
import type { RequestFactsBound } from "../core/fit.js";
import type {
  CanonicalFinishReason,
  CanonicalRequest,
  CanonicalResponse,
  CanonicalStreamEvent,
  CanonicalUsage,
} from "../ports/canonical.js";
import type { UpstreamBody } from "./shared/body-bytes.js";
import type { UnsupportedField, WireEncoding } from "./shared/encoding.js";
import type { FinishReasonTable } from "./shared/finish-reasons.js";
import type { ScannedChatBody } from "./shared/scan-chat-body.js";
import type { ScannedEventSink } from "./shared/same-wire-scanner.js";
import type { DeliveredAnswer, RawStreamScanner } from "./shared/sse-bytes.js";
import type { CanonicalStreamEncoder } from "./shared/stream-encoder.js";
import type { DialectIssue } from "./shared/validation-issues.js";
import type { WireErrorDetails } from "./shared/wire-error.js";

/** The one name of each format: its folder under wire/, its config `api`, its gateway dialect. */
export type WireFormatId = "openai-chat" | "openai-responses" | "anthropic-messages" | "google-generative-ai" | "ollama" | "bedrock";

/** A client's request decoded: the canonical request and what routing reads beside it. */
export interface DecodedClientRequest {
  request: CanonicalRequest;
  /** The `model` field as sent. */
  model: string;
  stream: boolean;
  /** The client asked for the usage of its stream (a format that always sends it says true). */
  includeUsage: boolean;
  /** A field that ties the request to state one provider holds (Responses `previous_response_id`, …). */
  statefulField?: string;
  /** The first input the canonical model cannot hold; only a same-wire candidate can take it. */
  untranslatable?: UnsupportedField;
}

export type ClientRequestDecode = { ok: true; value: DecodedClientRequest } | { ok: false; issues: DialectIssue[] };

/**
 * A provider's non-streamed answer decoded; `rawFinishReason` is the wire's own word for how it ended, and
 * `failure` what an answer that ended in an error says about it (Responses `status: "failed"` with its error).
 */
export type ProviderResponseDecode =
  { ok: true; response: CanonicalResponse; rawFinishReason?: string; failure?: WireErrorDetails } | { ok: false; problem: string };

/** Ids a decoder makes up when the wire has none (Gemini and Ollama answers carry no response id). */
export interface DecodeFallback {
  model: string;
  createResponseId(): string;
  createToolCallId(): string;
}

/** What a request's URL says beside its body: Google names the model and the streaming method in the path. */
export interface RequestRoute {
  model?: string;
  stream?: boolean;
}

export interface RequestEncodeOptions {
  model: string;
  stream: boolean;
  /** The upstream's base URL, for formats whose fields differ by server (OpenAI's own API names max tokens otherwise). */
  baseUrl?: string;
}

/** An error the gateway renders in the client's format. */
export interface WireErrorInput {
  message: string;
  status: number;
  code?: string | null;
  param?: string | null;
  /** When to try again; a format that says it in the body (Gemini's RetryInfo) renders it there. */
  retryAfterSeconds?: number;
}

/**
 * Where a stream decoder's findings go. `error`, `failed` and `cut` end the stream: the provider layer throws
 * its own failure from them (wire/ knows no failure classes), so they never return.
 */
export interface StreamDecodeSink {
  event(event: CanonicalStreamEvent): void;
  /** A chunk that is not the format's: skipped and counted (R-ST-2). */
  malformed(raw: string, problem: string): void;
  /** An in-band error event. */
  error(details: WireErrorDetails): never;
  /** The answer ended with an error-class finish reason, in the wire's own word. */
  failed(rawFinishReason: string): never;
  /** The body ended before the answer did. */
  cut(): never;
}

/**
 * How a format's upstream stream is framed: server-sent events, one JSON object per line (Ollama), or AWS's
 * binary event-stream messages (Bedrock), each read as `{"<event type>": payload}` (wire/shared/aws-event-stream.ts).
 */
export type StreamFraming = "sse" | "ndjson" | "aws-event-stream";

export interface StreamDecoderOptions extends DecodeFallback {
  /** Request fields the encoder had to leave out (R-GW-6), reported on the first event. */
  dropped: readonly string[];
}

/** One upstream stream → canonical events, one framed piece (an SSE event's data, an NDJSON line) at a time. */
export interface WireStreamDecoder {
  /** True once the answer is complete: nothing after it is read. */
  take(data: string, sink: StreamDecodeSink): boolean;
  /** The body ended without a complete answer: emits the finish a complete one still needs, or calls `sink.cut`. */
  end(sink: StreamDecodeSink): void;
  /**
   * R-GW-10: the whole JSON body an upstream sent for a stream, where the format's own non-streamed answer is
   * not what it sent (Gemini without `alt=sse` sends its chunks as one array). Absent: the body is the format's
   * answer, decoded by `response.decode`. Returns the problem when the text is not JSON at all.
   */
  whole?(text: string, sink: StreamDecodeSink): { problem: string } | undefined;
}

export interface StreamEncoderOptions {
  /** `provider/model` shown to the client (R-ST-3). */
  model: string;
  createdSeconds: number;
  /** The client asked for the usage of its stream. */
  includeUsage: boolean;
}

export interface WireScannerOptions {
  /** `provider/model` shown to the client (R-ST-3). */
  shownModel: string;
  /** The client asked for its usage itself (OpenAI `stream_options.include_usage`): the usage event is forwarded. */
  forwardUsage?: boolean;
  /** The reads are assembled into one answer renamed once (R-ST-6): the events keep the upstream model. */
  keepUpstreamModel?: boolean;
  /** Gets each kept event's JSON (an assembler, R-ST-6). */
  onEvent?: ScannedEventSink;
  /** The reads are only assembled (R-ST-6): `push` forwards no bytes, the events go to `onEvent`. */
  assembleOnly?: boolean;
}

/** Builds the non-streamed answer a provider would have sent from its stream's events (R-ST-6). */
export interface WireAssembler {
  accept(event: unknown): void;
  /** The answer as the wire's JSON object; its `model` is set by the caller. */
  answer(): Record<string, unknown>;
}

/** HTTP request headers as node gives them. */
export type ClientHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * The same-wire lane's reading of a client body (SPEC R-GW-6, R-FB-8): a shape check cheap enough for every
 * request, the fit's bound from the scan alone, and the client's bytes for one candidate.
 */
export interface SameWireLane {
  /** True when the scanned body has the shape the format requires at its top level (else: a full decode). */
  shapeOk(body: ScannedChatBody): boolean;
  /** The pre-call fit's bound from the scan alone. */
  factsBound(body: ScannedChatBody): RequestFactsBound;
  /** The client asked for the usage of its stream itself. */
  clientWantsUsage(body: ScannedChatBody, stream: boolean): boolean;
  /** The client's bytes for one candidate: `model` replaced, and what the lane needs of a stream (R-ST-3). */
  bodyFor(body: ScannedChatBody, model: string, stream: boolean): UpstreamBody;
  /** A non-streamed request's bytes as a stream, so silence is caught (R-ST-6). */
  streamedBodyFor(body: ScannedChatBody, model: string): UpstreamBody;
  /** The client's request headers that select the format's behaviour and travel with its bytes. */
  clientHeaders(headers: ClientHeaders): Readonly<Record<string, string>> | undefined;
  /** The upstream stream's byte scanner (commit point, finish, usage, in-band errors). */
  scanner(options: WireScannerOptions): RawStreamScanner;
  /** The non-streamed answer from a stream's events (R-ST-6). */
  assembler(): WireAssembler;
  /**
   * R-GW-10: a complete non-streamed answer (an upstream that ignored `stream: true`) as the stream of this
   * format that carries the same answer — the bytes the stream scanner then reads as if the upstream had
   * sent them. Undefined when the body is not an answer of this format.
   */
  answerAsStream(body: Buffer, options: { createdSeconds: number }): Buffer | undefined;
}

export interface WireFormat {
  readonly id: WireFormatId;
  /** Older names of this format (config `api`, dialect); read, never written. */
  readonly aliases: readonly string[];
  readonly finish: {
    /** Wire value → canonical; an unknown value means "stop" (shared/finish-reasons.ts). */
    readonly toCanonical: FinishReasonTable;
    /** Canonical → wire, for the formats Detour writes answers in. */
    readonly fromCanonical?: Readonly<Record<CanonicalFinishReason, string>>;
  };
  readonly usage: {
    /** The wire's usage object (an answer's `usage`, a stream's last usage) as canonical usage; undefined when unreadable. */
    read(raw: unknown): CanonicalUsage | undefined;
    render?(usage: CanonicalUsage): unknown;
  };
  readonly errors: {
    /**
     * A non-2xx body → the classifier's input (the HTTP status comes from the response). `headers` for formats
     * that name the error in a header (Bedrock's `x-amzn-ErrorType`).
     */
    read(bodyText: string, headers?: Readonly<Record<string, string | string[] | undefined>>): WireErrorDetails;
    /** An in-band stream error as the stream scanner found it. */
    readStreamError(raw: unknown): WireErrorDetails;
    /**
     * R-GW-10: a 2xx JSON body that is the format's error object where a stream was asked for — the provider's
     * error, read as the same error mid-stream is; undefined for any other body. Absent where the stream decoder
     * reads such a body itself (NDJSON lines, Gemini's chunks).
     */
    readErrorAnswer?(text: string): WireErrorDetails | undefined;
    render?(input: WireErrorInput): unknown;
    renderValidation?(issues: readonly DialectIssue[]): unknown;
  };
  readonly request: {
    /** The provider's request body, or the field the format cannot carry (R-GW-6 `incompatible`). */
    encode(request: CanonicalRequest, options: RequestEncodeOptions): WireEncoding<unknown>;
    /** A client's request body (the gateway dialect, or the mock provider's server side), with what its URL says. */
    decode?(body: unknown, route?: RequestRoute): ClientRequestDecode;
  };
  readonly response: {
    /** A provider's answer text, validated and decoded. */
    decode(text: string, fallback: DecodeFallback): ProviderResponseDecode;
    render?(response: CanonicalResponse, options: { createdSeconds: number }): unknown;
  };
  readonly stream: {
    readonly framing: StreamFraming;
    /** The provider's reading of an upstream stream of this format. */
    decoder(options: StreamDecoderOptions): WireStreamDecoder;
    encoder?(options: StreamEncoderOptions): CanonicalStreamEncoder;
    /**
     * An encoder that goes on with a stream whose first part the client already holds in this format
     * (R-ST-4). Absent: a cut stream of this format cannot be continued in its own bytes.
     */
    resumeEncoder?(options: StreamEncoderOptions & { delivered: DeliveredAnswer }): CanonicalStreamEncoder;
  };
  readonly lane?: SameWireLane;
}

/** A format clients speak to the gateway, which its same-wire lane serves: it decodes client requests. */
export type LaneWireFormat = WireFormat & {
  readonly lane: SameWireLane;
  readonly request: WireFormat["request"] & { decode(body: unknown): ClientRequestDecode };
};
