/**
 * R-FB-3 / R-FB-4 at run time: whether a candidate whose profiles are all unusable is skipped or probed,
 * with the primary's probe claiming the (agent, provider) throttle.
 */
import { decideCandidateAvailability } from "../core/availability.js";
import { FailoverError } from "../core/errors.js";
import type { FailoverReason } from "../core/reasons.js";
import type { ModelRef, UsageStats } from "../core/types.js";
import type { ProviderView } from "./provider-view.js";
import type { Failure, RunState } from "./run-state.js";

export async function decideAvailability<T>(
  state: RunState<T>,
  view: ProviderView,
  isPrimary: boolean,
  now: number,
): Promise<ReturnType<typeof decideCandidateAvailability>> {
  const { deps } = state;
  if (view.keyless || view.ordered.length === 0 || view.usable.length > 0) return { action: "attempt" };
  const decision = decideCandidateAvailability({
    provider: view.provider,
    model: view.model,
    isPrimary,
    now,
    profiles: profilesWithStats(view),
    probeThrottleOpen: await deps.probeThrottle.isOpen(view.provider, now),
    transientProbeUsedThisRun: state.slots.isUsed(view.provider),
  });
  // R-FB-4: the primary's probe takes the (agent, provider) throttle; losing the race to another run = skip.
  if (decision.action === "probe" && isPrimary && !(await deps.probeThrottle.claim(view.provider, now))) {
    return { action: "skip", reason: decision.reason, message: `Provider ${view.provider} is in cooldown` };
  }
  return decision;
}

export function profilesWithStats(view: ProviderView): { id: string; stats?: UsageStats }[] {
  return view.ordered.map((id) => ({ id, stats: view.stats[id] }));
}

/** A skipped candidate: its record, and the error surfaced when it is the run's only attempt. */
export function skipped(ref: ModelRef, reason: FailoverReason, message: string, until?: number): Failure {
  return {
    record: { provider: ref.provider, model: ref.model, reason, error: message, skipped: true },
    error: new FailoverError(message, {
      reason,
      provider: ref.provider,
      model: ref.model,
      resetAt: until,
      allInCooldown: true,
    }),
  };
}
