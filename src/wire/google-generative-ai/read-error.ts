/**
 * Gemini errors (google.rpc.Status) → classifier input. `status` (RESOURCE_EXHAUSTED, UNAVAILABLE, …)
 * is the code; an ErrorInfo `reason` is the error type; a RetryInfo `retryDelay` becomes a
 * `retry-after-ms` hint so the reset time reaches the classifier like any header would (R-EC-6).
 */
import type { z } from "zod";
import type { WireErrorDetails } from "../shared/wire-error.js";
import { parseJsonText, validateWire } from "../shared/wire-json.js";
import { googleErrorBodySchema, type googleErrorObjectSchema } from "./schemas.js";

type GoogleErrorObject = z.infer<typeof googleErrorObjectSchema>;

export function describeGoogleError(bodyText: string): WireErrorDetails {
  const json = parseJsonText(bodyText);
  if (!json.ok) return { message: bodyText.trim() };
  // Some Google front ends answer with a one-element array around the error body.
  const value = Array.isArray(json.value) && json.value.length === 1 ? (json.value[0] as unknown) : json.value;
  const body = validateWire(value, googleErrorBodySchema);
  if (!body.ok) return { message: bodyText.trim() };
  const { status: _inBodyStatus, ...details } = describeGoogleErrorObject(body.value.error);
  return details;
}

/** Also used for `{"error":…}` events inside an SSE stream, where `code` is the only status there is. */
export function describeGoogleErrorObject(error: GoogleErrorObject): WireErrorDetails {
  const reason = error.details?.find((detail) => detail.reason)?.reason;
  const retryDelay = error.details?.find((detail) => detail.retryDelay)?.retryDelay;
  const retryAfterMs = retryDelay ? durationToMs(retryDelay) : undefined;
  return {
    message: error.message ?? "",
    ...(error.status ? { code: error.status } : {}),
    ...(reason ? { errorType: reason } : {}),
    ...(error.code !== undefined && error.code >= 400 && error.code <= 599 ? { status: error.code } : {}),
    ...(retryAfterMs !== undefined ? { hintHeaders: { "retry-after-ms": String(retryAfterMs) } } : {}),
  };
}

/** protobuf Duration JSON form: "37s", "0.5s", "1.250s". */
function durationToMs(duration: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)s$/.exec(duration.trim());
  return match?.[1] === undefined ? undefined : Math.round(Number(match[1]) * 1000);
}
