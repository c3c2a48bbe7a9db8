/**
 * R-EC-6: provider-stated reset hints, from headers and from usage-limit texts.
 *
 * Two kinds of hint exist. *Explicit* hints answer "when may I retry?" directly (`retry-after-ms`,
 * `retry-after`, "try again in/at …", `resets_in_seconds`, `resets_at`, Gemini `retryDelay`). *Bucket*
 * hints say when one quota bucket refills (`x-ratelimit-reset-requests|tokens`,
 * `anthropic-ratelimit-*-reset`, Codex `x-codex-*-reset-at|after-seconds`); providers send them on every response, so they apply only when no
 * explicit hint exists, and then only the buckets reported empty (`…-remaining: 0`) when any is.
 *
 * Explicit hints all describe the same moment, stated with different precision, so the MOST PRECISE one
 * wins (R-EC-6): `retry-after-ms: 200` over `retry-after: 1` (which providers round up to whole seconds),
 * an exact reset timestamp over a delay of the same granularity, `try again in 8.57s` over
 * `retryDelay: 9s`. Only between equally precise hints does the latest win. Bucket hints describe
 * different budgets, and a request needs every exhausted one back, so among buckets the LATEST reset
 * wins: retrying at the earliest risks another 429, which lengthens the cooldown ladder (R-CD).
 *
 * Pure and tolerant: never throws, never reads the clock (`now` is a parameter).
 */
import { calendarResolution, epochMs, numberResolution, parseCalendarDate, parseDuration, plainNumber } from "./reset-time-parsing.js";

export { parseCalendarDate, parseDurationMs } from "./reset-time-parsing.js";

export interface ResetHints {
  /** Absolute reset time (epoch ms): when `now` was given, or when every applicable hint was absolute. */
  resetAt?: number;
  /** Relative wait (ms): from `now` to `resetAt` when `now` was given, else the longest relative hint. */
  retryAfterMs?: number;
}

interface Hint {
  atMs?: number;
  afterMs?: number;
  /** The granularity the hint was stated in (ms): 1 for `retry-after-ms`, 1000 for whole seconds, … */
  resolutionMs: number;
}

interface BucketHint extends Hint {
  /** The bucket's `-remaining` header said 0 (true), more than 0 (false), or nothing (undefined). */
  exhausted?: boolean;
}

const MAX_TEXT_CHARS = 16 * 1024;
const MAX_HEADERS = 400;
const MAX_MATCHES_PER_PATTERN = 20;
/** Junk guard: no provider asks for waits beyond a year. */
const MAX_WAIT_MS = 366 * 24 * 60 * 60 * 1000;

export function parseResetHints(headers: unknown, message: unknown, now?: number): ResetHints {
  try {
    const table = headerTable(headers);
    const explicit = [...headerRetryHints(table), ...textHints(typeof message === "string" ? message.slice(0, MAX_TEXT_CHARS) : "")];
    const chosen = explicit.length > 0 ? mostPrecise(explicit) : applicableBuckets([...bucketHints(table), ...codexWindowHints(table)]);
    return combine(chosen, typeof now === "number" && Number.isFinite(now) ? now : undefined);
  } catch {
    return {};
  }
}

/** The finest-grained hints; among those, exact timestamps over delays (ties keep all, the latest wins). */
function mostPrecise(hints: readonly Hint[]): Hint[] {
  const finest = Math.min(...hints.map((hint) => hint.resolutionMs));
  const precise = hints.filter((hint) => hint.resolutionMs === finest);
  const exact = precise.filter((hint) => hint.atMs !== undefined);
  return exact.length > 0 ? exact : precise;
}

function combine(hints: readonly Hint[], now: number | undefined): ResetHints {
  if (hints.length === 0) return {};
  if (now !== undefined) {
    const resetAt = Math.max(...hints.map((hint) => hint.atMs ?? now + (hint.afterMs ?? 0)));
    return { resetAt, retryAfterMs: Math.max(0, resetAt - now) };
  }
  const absolute = hints.flatMap((hint) => (hint.atMs === undefined ? [] : [hint.atMs]));
  const relative = hints.flatMap((hint) => (hint.afterMs === undefined ? [] : [hint.afterMs]));
  return {
    ...(absolute.length > 0 ? { resetAt: Math.max(...absolute) } : {}),
    ...(relative.length > 0 ? { retryAfterMs: Math.max(...relative) } : {}),
  };
}

// ---------------------------------------------------------------------------------------------- headers

function headerRetryHints(table: ReadonlyMap<string, readonly string[]>): Hint[] {
  const hints: Hint[] = [];
  for (const value of table.get("retry-after-ms") ?? []) pushHint(hints, afterHint(plainNumber(value), numberResolution(value, 1)));
  for (const value of table.get("retry-after") ?? []) {
    const seconds = plainNumber(value);
    pushHint(hints, seconds !== undefined ? afterHint(seconds * 1000, numberResolution(value, 1000)) : calendarHint(value));
  }
  return hints;
}

