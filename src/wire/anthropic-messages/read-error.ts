/**
 * Anthropic error bodies and `event: error` stream events → classifier input.
 * Body shape: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"…"}
 */
import type { z } from "zod";
import type { WireErrorDetails } from "../shared/wire-error.js";
import { parseJsonText, validateWire } from "../shared/wire-json.js";
import { anthropicErrorBodySchema, anthropicErrorObjectSchema } from "./schemas.js";

/**
 * The HTTP status Anthropic documents for each error type. In-stream errors arrive after a 200, so
 * the equivalent status is what lets them classify exactly like the same error before the stream.
 */
export const ANTHROPIC_ERROR_TYPE_STATUS: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

export function describeAnthropicError(bodyText: string): WireErrorDetails {
  const json = parseJsonText(bodyText);
  if (!json.ok) return { message: bodyText.trim() };
  const body = validateWire(json.value, anthropicErrorBodySchema);
  if (!body.ok) return { message: bodyText.trim() };
  return { message: body.value.error.message ?? "", errorType: body.value.error.type };
}

export function describeAnthropicStreamError(error: z.infer<typeof anthropicErrorObjectSchema>): WireErrorDetails {
  const status = Object.hasOwn(ANTHROPIC_ERROR_TYPE_STATUS, error.type) ? ANTHROPIC_ERROR_TYPE_STATUS[error.type] : undefined;
  return { message: error.message ?? "", errorType: error.type, ...(status !== undefined ? { status } : {}) };
}

/** The `error` object of an `event: error` frame, as the stream scanner hands it over unvalidated. */
export function describeAnthropicStreamErrorValue(raw: unknown): WireErrorDetails {
  const error = validateWire(raw, anthropicErrorObjectSchema);
  return error.ok ? describeAnthropicStreamError(error.value) : { message: JSON.stringify(raw) };
}
