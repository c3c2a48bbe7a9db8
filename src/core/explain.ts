/**
 * Explaining unavailability: the one reason that best says why no profile of a provider can run
 * (SPEC R-RN-5), and the soonest moment anything in a chain recovers (R-FB-6).
 */
import { activeWindows, unusableUntil } from "./cooldown.js";
import { FAILOVER_REASONS, REASON_POLICY, type FailoverReason } from "./reasons.js";
import type { ModelRef, UsageStats } from "./types.js";

/** An active disable outweighs any realistic number of counted cooldown failures (R-RN-5). */
export const DISABLE_WEIGHT = 1000;

/** Higher explainRank wins a tie; FAILOVER_REASONS order keeps unranked ties deterministic. */
function outranks(a: FailoverReason, b: FailoverReason): boolean {
  const rankA = REASON_POLICY[a].explainRank;
  const rankB = REASON_POLICY[b].explainRank;
  if (rankA !== rankB) return rankA > rankB;
  return FAILOVER_REASONS.indexOf(a) < FAILOVER_REASONS.indexOf(b);
}

function addWeight(weights: Map<FailoverReason, number>, reason: FailoverReason, weight: number): void {
  weights.set(reason, (weights.get(reason) ?? 0) + weight);
}

/**
 * R-RN-5. Each profile with an active disable adds 1000 to its disable reason. Otherwise each distinct
 * reason of its active cooldown/block windows adds that reason's failure count (at least 1). Counts of
 * reasons whose windows already ended do not vote: with counters kept across expiry (R-PO-4), an old
 * billing count would otherwise outvote the rate limit that actually blocks the profile now.
 * `until` is the soonest moment any profile becomes usable for `model`.
 */
export function explainUnavailable(
  profiles: readonly { id: string; stats?: UsageStats }[],
  model: string | undefined,
  now: number,
): { reason: FailoverReason; until?: number } {
  const weights = new Map<FailoverReason, number>();
  let until: number | undefined;
  for (const { stats } of profiles) {
    const windows = activeWindows(stats, model, now);
    if (windows.length === 0) continue;
    const profileUntil = unusableUntil(stats, model, now);
    if (profileUntil !== undefined && (until === undefined || profileUntil < until)) until = profileUntil;

    const disable = windows.find((window) => window.kind === "disabled");
    if (disable) {
      addWeight(weights, disable.reason, DISABLE_WEIGHT);
      continue;
    }
    for (const reason of new Set(windows.map((window) => window.reason))) {
      addWeight(weights, reason, Math.max(1, stats?.failureCounts?.[reason] ?? 0));
    }
  }

  let best: FailoverReason | undefined;
  for (const [reason, weight] of weights) {
    const bestWeight = best === undefined ? -1 : (weights.get(best) ?? 0);
    if (best === undefined || weight > bestWeight || (weight === bestWeight && outranks(reason, best))) best = reason;
  }
  // Only reachable when every profile is usable; callers ask only when none is, so "unknown" fits.
  const reason = best ?? "unclassified";
  return until === undefined ? { reason } : { reason, until };
}

/** The moment the candidate's provider can serve its model again, per R-FB-6's model-aware rule. */
function candidateRecovery(
  candidate: ModelRef,
  profiles: readonly { id: string; provider: string; stats?: UsageStats }[],
  now: number,
): number | undefined {
  let soonest: number | undefined;
  let latestModelRateLimit: number | undefined;
  for (const profile of profiles) {
    if (profile.provider !== candidate.provider) continue;
    const windows = activeWindows(profile.stats, candidate.model, now);
    if (windows.length === 0) continue;
    const until = Math.max(...windows.map((window) => window.until));
    // A rate limit scoped to this very model is usually the model's limit, shared by every profile: the
    // profile that recovers first does not mean the model does, so the latest such expiry is the honest one.
    const modelRateLimitOnly = windows.every((window) => window.reason === "rate_limit" && window.model === candidate.model);
    if (modelRateLimitOnly) {
      latestModelRateLimit = latestModelRateLimit === undefined ? until : Math.max(latestModelRateLimit, until);
    } else if (soonest === undefined || until < soonest) {
      soonest = until;
    }
  }
  if (soonest === undefined) return latestModelRateLimit;
  return latestModelRateLimit === undefined ? soonest : Math.min(soonest, latestModelRateLimit);
}

/**
 * R-FB-6: the soonest moment a candidate of the chain recovers. Windows scoped to models outside the chain
 * never count, because `activeWindows` only returns windows covering the candidate's own model.
 */
export function soonestCooldownExpiry(input: {
  chain: readonly ModelRef[];
  profiles: readonly { id: string; provider: string; stats?: UsageStats }[];
  now: number;
}): number | undefined {
  let soonest: number | undefined;
  for (const candidate of input.chain) {
    const recovery = candidateRecovery(candidate, input.profiles, input.now);
    if (recovery !== undefined && (soonest === undefined || recovery < soonest)) soonest = recovery;
  }
  return soonest;
}
