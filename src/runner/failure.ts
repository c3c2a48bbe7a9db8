/**
 * Turning whatever an attempt threw into the classifier's input, and telling a caller's abort apart from a
 * failure (R-EC-7). The classifier itself is the pure core's; this file only extracts fields at the boundary
 * for errors that did not come through a Detour provider adapter (e.g. an OpenAI/Anthropic SDK error thrown
 * from a `runWith` attempt).
 */
import { classifyFailure } from "../core/classify/index.js";
import { FailoverError } from "../core/errors.js";
import type { Classification, FailureInput } from "../core/types.js";
import { UpstreamFailure } from "../ports/provider.js";

type Headers = NonNullable<FailureInput["headers"]>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function numberField(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) ? value : undefined;
}

function stringField(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** SDKs hand headers over as a `Headers` instance, a Map-like or a plain object. */
function headersOf(value: unknown): Headers | undefined {
  if (!isRecord(value)) return undefined;
  const entries = (value as { entries?: unknown }).entries;
  if (typeof entries === "function") {
    const headers: Record<string, string> = {};
    for (const [name, headerValue] of (entries as () => Iterable<[string, unknown]>).call(value)) {
      if (typeof headerValue === "string") headers[name.toLowerCase()] = headerValue;
    }
    return headers;
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, headerValue] of Object.entries(value)) {
    if (typeof headerValue === "string" || Array.isArray(headerValue)) headers[name.toLowerCase()] = headerValue;
  }
  return headers;
}

/** Best-effort extraction for foreign errors: status, code, error type, message and headers. */
export function failureInputOf(error: unknown, provider: string, now: number): FailureInput {
  if (error instanceof UpstreamFailure) {
    return { ...error.failure, provider: error.failure.provider ?? provider, now };
  }
  if (!isRecord(error)) {
    return { provider, now, message: error === undefined || error === null ? undefined : String(error) };
  }
  const body = isRecord(error.error) ? error.error : undefined;
  const response = isRecord(error.response) ? error.response : undefined;
  const cause = isRecord(error.cause) ? error.cause : undefined;
  return {
    provider,
    now,
    status: numberField(error.status) ?? numberField(error.statusCode) ?? numberField(response?.status),
    code: stringField(error.code) ?? stringField(body?.code) ?? stringField(cause?.code),
    errorType: stringField(error.type) ?? stringField(body?.type),
    message: stringField(error.message) ?? stringField(body?.message),
    headers: headersOf(error.headers) ?? headersOf(response?.headers),
  };
}

/**
 * The classification of an attempt's error. A `FailoverError` thrown by the attempt (for instance by a nested
 * Detour run) already carries its verdict and is not classified again.
 */
export function classifyAttemptError(error: unknown, provider: string, now: number): Classification {
  if (error instanceof FailoverError) {
    return {
      reason: error.reason,
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...(error.upstreamCode !== undefined ? { code: error.upstreamCode } : {}),
      ...(error.resetAt !== undefined ? { resetAt: error.resetAt } : {}),
      preview: error.message,
    };
  }
  return classifyFailure(failureInputOf(error, provider, now));
}

/** The error to surface for a caller's abort: the signal's own reason, else a standard AbortError. */
export function callerAbortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}
