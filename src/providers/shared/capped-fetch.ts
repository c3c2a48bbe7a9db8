/**
 * A `fetch` wrapper for callers who run their own OpenAI / Anthropic SDK clients (R-RA-1). Those SDKs
 * sleep on `retry-after(-ms)` before retrying; a long stated wait would stall the caller instead of
 * letting failover move on. When a retryable response (408/409/429/5xx) states a wait longer than the
 * cap — or a 429 states none — the wrapper marks it `x-should-retry: false`, which the Stainless-based
 * SDKs obey by surfacing the error at once.
 */

export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface CappedFetchOptions {
  /** Longest provider-stated wait the SDK may sleep on; `null` = no cap (the SDK decides). */
  maxWaitSeconds: number | null;
  /** The fetch to wrap; defaults to the global fetch. */
  fetch?: FetchFunction;
  /** Clock for HTTP-date `retry-after` values; defaults to the system clock. */
  now?: () => number;
}

/** Default cap when `OPENCLAW_SDK_RETRY_MAX_WAIT_SECONDS` is unset (R-RA-1). */
export const DEFAULT_SDK_RETRY_MAX_WAIT_SECONDS = 60;

export function createCappedFetch(options: CappedFetchOptions): FetchFunction {
  const inner = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const now = options.now ?? Date.now;
  return async (input, init) => {
    const response = await inner(input, init);
    if (!shouldStopSdkRetry(response.status, response.headers, options.maxWaitSeconds, now())) return response;
    const headers = new Headers(response.headers);
    headers.set("x-should-retry", "false");
    // Response headers are immutable, so the marked answer is a new Response around the same body.
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** True when the SDK must not retry this response itself (see module comment). */
export function shouldStopSdkRetry(status: number, headers: Headers, maxWaitSeconds: number | null, nowMs: number): boolean {
  if (maxWaitSeconds === null || !isRetryableStatus(status)) return false;
  const waitMs = statedWaitMs(headers, nowMs);
  if (waitMs === undefined) return status === 429;
  return waitMs > maxWaitSeconds * 1000;
}

/** `retry-after-ms` (milliseconds) wins over `retry-after` (seconds or an HTTP date), as in the SDKs. */
export function statedWaitMs(headers: Headers, nowMs: number): number | undefined {
  const milliseconds = headers.get("retry-after-ms");
  if (milliseconds !== null && milliseconds.trim() !== "") {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = headers.get("retry-after");
  if (retryAfter === null || retryAfter.trim() === "") return undefined;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
