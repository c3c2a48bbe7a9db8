/**
 * R-EC-6: usage-limit resets a provider states in an error body or an in-stream `error` event rather than
 * in headers — ChatGPT/Codex `usage_limit_reached` with `resets_at` (epoch seconds) and
 * `resets_in_seconds`, relays' `retry_after` / `retry_after_ms`. The error mappers keep only the message,
 * so these fields are lifted here into the headers the classifier already reads (`retry-after`,
 * `retry-after-ms`), with the precision they were stated in: an epoch in seconds becomes an HTTP date,
 * a delay in seconds stays seconds.
 */
import type { WireErrorDetails } from "./upstream-failure.js";

/** Where a body keeps its reset fields: at its root, under `error`, under `response.error` (Responses). */
const MAX_DEPTH = 3;

export function bodyResetHeaders(body: unknown): Record<string, string> | undefined {
  const fields = resetFields(body, 0);
  if (!fields) return undefined;
  const atSeconds = epochSeconds(fields["resets_at"] ?? fields["reset_at"]);
  if (atSeconds !== undefined) return { "retry-after": new Date(atSeconds * 1000).toUTCString() };
  const afterMs = nonNegative(fields["retry_after_ms"]);
  if (afterMs !== undefined) return { "retry-after-ms": String(afterMs) };
  const afterSeconds = nonNegative(fields["resets_in_seconds"] ?? fields["retry_after"] ?? fields["retry_after_seconds"]);
  if (afterSeconds !== undefined) return { "retry-after": String(afterSeconds) };
  return undefined;
}

/** The details with the body's stated reset added; real response headers still win where both exist. */
export function withBodyResets(details: WireErrorDetails, body: unknown): WireErrorDetails {
  const stated = bodyResetHeaders(body);
  return stated ? { ...details, hintHeaders: { ...stated, ...(details.hintHeaders ?? {}) } } : details;
}

const RESET_KEYS = ["resets_at", "reset_at", "resets_in_seconds", "retry_after", "retry_after_seconds", "retry_after_ms"] as const;

function resetFields(value: unknown, depth: number): Record<string, unknown> | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value) || depth > MAX_DEPTH) return undefined;
  const record = value as Record<string, unknown>;
  if (RESET_KEYS.some((key) => record[key] !== undefined && record[key] !== null)) return record;
  return resetFields(record["error"], depth + 1) ?? resetFields(record["response"], depth + 1);
}

function epochSeconds(value: unknown): number | undefined {
  const number = typeof value === "string" && /^\s*\d+(?:\.\d+)?\s*$/.test(value) ? Number(value) : value;
  if (typeof number === "number" && Number.isFinite(number) && number > 0) return number >= 1e12 ? number / 1000 : number;
  if (typeof value === "string") {
    const parsed = Date.parse(value);
    return Number.isFinite(parsed) ? parsed / 1000 : undefined;
  }
  return undefined;
}

function nonNegative(value: unknown): number | undefined {
  const number = typeof value === "string" && /^\s*\d+(?:\.\d+)?\s*$/.test(value) ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) && number >= 0 ? number : undefined;
}
