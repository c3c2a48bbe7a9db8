/**
 * The message of `FallbackSummaryError` (SPEC R-FB-6):
 * `All models failed (N): <p/m: error (reason)> | …`
 */
import type { AttemptRecord } from "./errors.js";
import { singleLine, truncateWithEllipsis } from "./single-line.js";

/** One attempt's error text is cut to this many characters so N attempts stay one readable line. */
export const SUMMARY_ERROR_MAX_CHARS = 300;

export function formatSummaryMessage(attempts: readonly AttemptRecord[]): string {
  if (attempts.length === 0) return "All models failed (0): no model could be attempted";
  return `All models failed (${attempts.length}): ${attempts.map(describeAttempt).join(" | ")}`;
}

function describeAttempt(attempt: AttemptRecord): string {
  const error = truncateWithEllipsis(singleLine(attempt.error), SUMMARY_ERROR_MAX_CHARS) || fallbackText(attempt);
  const reason = attempt.reason ? ` (${attempt.reason})` : "";
  return `${attempt.provider}/${attempt.model}: ${error}${reason}`;
}

/** An attempt recorded without a text still says something a person can act on. */
function fallbackText(attempt: AttemptRecord): string {
  return attempt.status !== undefined ? `HTTP ${attempt.status}` : "failed without an error message";
}
