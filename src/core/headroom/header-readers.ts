/**
 * R-PO-7: which response headers state a profile's rate-limit headroom, as data. One row per window a
 * provider family reports; a new provider or header is one row plus one fixture row in the test.
 *
 * `scope: "model"` marks limits the provider keeps per model (OpenAI and Anthropic API buckets): such a
 * reading steers only runs of that model. Subscription windows and OpenRouter keys are per account.
 */
import { type HeaderValues, headerValue, parseDurationMs, parseEpochMs, parseNumber, parseRfc3339 } from "./header-values.js";
import type { HeadroomReading, HeadroomStatus } from "./reading.js";

/** How a reset header is written: a duration from now, an RFC 3339 instant, an epoch, or seconds from now. */
export type ResetFormat = "duration" | "rfc3339" | "epoch" | "seconds-after";

export interface HeadroomHeaderRow {
  family: "openai" | "anthropic" | "anthropic-unified" | "openrouter" | "codex";
  window: string;
  scope: "model" | "profile";
  /** Count style: `limit` and `remaining` headers. */
  limit?: string;
  remaining?: string;
  /** Utilisation style: a used share, `scale` 1 for a fraction, 100 for a percentage. */
  used?: { header: string; scale: number };
  status?: string;
  claim?: string;
  windowMinutes?: string;
  /** The first of these that parses gives the reset. */
  reset: readonly { header: string; format: ResetFormat }[];
}

const openai = (window: "requests" | "tokens"): HeadroomHeaderRow => ({
  family: "openai",
  window,
  scope: "model",
  limit: `x-ratelimit-limit-${window}`,
  remaining: `x-ratelimit-remaining-${window}`,
  reset: [{ header: `x-ratelimit-reset-${window}`, format: "duration" }],
});

const anthropic = (window: "requests" | "tokens" | "input-tokens" | "output-tokens"): HeadroomHeaderRow => ({
  family: "anthropic",
  window,
  scope: "model",
  limit: `anthropic-ratelimit-${window}-limit`,
  remaining: `anthropic-ratelimit-${window}-remaining`,
  reset: [{ header: `anthropic-ratelimit-${window}-reset`, format: "rfc3339" }],
});

const unified = (span: "5h" | "7d"): HeadroomHeaderRow => ({
  family: "anthropic-unified",
  window: `unified-${span}`,
  scope: "profile",
  used: { header: `anthropic-ratelimit-unified-${span}-utilization`, scale: 1 },
  status: `anthropic-ratelimit-unified-${span}-status`,
  reset: [{ header: `anthropic-ratelimit-unified-${span}-reset`, format: "epoch" }],
});

const codex = (slot: "primary" | "secondary"): HeadroomHeaderRow => ({
  family: "codex",
  window: `codex-${slot}`,
  scope: "profile",
  used: { header: `x-codex-${slot}-used-percent`, scale: 100 },
  windowMinutes: `x-codex-${slot}-window-minutes`,
  reset: [
    { header: `x-codex-${slot}-reset-at`, format: "epoch" },
    { header: `x-codex-${slot}-reset-after-seconds`, format: "seconds-after" },
  ],
});

export const HEADROOM_HEADER_ROWS: readonly HeadroomHeaderRow[] = [
  openai("requests"),
  openai("tokens"),
  anthropic("requests"),
  anthropic("tokens"),
  anthropic("input-tokens"),
  anthropic("output-tokens"),
  unified("5h"),
  unified("7d"),
  // The account-wide summary: a status and the window that binds (`representative-claim`), no share.
  {
    family: "anthropic-unified",
    window: "unified",
    scope: "profile",
    status: "anthropic-ratelimit-unified-status",
    claim: "anthropic-ratelimit-unified-representative-claim",
    reset: [{ header: "anthropic-ratelimit-unified-reset", format: "epoch" }],
  },
  // OpenRouter: one bucket per key, reset as epoch milliseconds.
  {
    family: "openrouter",
    window: "key-requests",
    scope: "profile",
    limit: "x-ratelimit-limit",
    remaining: "x-ratelimit-remaining",
    reset: [{ header: "x-ratelimit-reset", format: "epoch" }],
  },
  codex("primary"),
  codex("secondary"),
];

const STATUSES: ReadonlySet<string> = new Set<HeadroomStatus>(["allowed", "allowed_warning", "rejected"]);