const OPENAI_BUCKET_RESET = /^x-ratelimit-reset(-.+)?$/;
const ANTHROPIC_BUCKET_RESET = /^anthropic-ratelimit-(.+)-reset$/;

function bucketHints(table: ReadonlyMap<string, readonly string[]>): BucketHint[] {
  const hints: BucketHint[] = [];
  for (const [name, values] of table) {
    const openai = OPENAI_BUCKET_RESET.exec(name);
    const anthropic = openai ? null : ANTHROPIC_BUCKET_RESET.exec(name);
    if (!openai && !anthropic) continue;
    const remainingName = openai ? `x-ratelimit-remaining${openai[1] ?? ""}` : `anthropic-ratelimit-${anthropic?.[1] ?? ""}-remaining`;
    const remaining = plainNumber(table.get(remainingName)?.[0] ?? "");
    for (const value of values) {
      const hint = bucketValue(value);
      if (hint) hints.push({ ...hint, exhausted: remaining === undefined ? undefined : remaining <= 0 });
    }
  }
  return hints;
}

/**
 * ChatGPT/Codex subscription windows: `x-codex-{primary,secondary}-reset-at` (epoch seconds) or
 * `-reset-after-seconds`, with `-used-percent`. Sent on every answer, so a window counts only when it is
 * spent (100 %) or its use is not stated: a half-used weekly window says nothing about this failure.
 */
function codexWindowHints(table: ReadonlyMap<string, readonly string[]>): BucketHint[] {
  const hints: BucketHint[] = [];
  for (const window of ["primary", "secondary"] as const) {
    const used = plainNumber(table.get(`x-codex-${window}-used-percent`)?.[0] ?? "");
    if (used !== undefined && used < 100) continue;
    const at = plainNumber(table.get(`x-codex-${window}-reset-at`)?.[0] ?? "");
    const afterText = table.get(`x-codex-${window}-reset-after-seconds`)?.[0] ?? "";
    const after = plainNumber(afterText);
    const hint =
      at !== undefined && at > 0
        ? epochHint(at)
        : after !== undefined
          ? afterHint(after * 1000, numberResolution(afterText, 1000))
          : undefined;
    if (hint) hints.push({ ...hint, exhausted: used === undefined ? undefined : true });
  }
  return hints;
}

function applicableBuckets(hints: readonly BucketHint[]): Hint[] {
  const exhausted = hints.filter((hint) => hint.exhausted === true);
  return exhausted.length > 0 ? exhausted : [...hints];
}

/** `6m0s`, `1.5s`, `20ms` (OpenAI, Groq); RFC 3339 (Anthropic); epoch seconds/ms or plain seconds. */
function bucketValue(value: string): Hint | undefined {
  const number = plainNumber(value);
  if (number !== undefined) return number >= 1e9 ? epochHint(number) : afterHint(number * 1000, numberResolution(value, 1000));
  return durationHint(value, true) ?? calendarHint(value);
}

/** Case-insensitive header lookup over plain objects, [name, value] tuples, raw header arrays and Headers/Map. */
function headerTable(headers: unknown): Map<string, string[]> {
  const table = new Map<string, string[]>();
  const add = (name: unknown, value: unknown): void => {
    if (typeof name !== "string" || table.size >= MAX_HEADERS) return;
    const values = (Array.isArray(value) ? value.slice(0, 20) : [value]).flatMap((item) =>
      typeof item === "string" ? [item.trim()] : typeof item === "number" && Number.isFinite(item) ? [String(item)] : [],
    );
    if (values.length === 0) return;
    const key = name.trim().toLowerCase();
    table.set(key, [...(table.get(key) ?? []), ...values]);
  };
  try {
    if (headers === null || typeof headers !== "object") return table;
    if (Array.isArray(headers)) {
      const entries = headers.slice(0, MAX_HEADERS * 2);
      if (entries.every((item) => typeof item === "string")) {
        for (let index = 0; index + 1 < entries.length; index += 2) add(entries[index], entries[index + 1]);
      } else {
        for (const entry of entries) if (Array.isArray(entry)) add(entry[0], entry[1]);
      }
      return table;
    }
    const entries = (headers as { entries?: unknown }).entries;
    if (typeof entries === "function" && Object.getPrototypeOf(headers) !== Object.prototype) {
      let count = 0;
      for (const entry of entries.call(headers) as Iterable<unknown>) {
        if (++count > MAX_HEADERS) break;
        if (Array.isArray(entry)) add(entry[0], entry[1]);
      }
      return table;
    }
    for (const key of Object.keys(headers).slice(0, MAX_HEADERS)) add(key, (headers as Record<string, unknown>)[key]);
  } catch {
    // A hostile or exotic header object: keep whatever was read so far.
  }
  return table;
}

