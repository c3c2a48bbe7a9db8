/**
 * Errors in Gemini's shape (google.rpc.Status), for answers written in this format: the HTTP body, and the
 * same object as a stream's in-band error chunk. A retry delay goes out as a RetryInfo detail, as Google sends it.
 */
import type { WireErrorInput } from "../wire-format.js";

/** The canonical status word of each HTTP status Gemini answers with. */
const STATUS_WORDS: Readonly<Record<number, string>> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  409: "ABORTED",
  413: "INVALID_ARGUMENT",
  429: "RESOURCE_EXHAUSTED",
  499: "CANCELLED",
  500: "INTERNAL",
  501: "NOT_IMPLEMENTED",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

function statusWord(status: number): string {
  return STATUS_WORDS[status] ?? (status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION");
}

export function renderGoogleError(input: WireErrorInput): { error: Record<string, unknown> } {
  const details =
    input.retryAfterSeconds === undefined
      ? {}
      : { details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${input.retryAfterSeconds}s` }] };
  return { error: { code: input.status, message: input.message, status: input.code ?? statusWord(input.status), ...details } };
}
