/**
 * The end of a chain (R-FB-6, R-RA-2): whether to wait for the soonest recovery and try once more, and the
 * error to throw when not.
 */
import { FallbackSummaryError } from "../core/errors.js";
import { soonestCooldownExpiry } from "../core/explain.js";
import { formatSummaryMessage } from "../core/summary.js";
import type { UsageStats } from "../core/types.js";
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

/** R-RA-2: when every candidate is unusable and the soonest recovery is within the wait limit. */
export async function cooldownWaitUntil<T>(state: RunState<T>): Promise<number | undefined> {
  const maxWaitMs = state.deps.settings.modelFailover.waitForCooldownMaxSeconds * 1000;
  if (!(maxWaitMs > 0)) return undefined;
  const views = await chainViews(state);
  const everyCandidateUnusable = views.every((view) => !view.keyless && view.ordered.length > 0 && view.usable.length === 0);
  if (!everyCandidateUnusable) return undefined;
  const now = state.deps.clock.now();
  const soonest = soonestCooldownExpiry({ chain: state.chain, profiles: chainProfiles(views), now });
  return soonest !== undefined && soonest - now <= maxWaitMs ? soonest : undefined;
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