function parseReset(headers: HeaderValues, row: HeadroomHeaderRow, now: number): number | undefined {
  for (const { header, format } of row.reset) {
    const text = headerValue(headers, header);
    let resetAt: number | undefined;
    if (format === "duration") {
      const ms = parseDurationMs(text);
      resetAt = ms === undefined ? undefined : now + ms;
    } else if (format === "rfc3339") resetAt = parseRfc3339(text);
    else if (format === "epoch") resetAt = parseEpochMs(text);
    else {
      const seconds = parseNumber(text);
      resetAt = seconds === undefined || seconds < 0 ? undefined : now + seconds * 1000;
    }
    if (resetAt !== undefined) return resetAt;
  }
  return undefined;
}

const clampShare = (share: number): number => Math.min(1, Math.max(0, share));

/** One row applied to one response; undefined when the row's headers are absent or unreadable. */
export function readRow(
  headers: HeaderValues,
  row: HeadroomHeaderRow,
  context: { now: number; model?: string },
): HeadroomReading | undefined {
  const limit = row.limit ? parseNumber(headerValue(headers, row.limit)) : undefined;
  const remaining = row.remaining ? parseNumber(headerValue(headers, row.remaining)) : undefined;
  const used = row.used ? parseNumber(headerValue(headers, row.used.header)) : undefined;
  const statusText = row.status ? headerValue(headers, row.status) : undefined;
  const status = statusText !== undefined && STATUSES.has(statusText) ? (statusText as HeadroomStatus) : undefined;

  let remainingShare: number | undefined;
  if (limit !== undefined && remaining !== undefined && limit > 0) remainingShare = clampShare(remaining / limit);
  else if (used !== undefined && row.used) remainingShare = clampShare(1 - used / row.used.scale);
  if (remainingShare === undefined && status === undefined) return undefined;

  // Without a reset a reading could never be known to be stale, so it is not kept at all.
  const resetAt = parseReset(headers, row, context.now);
  if (resetAt === undefined || resetAt <= context.now) return undefined;

  const claim = row.claim ? headerValue(headers, row.claim) : undefined;
  const windowMinutes = row.windowMinutes ? parseNumber(headerValue(headers, row.windowMinutes)) : undefined;
  return {
    window: row.window,
    family: row.family,
    ...(row.scope === "model" && context.model !== undefined ? { model: context.model } : {}),
    ...(remainingShare !== undefined ? { remainingShare } : {}),
    ...(limit !== undefined && remaining !== undefined ? { limit, remaining } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(claim !== undefined ? { claim } : {}),
    ...(windowMinutes !== undefined ? { windowMinutes } : {}),
    resetAt,
    readAt: context.now,
  };
}

/**
 * Every headroom reading one upstream response carries (R-PO-7), successes and failures alike. The first
 * row of a (window, scope) wins, so OpenAI's `x-ratelimit-remaining-requests` and OpenRouter's bare
 * `x-ratelimit-remaining` never overwrite each other: they are different windows of different families.
 */
export function readHeadroom(headers: HeaderValues, context: { now: number; model?: string }): HeadroomReading[] {
  const lowered = rateLimitHeadersOf(headers);
  // Most answers carry no rate-limit header at all (and every answer is read): no row is tried then.
  if (lowered === undefined) return [];
  const readings: HeadroomReading[] = [];
  const seen = new Set<string>();
  for (const row of HEADROOM_HEADER_ROWS) {
    const reading = readRow(lowered, row, context);
    if (!reading) continue;
    const slot = `${reading.model ?? ""}|${reading.window}`;
    if (seen.has(slot)) continue;
    seen.add(slot);
    readings.push(reading);
  }
  return readings;
}

/** Every header name a row of the table reads starts with one of these. */
export const RATE_LIMIT_PREFIXES = ["x-ratelimit-", "anthropic-ratelimit-", "x-codex-"] as const;

/**
 * The response's rate-limit headers under lower-case names, read in one pass over the headers (Node already
 * lower-cases them; a plain record may not), or undefined when there is none.
 */
function rateLimitHeadersOf(headers: HeaderValues): HeaderValues | undefined {
  let found: Record<string, string | string[] | undefined> | undefined;
  for (const name in headers) {
    const lower = name.toLowerCase();
    if (!RATE_LIMIT_PREFIXES.some((prefix) => lower.startsWith(prefix))) continue;
    found ??= {};
    found[lower] ??= headers[name];
  }
  return found;
}
