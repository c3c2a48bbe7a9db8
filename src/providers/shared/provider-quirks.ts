/**
 * What sets one provider apart from another of the same wire format: where a call goes, how it is
 * authenticated, and — for clouds that sign each request (SigV4) or fetch a short-lived token — a last step
 * over the request's final bytes. Everything about the body and the answer is the wire format's
 * (`WireFormat`); the one HTTP provider (`http-provider.ts`) puts the two together, so a new provider is one
 * quirks object, not another class.
 */
import type { Credential } from "../../core/types.js";
import type { ProviderApi } from "../../ports/provider.js";
import type { WireFormat } from "../../wire/wire-format.js";
import { credentialSecret } from "./credentials.js";
import type { OutgoingRequest, PassThroughTarget, RequestSigner } from "./pass-through-call.js";
import type { ProviderSettings } from "./provider-settings.js";
import { timeoutMsOf } from "./wire-call.js";

/** One provider's endpoint, resolved once from its settings. */
export interface ProviderEndpoint {
  /** The URL of one call: a cloud names its deployment or model in the path, Gemini its streaming method. */
  url(model: string, stream: boolean): string;
  /**
   * Auth and the format's own request headers for one call, `accept` included; `settings.headers` go
   * underneath. `client` holds the client's headers the same-wire lane forwards (Anthropic's version and beta
   * flags), absent on the canonical path.
   */
  headers(credential: Credential | undefined, stream: boolean, client?: Readonly<Record<string, string>>): Record<string, string>;
  /**
   * Runs last, over the final bytes: signs the request or adds a token fetched for it. It is given the
   * call's credential, since a cloud's token or signature belongs to the profile the attempt runs on.
   */
  sign?: EndpointSigner;
}

export type EndpointSigner = (
  request: OutgoingRequest,
  signal: AbortSignal,
  credential: Credential | undefined,
) => Promise<OutgoingRequest>;

/** The endpoint's signer for one call, bound to that call's credential. */
export function signerFor(endpoint: ProviderEndpoint, credential: Credential | undefined): RequestSigner | undefined {
  const sign = endpoint.sign;
  return sign ? (request, signal) => sign(request, signal, credential) : undefined;
}

export type { OutgoingRequest, RequestSigner } from "./pass-through-call.js";

export interface ProviderQuirks {
  /** The config `api`: a wire format's id, or a cloud's (`azure-openai`, `vertex`). */
  readonly api: ProviderApi;
  /** A cloud's wire format for these settings (Azure: chat or Responses; Vertex: Gemini or Claude); absent: `api`'s format. */
  wireOf?(settings: ProviderSettings): WireFormat;
  endpoint(settings: ProviderSettings): ProviderEndpoint;
}

/** `accept` for a call: an event stream (or Ollama's NDJSON) when streaming, JSON otherwise. */
export function acceptHeader(stream: boolean, streamType = "text/event-stream"): { accept: string } {
  return { accept: stream ? streamType : "application/json" };
}

/**
 * The same-wire lane's raw call to an endpoint (SPEC R-GW-6): its URL and headers, the format's error reader,
 * the credential's secret to redact. Embeddings and token counts go to the same endpoint at another URL.
 */
export function passThroughTargetOf(
  settings: ProviderSettings,
  endpoint: ProviderEndpoint,
  describeError: PassThroughTarget["describeError"],
  call: { url: string; credential: Credential | undefined; stream: boolean; client?: Readonly<Record<string, string>> },
): PassThroughTarget {
  return {
    provider: settings.id,
    url: call.url,
    headers: {
      ...(settings.headers ?? {}),
      ...endpoint.headers(call.credential, call.stream, call.client),
      "content-type": "application/json",
    },
    timeoutMs: timeoutMsOf(settings),
    ...(settings.dispatcher ? { dispatcher: settings.dispatcher } : {}),
    describeError,
    secrets: [credentialSecret(call.credential)],
    ...(endpoint.sign ? { sign: signerFor(endpoint, call.credential) } : {}),
  };
}
