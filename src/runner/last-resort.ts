/**
 * R-FB-9, never less available than the provider itself: a pass that called nobody because every candidate
 * it could have run was kept out by ladder cooldowns — Detour's own guesses — runs the candidate whose
 * window ends soonest once anyway, instead of refusing without a single upstream call. After the run waited
 * for a candidate's stated reset (R-RA-2), that candidate is the one attempted.
 */
import { keptOutOnlyByTransientWindows, ladderCooldownRecovery, pickLastResort } from "../core/availability.js";
import { REASON_POLICY } from "../core/reasons.js";
import type { ModelRef } from "../core/types.js";
import { profilesWithStats } from "./availability-gate.js";
import { loadProviderView } from "./provider-view.js";
import type { PassResult, RunState } from "./run-state.js";

export async function lastResortCandidate<T>(
  state: RunState<T>,
  pass: Extract<PassResult<T>, { kind: "exhausted" }>,
  /** The candidate whose stated reset (or recovery) the run just waited for (R-RA-2). */
  waitedFor?: number,
): Promise<number | undefined> {
  if (pass.called) return undefined;
  if (waitedFor !== undefined && (await stillOnlyTransient(state, pass, waitedFor))) return waitedFor;
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

/**
 * The candidate waited for is still kept out only by transient windows — ladder guesses, or a stated block a
 * concurrent run renewed while this one waited: the provider's time this run saw has passed, so it is tried.
 * A disable or an auth failure recorded meanwhile is a fact, and is not overridden.
 */
async function stillOnlyTransient<T>(
  state: RunState<T>,
  pass: Extract<PassResult<T>, { kind: "exhausted" }>,
  index: number,
): Promise<boolean> {
  if (!pass.cooldownSkips.includes(index)) return false;
  const ref = state.chain[index] as ModelRef;
  const now = state.deps.clock.now();
  const view = await loadProviderView(state.deps, ref, now);
  return keptOutOnlyByTransientWindows(profilesWithStats(view), ref.model, now);
}
