/**
 * Reads the AI SDK's errors into the classifier's input (SPEC R-LB-1): `APICallError` carries the status,
 * the response headers (rate-limit resets, `retry-after`) and the raw body the classifier reads provider
 * codes from; a `RetryError` is judged by its last error; a network failure by its system code. The AI SDK
 * marks its errors with `Symbol.for` markers, so they are recognised whichever copy of the package threw.
 */
import { UpstreamFailure } from "../ports/provider.js";

const API_CALL_ERROR = Symbol.for("vercel.ai.error.AI_APICallError");
const RETRY_ERROR = Symbol.for("vercel.ai.error.AI_RetryError");

interface ApiCallErrorFields {
  message: string;
  statusCode?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  cause?: unknown;
}

function marked(error: unknown, marker: symbol): boolean {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[marker] === true;
}

export function isApiCallError(error: unknown): error is Error & ApiCallErrorFields {
  return marked(error, API_CALL_ERROR);
}

/** The system code of a network failure (`ECONNREFUSED`, `UND_ERR_SOCKET`, …) anywhere in the cause chain. */
function systemCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Z][A-Z0-9_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function isAbortError(error: unknown): boolean {
  return (error instanceof Error || error instanceof DOMException) && error.name === "AbortError";
}

/** The response headers of a failed call, for the headroom readings (R-PO-7). */
export function failureHeadersOf(error: unknown): { status: number; headers: Record<string, string> } | undefined {
  const inner = marked(error, RETRY_ERROR) ? (error as { lastError?: unknown }).lastError : error;
  if (!isApiCallError(inner) || inner.statusCode === undefined || !inner.responseHeaders) return undefined;
  return { status: inner.statusCode, headers: inner.responseHeaders };
}

/**
 * What the runner classifies: an `UpstreamFailure` with the fields the AI SDK error holds. Aborts and
 * anything Detour threw itself pass unchanged, so a caller's abort stays an abort (R-EC-7).
 */
export function toUpstreamFailure(error: unknown, provider: string): unknown {
  if (marked(error, RETRY_ERROR)) {
    const last = (error as { lastError?: unknown }).lastError;
    if (last !== undefined) return toUpstreamFailure(last, provider);
  }
  if (isAbortError(error) || error instanceof UpstreamFailure) return error;
  if (isApiCallError(error)) {
    const code = systemCodeOf(error.cause);
    return new UpstreamFailure(
      error.message,
      {
        provider,
        ...(error.statusCode !== undefined ? { status: error.statusCode } : {}),
        ...(error.responseHeaders ? { headers: error.responseHeaders } : {}),
        ...(code !== undefined ? { code } : {}),
        // The raw body: the classifier reads provider error types and codes out of it.
        message: error.responseBody !== undefined && error.responseBody !== "" ? error.responseBody : error.message,
      },
      error,
    );
  }
  const code = systemCodeOf(error);
  if (code !== undefined && error instanceof Error) {
    return new UpstreamFailure(error.message, { provider, code, message: error.message }, error);
  }
  return error;
}
