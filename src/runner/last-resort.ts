/**
 * R-FB-9, never less available than the provider itself: a pass that called nobody because every candidate
 * it could have run was kept out by ladder cooldowns — Detour's own guesses — runs the candidate whose
 * window ends soonest once anyway, instead of refusing without a single upstream call.
 */
import { ladderCooldownRecovery, pickLastResort } from "../core/availability.js";
import { REASON_POLICY } from "../core/reasons.js";
import type { ModelRef } from "../core/types.js";
import { profilesWithStats } from "./availability-gate.js";
import { loadProviderView } from "./provider-view.js";
import type { PassResult, RunState } from "./run-state.js";

export async function lastResortCandidate<T>(
  state: RunState<T>,
  pass: Extract<PassResult<T>, { kind: "exhausted" }>,
): Promise<number | undefined> {
  if (pass.called) return undefined;
  // Skips explained by a disable or an auth issue (R-FB-3) are facts, not guesses: never overridden.
  const guessed = pass.cooldownSkips.filter((index) => {
    const reason = pass.failures.find((failure) => failure.index === index)?.record.reason;
    return reason !== undefined && REASON_POLICY[reason].transient;
  });
  const now = state.deps.clock.now();
  const candidates = await Promise.all(
    guessed.map(async (index) => {
      const ref = state.chain[index] as ModelRef;
      const view = await loadProviderView(state.deps, ref, now);
      return { index, recovery: ladderCooldownRecovery(profilesWithStats(view), ref.model, now) };
    }),
  );
  return pickLastResort(candidates);
}
