/**
 * Parsers for the value formats rate-limit headers use. Each returns undefined for anything it cannot
 * read, so a malformed header is ignored rather than guessed at.
 */

export type HeaderValues = Readonly<Record<string, string | string[] | undefined>>;

/** Header names are case-insensitive; Node lower-cases them, but a caller may pass a plain record. */
export function headerValue(headers: HeaderValues, name: string): string | undefined {
  const direct = headers[name];
  const value = direct !== undefined ? direct : Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

export function parseNumber(text: string | undefined): number | undefined {
  if (text === undefined || !/^-?\d+(?:\.\d+)?$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

const DURATION_PART = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
const UNIT_MS: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

/** OpenAI's Go-style durations: `6m0s`, `1.5s`, `20ms`, `1h2m3s`. A bare number counts as seconds. */
export function parseDurationMs(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const bare = parseNumber(text);
  if (bare !== undefined) return bare >= 0 ? bare * 1000 : undefined;
  if (!/^(?:\d+(?:\.\d+)?(?:ms|h|m|s))+$/.test(text)) return undefined;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(DURATION_PART)) total += Number(amount) * (UNIT_MS[unit ?? "s"] ?? 0);
  return total;
}

export function parseRfc3339(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{4}-\d{2}-\d{2}T/.test(text)) return undefined;
  const value = Date.parse(text);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * Epoch timestamps: OpenRouter states milliseconds, Anthropic's unified windows and Codex seconds. Below
 * 1e11 a value can only be seconds (1e11 ms is 1973), so one parser serves both without guessing wrong.
 */
export function parseEpochMs(text: string | undefined): number | undefined {
  const value = parseNumber(text);
  if (value === undefined || value <= 0) return undefined;
  return value < 1e11 ? value * 1000 : value;
}
