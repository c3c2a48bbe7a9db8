/**
 * The `x-detour-*` headers of an answer that came from a run (SPEC R-GW-3, R-OB-1): which model and profile
 * answered, how many attempts it took, and the notice. A profile id is `provider:name`, never a secret.
 */
import { encodeNoticeHeader } from "../core/notices.js";
import type { RunOutcome } from "../engine/index.js";

/** A run outcome as the gateway's runner returns it: with the upstream calls counted from the run's events. */
export type GatewayRunOutcome<T> = RunOutcome<T> & {
  /** Upstream calls, key rotations inside a candidate included (AttemptLedger). */
  upstreamAttempts?: number;
};

/** Header values are ASCII: a profile name with other characters (an email, say) is percent-encoded. */
function headerSafe(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text : encodeURIComponent(text);
}

/** The attempts of an answered run, as `x-detour-attempts` and the access line both report them. */
export function attemptCount(outcome: GatewayRunOutcome<unknown>): number {
  const skipped = outcome.attempts.filter((attempt) => attempt.skipped).length;
  return outcome.upstreamAttempts !== undefined
    ? outcome.upstreamAttempts + skipped
    : // Without the run's events: every candidate that failed or was skipped, plus the one that answered.
      outcome.attempts.length + 1;
}

export function outcomeHeaders(outcome: GatewayRunOutcome<unknown>): Record<string, string> {
  return {
    "x-detour-model": `${outcome.provider}/${outcome.model}`,
    "x-detour-attempts": String(attemptCount(outcome)),
    ...(outcome.profileId !== undefined ? { "x-detour-profile": headerSafe(outcome.profileId) } : {}),
    ...(outcome.notice ? { "x-detour-notice": encodeNoticeHeader(outcome.notice) } : {}),
  };
}
