/**
 * The one way providers talk HTTP: undici with a single shared Agent, explicit timeouts and no retries.
 * Retries and waits are failover decisions (R-RA-1), so nothing at the HTTP layer may repeat a call.
 */
import type { Agent as UndiciAgent, Dispatcher } from "undici";
import { Agent, request } from "./undici-core.js";
import { abortReasonOf, failureFromNetworkError } from "./upstream-failure.js";

/** Opening a TCP/TLS connection should never take long; a slow connect is an unreachable host. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** Default for a provider without `timeoutSeconds` (R-CF-3 default 120). */
export const DEFAULT_PROVIDER_TIMEOUT_SECONDS = 120;

let sharedAgent: UndiciAgent | undefined;

/** The process-wide connection pool every provider uses unless a dispatcher is injected. */
export function getSharedAgent(): UndiciAgent {
  sharedAgent ??= new Agent({
    connect: { timeout: CONNECT_TIMEOUT_MS },
    headersTimeout: DEFAULT_PROVIDER_TIMEOUT_SECONDS * 1000,
    bodyTimeout: DEFAULT_PROVIDER_TIMEOUT_SECONDS * 1000,
    keepAliveTimeout: 30_000,
  });
  return sharedAgent;
}

export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface UpstreamRequest {
  /** Provider id, used in failures (the classifier scopes some rules by provider). */
  provider: string;
  url: string;
  headers: Readonly<Record<string, string>>;
  body: unknown;
  /** The body already serialised (a signed request's bytes): sent as it is instead of `body`. */
  bodyBytes?: Buffer;
  signal: AbortSignal;
  /** Bounds the wait for response headers and every gap between body chunks. */
  timeoutMs: number;
  dispatcher?: Dispatcher;
}

export interface UpstreamResponse {
  status: number;
  headers: ResponseHeaders;
  body: Dispatcher.ResponseData["body"];
}

/** POSTs JSON. Network errors become `UpstreamFailure`; a caller abort rethrows the signal's reason. */
export async function postJson(upstream: UpstreamRequest): Promise<UpstreamResponse> {
  if (upstream.signal.aborted) throw abortReasonOf(upstream.signal);
  try {
    const response = await request(upstream.url, {
      method: "POST",
      dispatcher: upstream.dispatcher ?? getSharedAgent(),
      headers: { "content-type": "application/json", ...upstream.headers },
      body: upstream.bodyBytes ?? JSON.stringify(upstream.body),
      signal: upstream.signal,
      headersTimeout: upstream.timeoutMs,
      bodyTimeout: upstream.timeoutMs,
    });
    return { status: response.statusCode, headers: response.headers, body: response.body };
  } catch (error) {
    throw failureFromNetworkError(error, { provider: upstream.provider, signal: upstream.signal });
  }
}

/** Joins a base URL and a path without doubling or losing slashes. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}

/** `application/json` or a `+json` type, with or without parameters. */
const JSON_CONTENT_TYPE = /^\s*application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/**
 * R-GW-10: a 2xx answer to a streamed request whose body is a JSON document, not an event stream — the
 * upstream ignored `stream: true` and sent its complete non-streamed answer. Told by the content type alone:
 * the body is not read to decide.
 */
export function answersWithJson(headers: ResponseHeaders): boolean {
  const value = headers["content-type"];
  const type = Array.isArray(value) ? value[0] : value;
  return typeof type === "string" && JSON_CONTENT_TYPE.test(type);
}
