/**
 * Turns whatever went wrong at the provider boundary into `UpstreamFailure` carrying the classifier's
 * input (R-EC-1): status, code, errorType, message and headers. Caller aborts are NOT failures (R-EC-7):
 * they surface as the signal's own reason so the runner can stop without recording anything.
 */
import { UpstreamFailure } from "../../ports/provider.js";
import type { WireErrorDetails } from "../../wire/shared/wire-error.js";
import type { ResponseHeaders } from "./http-client.js";

/** What a wire format's error reader extracts (wire/<format>/read-error.ts). */
export type { WireErrorDetails };

const PREVIEW_LIMIT = 500;

export function abortReasonOf(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new DOMException(typeof reason === "string" ? reason : "The operation was aborted", "AbortError");
}

/** Removes credential values from text that may be shown to users or logged. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let redacted = text;
  for (const secret of secrets) {
    // Very short values would redact ordinary words; real keys and tokens are long.
    if (secret && secret.length >= 8) redacted = redacted.split(secret).join("[redacted]");
  }
  return redacted;
}

export function previewText(text: string, limit = PREVIEW_LIMIT): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > limit ? `${flat.slice(0, limit)}…` : flat;
}

/** A non-2xx response. `details` comes from the provider's own error mapper. */
export function failureFromHttpResponse(input: {
  provider: string;
  status: number;
  headers: ResponseHeaders;
  details: WireErrorDetails;
  secrets?: readonly (string | undefined)[];
}): UpstreamFailure {
  const message = redactSecrets(input.details.message, input.secrets ?? []);
  const shown = message === "" ? "(empty body)" : previewText(message);
  return new UpstreamFailure(`${input.provider} answered HTTP ${input.status}: ${shown}`, {
    provider: input.provider,
    status: input.status,
    code: input.details.code,
    errorType: input.details.errorType,
    message,
    headers: { ...(input.details.hintHeaders ?? {}), ...input.headers },
  });
}

/** An error event inside a stream that had already started (e.g. Anthropic `event: error`). */
export function failureFromStreamError(input: {
  provider: string;
  details: WireErrorDetails;
  headers?: ResponseHeaders;
  secrets?: readonly (string | undefined)[];
}): UpstreamFailure {
  const message = redactSecrets(input.details.message, input.secrets ?? []);
  return new UpstreamFailure(`${input.provider} reported an error mid-stream: ${previewText(message) || "(no message)"}`, {
    provider: input.provider,
    status: input.details.status,
    code: input.details.code,
    errorType: input.details.errorType,
    message,
    headers: { ...(input.details.hintHeaders ?? {}), ...(input.headers ?? {}) },
  });
}

/** The body ended cleanly but before any finish reason: the answer is incomplete (R-ST-2). */
export function streamEndedEarlyFailure(provider: string): UpstreamFailure {
  // "stream closed" is a timeout-family message (R-EC-5), so the attempt fails over like a cut.
  return new UpstreamFailure(`stream closed: ${provider} ended the stream before sending a finish reason`, {
    provider,
    message: `stream closed before a finish reason`,
  });
}

/** Our own per-attempt deadline fired (a watchdog timeout is `timeout`, not an abort: R-EC-7). */
export function deadlineFailure(provider: string, timeoutMs: number): UpstreamFailure {
  const seconds = Math.round(timeoutMs / 100) / 10;
  return new UpstreamFailure(
    `${provider} did not answer within ${seconds} s; raise models.providers.${provider}.timeoutSeconds if this model is slow`,
    { provider, code: "ETIMEDOUT", message: `request timed out after ${seconds} s` },
  );
}

/**
 * A transport error (connect refused, reset, undici timeout, cut body). Passes `UpstreamFailure`
 * through unchanged and returns the abort reason when the caller aborted.
 */
export function failureFromNetworkError(error: unknown, context: { provider: string; signal: AbortSignal }): Error {
  if (error instanceof UpstreamFailure) return error;
  if (context.signal.aborted) return abortReasonOf(context.signal);
  const text = error instanceof Error ? error.message : String(error);
  const code = networkCodeOf(error);
  if (code === "UND_ERR_SOCKET" || code === "ECONNRESET" || code === "EPIPE") {
    // undici reports a connection cut mid-body as a socket error; name it the way R-EC-4/R-EC-5 expect.
    return new UpstreamFailure(
      `stream closed: the connection to ${context.provider} was cut (${text})`,
      { provider: context.provider, code: "ECONNRESET", message: `stream closed: connection reset (${text})` },
      error,
    );
  }
  return new UpstreamFailure(
    `${context.provider} could not be reached: ${text}`,
    { provider: context.provider, code, message: text },
    error,
  );
}

function networkCodeOf(error: unknown): string | undefined {
  const own = codeProperty(error);
  if (own && own !== "UND_ERR_SOCKET") return own;
  const cause = error instanceof Error ? codeProperty(error.cause) : undefined;
  return cause ?? own;
}

function codeProperty(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || !("code" in value)) return undefined;
  const code = (value as { code: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/** A 2xx body that is not the documented shape: the provider answered, but nothing usable came back. */
export function unreadableResponseFailure(provider: string, problem: string, bodyText: string): UpstreamFailure {
  return new UpstreamFailure(
    `${provider} returned a response Detour could not read (${problem}): ${previewText(bodyText, 200) || "(empty body)"}`,
    { provider, message: `malformed response body: ${problem}` },
  );
}

/**
 * The provider ended the answer with an error stop reason. That is a failure, not a finish: reporting
 * it as a clean end would lie to the client (R-ST-2). The message is the family R-EC-5 maps to timeout.
 */
export function errorStopReasonFailure(provider: string, rawReason: string): UpstreamFailure {
  return new UpstreamFailure(`${provider} stopped with an error (stop reason: ${rawReason})`, {
    provider,
    message: `stop reason: error (${rawReason})`,
  });
}
