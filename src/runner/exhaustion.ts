/**
 * The end of a chain (R-FB-6, R-RA-2): whether to wait for the soonest recovery (or stated reset) and try
 * once more, and the error to throw when not.
 */
import { FallbackSummaryError } from "../core/errors.js";
import { statedResetOpening } from "../core/availability.js";
import { soonestCooldownExpiry } from "../core/explain.js";
import { formatSummaryMessage } from "../core/summary.js";
import type { UsageStats } from "../core/types.js";
import { profilesWithStats } from "./availability-gate.js";
import { loadProviderView, type ProviderView } from "./provider-view.js";
import type { Failure, RunState } from "./run-state.js";

/** Profiles of every provider in the chain with fresh stats, for the soonest-expiry math (R-FB-6, R-RA-2). */
async function chainViews<T>(state: RunState<T>): Promise<ProviderView[]> {
  const now = state.deps.clock.now();
  return Promise.all(state.chain.map((ref) => loadProviderView(state.deps, ref, now)));
}

function chainProfiles(views: readonly ProviderView[]): { id: string; provider: string; stats?: UsageStats }[] {
  const seen = new Set<string>();
  const profiles: { id: string; provider: string; stats?: UsageStats }[] = [];
  for (const view of views) {
    for (const id of view.ordered) {
      if (seen.has(id)) continue;
      seen.add(id);
      profiles.push({ id, provider: view.provider, stats: view.stats[id] });
    }
  }
  return profiles;
}

export interface CooldownWait {
  /** The moment waited for: a candidate's recovery, or the end of its stated block (R-RA-2 with R-FB-9). */
  until: number;
  /** The candidate that opens then. */
  index: number;
}

/**
 * R-RA-2: when every candidate is unusable and one opens within the wait limit, the soonest such moment.
 * A candidate opens when its windows end — or, kept out only by transient windows, when its provider-stated
 * block runs out: what is left then are ladder guesses, which the last-resort attempt covers (R-FB-9). So a
 * provider's "1 s" is waited for even after trust-once lengthened it to a ladder step (R-CD-6).
 */
export async function cooldownWait<T>(state: RunState<T>): Promise<CooldownWait | undefined> {
  const maxWaitMs = state.deps.settings.modelFailover.waitForCooldownMaxSeconds * 1000;
  if (!(maxWaitMs > 0)) return undefined;
  const views = await chainViews(state);
  const everyCandidateUnusable = views.every((view) => !view.keyless && view.ordered.length > 0 && view.usable.length === 0);
  if (!everyCandidateUnusable) return undefined;
  const now = state.deps.clock.now();
  const profiles = chainProfiles(views);
  let soonest: CooldownWait | undefined;
  state.chain.forEach((ref, index) => {
    // R-TT-2: a cooldown of a provider this run could not reach is not worth waiting for.
    if (state.unreachable.has(ref.provider)) return;
    const view = views[index] as ProviderView;
    const recovery = soonestCooldownExpiry({ chain: [ref], profiles, now });
    const opening = statedResetOpening(profilesWithStats(view), ref.model, now);
    const until = Math.min(recovery ?? Infinity, opening ?? Infinity);
    if (Number.isFinite(until) && (soonest === undefined || until < soonest.until)) soonest = { until, index };
  });
  return soonest !== undefined && soonest.until - now <= maxWaitMs ? soonest : undefined;
}

/**
 * The soonest recovery of the chain that a single-attempt run rethrew its original error at (R-FB-6). The
 * error itself is rethrown unchanged, so the moment travels beside it: a gateway still needs it for the
 * `Retry-After` of its 429/503 (R-RA-2) when the provider stated no reset of its own.
 */
const soonestRecoveryByError = new WeakMap<object, number>();

export function soonestRecoveryOf(error: unknown): number | undefined {
  return typeof error === "object" && error !== null ? soonestRecoveryByError.get(error) : undefined;
}

/** R-FB-6: one attempt rethrows its own error; more become a FallbackSummaryError. */
export async function exhaustionError<T>(state: RunState<T>, failures: readonly Failure[]): Promise<unknown> {
  const views = await chainViews(state);
  const soonest = soonestCooldownExpiry({
    chain: state.chain,
    profiles: chainProfiles(views),
    now: state.deps.clock.now(),
  });
  const only = failures.length === 1 ? failures[0] : undefined;
  if (only) {
    if (soonest !== undefined && typeof only.error === "object" && only.error !== null) {
      soonestRecoveryByError.set(only.error, soonest);
    }
    return only.error;
  }
  const attempts = failures.map((failure) => failure.record);
  return new FallbackSummaryError(formatSummaryMessage(attempts), {
    attempts,
    soonestCooldownExpiry: soonest,
    cause: failures.at(-1)?.error,
  });
}
