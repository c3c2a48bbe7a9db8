/**
 * Duration, date and number parsing for reset hints (R-EC-6), with the granularity each was stated in:
 * that granularity decides which of several hints is the most precise. Pure; never reads the clock.
 */

/** Epochs outside this range are parse accidents, not reset times. */
const MIN_EPOCH_MS = Date.UTC(2000, 0, 1);
const MAX_EPOCH_MS = Date.UTC(2200, 0, 1);

const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  millisecond: 1,
  milliseconds: 1,
  s: 1000,
  sec: 1000,
  secs: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  min: 60_000,
  mins: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  hrs: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
  days: 86_400_000,
  w: 604_800_000,
  week: 604_800_000,
  weeks: 604_800_000,
};

/**
 * Go-style (`1h2m3s`, `6m0s`, `1.5s`, `20ms`) and spoken (`5 days 22 hours 11 minutes`) durations.
 * `whole` demands that the entire text is a duration (header values); otherwise a leading duration is enough.
 */
export function parseDurationMs(text: string, whole: boolean): number | undefined {
  return parseDuration(text, whole)?.ms;
}

/** parseDurationMs plus the granularity it was stated in: the smallest unit, divided by its decimals. */
export function parseDuration(text: string, whole: boolean): { ms: number; resolutionMs: number } | undefined {
  const token = /(\d+(?:\.\d+)?)\s*([a-z]+)/iy;
  const separator = /\s*,\s*(?:and\s+)?|\s+and\s+|\s+/y;
  let index = 0;
  let total = 0;
  let tokens = 0;
  let resolutionMs = Number.POSITIVE_INFINITY;
  while (tokens < 8) {
    token.lastIndex = index;
    const match = token.exec(text);
    const unit = match ? UNIT_MS[(match[2] ?? "").toLowerCase()] : undefined;
    if (!match || unit === undefined) break;
    total += Number(match[1]) * unit;
    resolutionMs = Math.min(resolutionMs, numberResolution(match[1] ?? "", unit));
    tokens += 1;
    index = token.lastIndex;
    separator.lastIndex = index;
    if (separator.exec(text)) index = separator.lastIndex;
  }
  if (tokens === 0 || (whole && text.slice(index).trim() !== "")) return undefined;
  return { ms: total, resolutionMs };
}

/**
 * HTTP dates, RFC 3339 and written dates with a year ("Jul 5th, 2026 8:19 PM"). A text without a zone is
 * read as UTC so the result never depends on the machine's time zone.
 */
export function parseCalendarDate(text: string): number | undefined {
  const cleaned = text.replace(/(\d)(?:st|nd|rd|th)\b/gi, "$1").trim();
  if (cleaned.length > 60 || !/\b\d{4}\b|^\d{4}-\d{2}-\d{2}/.test(cleaned)) return undefined;
  const isoDate = /^\d{4}-\d{2}-\d{2}$/.test(cleaned);
  const isoDateTime = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(cleaned);
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/.test(cleaned) || /\b(?:UTC|GMT|[ECMP][SD]T)$/i.test(cleaned);
  const candidate = hasZone ? cleaned : isoDate ? `${cleaned}T00:00:00Z` : isoDateTime ? `${cleaned.replace(" ", "T")}Z` : `${cleaned} UTC`;
  const ms = Date.parse(candidate);
  return plausibleEpoch(ms) ? ms : undefined;
}

/** The resolution of a decimal stated in `unitMs` units: "1" s → 1000, "8.57" s → 10, "200" ms → 1. */
export function numberResolution(value: string, unitMs: number): number {
  const decimals = /\.(\d+)/.exec(value.trim())?.[1]?.length ?? 0;
  return Math.max(1, unitMs / 10 ** decimals);
}

/** The resolution of a written date: to the millisecond, second, minute or day it states. */
export function calendarResolution(text: string): number {
  if (/:\d{2}:\d{2}[.,]\d/.test(text)) return 1;
  if (/:\d{2}:\d{2}/.test(text)) return 1000;
  if (/\d{1,2}:\d{2}/.test(text)) return 60_000;
  return 86_400_000;
}

export function plainNumber(value: string): number | undefined {
  if (!/^\s*\d+(?:\.\d+)?\s*$/.test(value)) return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/** Epoch seconds (10 digits today) or epoch milliseconds (13 digits). */
export function epochMs(value: number): number | undefined {
  const ms = value >= 1e12 ? value : value * 1000;
  return plausibleEpoch(ms) ? ms : undefined;
}

function plausibleEpoch(ms: number): boolean {
  return Number.isFinite(ms) && ms >= MIN_EPOCH_MS && ms <= MAX_EPOCH_MS;
}
