/** One line per attempt for `--verbose` and failures: what was tried, with which profile, and why it failed. */
import type { AttemptRecord } from "../../core/errors.js";

export function attemptLine(attempt: AttemptRecord): string {
  const profile = attempt.profileId ? ` [${attempt.profileId}]` : "";
  const status = attempt.status !== undefined ? ` ${attempt.status}` : "";
  const reason = attempt.reason ?? "error";
  const verb = attempt.skipped ? "skipped" : "failed";
  return `  ${verb} ${attempt.provider}/${attempt.model}${profile}: ${reason}${status} — ${attempt.error}`;
}
