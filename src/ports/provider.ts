/**
 * One upstream API. A provider makes exactly one attempt per call: no hidden retries, no sleeping on
 * Retry-After (R-RA-1). Failures are thrown as `UpstreamFailure` carrying the classifier input.
 */
import type { Credential, FailureInput } from "../core/types.js";
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent } from "./canonical.js";

/** A wire format's id, or a cloud that speaks one at its own address and auth (Azure OpenAI, Vertex AI). */
export type ProviderApi =
  "openai-chat" | "openai-responses" | "anthropic-messages" | "google-generative-ai" | "ollama" | "bedrock" | "azure-openai" | "vertex";

export interface ProviderCallContext {
  /** Model id without the provider prefix. */
  model: string;
  /** Absent for keyless providers (R-RN-1). */
  credential?: Credential;
  signal: AbortSignal;
  /**
   * Called for every stream chunk that could not be parsed or validated; the chunk is skipped, not
   * forwarded (R-ST-2). Lets the caller count malformed chunks per attempt.
   */
  onMalformedChunk?: (chunk: MalformedChunk) => void;
  /**
   * Called once per upstream HTTP response, successes and failures alike, with its status and headers,
   * before the body is read. Rate-limit readers (R-PO-7 headroom) hang off it; it must not throw or block.
   */
  onUpstreamHeaders?: (status: number, headers: Readonly<Record<string, string | string[] | undefined>>) => void;
}

/** A stream chunk a provider skipped because it was not valid JSON or did not match the wire schema. */
export interface MalformedChunk {
  provider: string;
  model: string;
  /** Short preview of the raw chunk text (at most 200 characters). */
  preview: string;
  /** Why the chunk was rejected (JSON syntax error or the first schema issue). */
  problem: string;
}

export interface Provider {
  readonly id: string;
  readonly api: ProviderApi;
  complete(request: CanonicalRequest, context: ProviderCallContext): Promise<CanonicalResponse>;
  /**
   * Streams canonical events. The iterator throws `UpstreamFailure` for error statuses, in-band error
   * events and cut connections; the commit-point logic (R-ST-1) lives above the provider.
   */
  stream(request: CanonicalRequest, context: ProviderCallContext): AsyncIterable<CanonicalStreamEvent>;
}

/**
 * A failure at the provider boundary, already reduced to the classifier's input (R-EC-1).
 * Adapters throw this; the runner classifies it.
 */
export class UpstreamFailure extends Error {
  readonly failure: FailureInput;

  constructor(message: string, failure: Omit<FailureInput, "message"> & { message?: string }, cause?: unknown) {
    super(message, { cause });
    this.name = "UpstreamFailure";
    this.failure = { ...failure, message: failure.message ?? message };
  }
}