// ------------------------------------------------------------------------------------------------- text

interface TextHintPattern {
  /** Global: used with matchAll only, which leaves the pattern's own state untouched. */
  readonly pattern: RegExp;
  readonly read: (captured: string) => Hint | undefined;
}

const TEXT_HINT_PATTERNS: readonly TextHintPattern[] = [
  // Codex/ChatGPT: "… or try again at Jul 5th, 2026 8:19 PM."
  { pattern: /\b(?:try again|resets?|available again) (?:at|on)\s+([^\n]{4,80})/gi, read: (text) => calendarHint(sentenceOf(text)) },
  // OpenAI/Groq "Please try again in 8.57s", Gemini "Please retry in 35.5s", Codex "try again in 5 days 22 hours".
  {
    // Relays: "reset after 4s", "limit resets in 2m 13s".
    pattern: /\b(?:try again|retry|retrying|resets?) (?:in|after)\s+([^\n]{1,80})/gi,
    read: (text) => durationHint(text, false) ?? calendarHint(sentenceOf(text)),
  },
  // ChatGPT usage_limit_reached bodies (possibly JSON-escaped inside an aggregator's raw field).
  {
    pattern: /resets_in_seconds\\?"?\s*[:=]\s*(\d+(?:\.\d+)?)/gi,
    read: (text) => afterHint(Number(text) * 1000, numberResolution(text, 1000)),
  },
  { pattern: /resets_at\\?"?\s*[:=]\s*\\?"?([^\s",}\\]{4,40})/gi, read: (text) => epochOrDate(text) },
  // Relayed JSON fields: `"retry_after": 4`, `retry_after_seconds=4`, `"retry_after_ms": 250`.
  {
    pattern: /\bretry[_-]after(?:[_-]seconds)?\\?"?\s*[:=]\s*(\d+(?:\.\d+)?)(?!\d|\.\d|\s*ms)/gi,
    read: (text) => afterHint(Number(text) * 1000, numberResolution(text, 1000)),
  },
  { pattern: /\bretry[_-]after[_-]ms\\?"?\s*[:=]\s*(\d+(?:\.\d+)?)/gi, read: (text) => afterHint(Number(text), numberResolution(text, 1)) },
  // Google RetryInfo detail.
  {
    pattern: /retryDelay\\?"?\s*[:=]\s*\\?"?(\d+(?:\.\d+)?)s\b/gi,
    read: (text) => afterHint(Number(text) * 1000, numberResolution(text, 1000)),
  },
  // Claude subscription: "Claude AI usage limit reached|1760000000".
  { pattern: /\busage limit reached\|(\d{9,13})\b/gi, read: (text) => epochHint(Number(text)) },
];

function textHints(text: string): Hint[] {
  const hints: Hint[] = [];
  if (text === "") return hints;
  for (const { pattern, read } of TEXT_HINT_PATTERNS) {
    let count = 0;
    for (const match of text.matchAll(pattern)) {
      if (++count > MAX_MATCHES_PER_PATTERN) break;
      pushHint(hints, read(match[1] ?? ""));
    }
  }
  return hints;
}

/** Cuts a captured tail at the end of its sentence or clause. */
function sentenceOf(text: string): string {
  const end = text.search(/\.(?:\s|$)|[)\n;!?"]|,?\s+or\s+/);
  return (end < 0 ? text : text.slice(0, end)).trim();
}

function epochOrDate(text: string): Hint | undefined {
  const number = plainNumber(text);
  return number !== undefined ? epochHint(number) : calendarHint(text);
}

function afterHint(ms: number | undefined, resolutionMs: number): Hint | undefined {
  return ms !== undefined && Number.isFinite(ms) && ms >= 0 && ms <= MAX_WAIT_MS ? { afterMs: Math.round(ms), resolutionMs } : undefined;
}

function atHint(ms: number | undefined, resolutionMs: number): Hint | undefined {
  return ms === undefined ? undefined : { atMs: ms, resolutionMs };
}

function durationHint(text: string, whole: boolean): Hint | undefined {
  const duration = parseDuration(text, whole);
  return duration ? afterHint(duration.ms, duration.resolutionMs) : undefined;
}

function calendarHint(text: string): Hint | undefined {
  return atHint(parseCalendarDate(text), calendarResolution(text));
}

/** Epoch seconds are exact to the second, epoch milliseconds to the millisecond. */
function epochHint(value: number): Hint | undefined {
  return atHint(epochMs(value), value >= 1e12 ? 1 : 1000);
}

function pushHint(hints: Hint[], hint: Hint | undefined): void {
  if (hint) hints.push(hint);
}
