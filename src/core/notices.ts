/**
 * The two user-visible fallback notices (SPEC R-NT-1) and their header encoding (R-NT-2).
 *
 * Notices are operational one-liners, not assistant content. Every part is flattened to a single line
 * so a notice can never smuggle a line break into a header or a chat transcript.
 */
import { singleLine, truncateWithEllipsis } from "./single-line.js";
import { REASON_POLICY, isFailoverReason, type FailoverReason } from "./reasons.js";

export interface NoticeAttempt {
  reason?: FailoverReason;
  status?: number;
  error?: string;
}

export type NoticeInput =
  | { kind: "fallback"; selected: string; active: string; attempts: readonly NoticeAttempt[] }
  | { kind: "cleared"; selected: string; previous: string };

/** R-NT-1: the reason part is cut to this many characters, ellipsis included. */
export const NOTICE_REASON_MAX_CHARS = 80;

/**
 * Formats a notice. Deciding *whether* to emit one is the runner's job: once when a session moves onto
 * an auto fallback, once when it returns, never on sticky fallback turns (R-NT-1).
 */
export function formatNotice(notice: NoticeInput): string {
  const selected = singleLine(notice.selected);
  if (notice.kind === "cleared") {
    const previous = singleLine(notice.previous);
    // Without a distinct previous model there is nothing to say after "was".
    return previous && previous !== selected
      ? `↪️ Model Fallback cleared: ${selected} (was ${previous})`
      : `↪️ Model Fallback cleared: ${selected}`;
  }
  return `↪️ Model Fallback: ${singleLine(notice.active)} (selected ${selected}; ${fallbackReason(notice.attempts)})`;
}

/**
 * The reason part: what went wrong with the first attempt, plus how many more attempts failed.
 *
 * For a transient failure with a known HTTP status the status line is shown (`429 Too Many Requests`):
 * it is short, tells the user "this will pass", and never echoes provider text. Without a status, a
 * transient error text is shown when it carries timing words (`usage limit reached, try again in 3h`)
 * because that is the part worth reading. Everything else (auth, billing, …) shows only the reason
 * name — raw texts of permanent failures are noisy and may name accounts or keys.
 */
export function fallbackReason(attempts: readonly NoticeAttempt[]): string {
  const first = attempts[0];
  const text = first ? describeAttempt(first) : "selected model unavailable";
  const more = attempts.length > 1 ? ` (+${attempts.length - 1} more attempts)` : "";
  return `${truncateWithEllipsis(text, NOTICE_REASON_MAX_CHARS)}${more}`;
}

/**
 * The notice as an HTTP header value (R-NT-2 `x-detour-notice`): UTF-8 percent-encoded like
 * `encodeURIComponent`, so the value is pure ASCII without spaces or separators. Lone surrogates
 * (possible in text cut from upstream errors) become U+FFFD instead of throwing a URIError.
 */
export function encodeNoticeHeader(notice: string): string {
  return encodeURIComponent(notice.replace(LONE_SURROGATE, "\uFFFD"));
}

/** Inverse of {@link encodeNoticeHeader}, for clients and tests. */
export function decodeNoticeHeader(value: string): string {
  return decodeURIComponent(value);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Reason phrases of the statuses a transient failure usually carries. */
const STATUS_PHRASES: Readonly<Record<number, string>> = {
  408: "Request Timeout",
  425: "Too Early",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** Words that make a transient error text worth showing: when it ends, or what limit was hit. */
const TIMING_HINT =
  /\b(?:too many requests|usage limit|quota|rate limit|try again|retry[- ]after|resets?|seconds?|minutes?|hours?|temporarily|overloaded|unavailable|throttl\w*)\b/i;

function describeAttempt(attempt: NoticeAttempt): string {
  const reason = isFailoverReason(attempt.reason) ? attempt.reason : undefined;
  const reasonWords = reason?.replace(/_/g, " ");
  const status = validStatus(attempt.status);
  const error = singleLine(attempt.error ?? "");

  if (reason && REASON_POLICY[reason].transient) {
    if (status !== undefined) return `${status} ${STATUS_PHRASES[status] ?? reasonWords}`;
    if (error && TIMING_HINT.test(error) && !/unknown error/i.test(error)) return error;
  }
  if (reasonWords) return reasonWords;
  if (status !== undefined) return `HTTP ${status}`;
  return error || "unknown error";
}

function validStatus(status: number | undefined): number | undefined {
  return status !== undefined && Number.isInteger(status) && status >= 100 && status <= 599 ? status : undefined;
}
