/**
 * Whether a candidate of the chain runs at all, decided before any upstream call: the session skip cache
 * (R-FB-2), the pre-call fit (R-FB-8) and availability when every profile is unusable (R-FB-3).
 */
import type { CandidateAvailability } from "../core/availability.js";
import { formatModelRef } from "../core/candidate-chain.js";
import { FailoverError } from "../core/errors.js";
import { explainUnavailable } from "../core/explain.js";
import { checkRequestFit, fitSkipMessage } from "../core/fit.js";
import type { FailoverReason } from "../core/reasons.js";
import type { ModelRef } from "../core/types.js";
import { decideAvailability, profilesWithStats, skipped } from "./availability-gate.js";
import { loadProviderView, type ProviderView } from "./provider-view.js";
import type { Failure, RunState } from "./run-state.js";
import { skipCacheMessage } from "./skip-cache.js";

export type CandidateGate =
  | {
      kind: "skip";
      failure: Failure;
      reason: FailoverReason;
      message: string;
      /** Skipped because every profile of the provider is unusable (R-FB-3), the case R-FB-9 reconsiders. */
      unavailable: boolean;
    }
  | { kind: "run"; view: ProviderView; availability: Exclude<CandidateAvailability, { action: "skip" }> };

function skip(failure: Failure, index: number, unavailable = false): CandidateGate {
  const { reason, error } = failure.record;
  return { kind: "skip", failure: { ...failure, index }, reason: reason ?? "unclassified", message: error, unavailable };
}

export async function gateCandidate<T>(state: RunState<T>, index: number, now: number): Promise<CandidateGate> {
  const { deps, input } = state;
  const ref = state.chain[index] as ModelRef;
  const isPrimary = index === 0;

  // R-FB-2: skip cache (never the primary).
  const skipReason = isPrimary ? undefined : deps.skipCache.liveReason(input.sessionKey, ref, now);
  if (skipReason !== undefined) return skip(skipped(ref, skipReason, skipCacheMessage(ref, skipReason)), index);

  const misfit = fitFailure(state, ref);
  if (misfit) return skip(misfit, index);

  // R-FB-3: availability when every profile is unusable for this model.
  const view = await loadProviderView(deps, ref, now);
  const availability = await decideAvailability(state, view, isPrimary, now);
  if (availability.action !== "skip") return { kind: "run", view, availability };
  const explained = explainUnavailable(profilesWithStats(view), ref.model, now);
  const reason = availability.reason ?? explained.reason;
  deps.events.emit({
    type: "no_available_profile",
    runId: input.runId,
    agentId: deps.agentId,
    provider: ref.provider,
    model: ref.model,
    reason,
    until: explained.until ?? null,
  });
  return skip(skipped(ref, reason, availability.message, explained.until), index, true);
}

/** R-FB-8: a candidate that cannot take the request is skipped without an upstream call. */
function fitFailure<T>(state: RunState<T>, ref: ModelRef): Failure | undefined {
  const request = state.input.request;
  if (!request) return undefined;
  // Deferred facts are computed here, once per run, only for a candidate their bound cannot settle.
  const decision = checkRequestFit(request, state.deps.settings.modelFacts(ref));
  if (decision.fits) return undefined;
  const message = fitSkipMessage(formatModelRef(ref), decision);
  return {
    record: { provider: ref.provider, model: ref.model, reason: decision.reason, error: message, skipped: true },
    error: new FailoverError(message, { reason: decision.reason, provider: ref.provider, model: ref.model }),
  };
}

/** R-FB-9: the last-resort candidate runs whatever the ladder says, as a probe of its cooled-down profiles. */
export async function lastResortGate<T>(state: RunState<T>, index: number, now: number): Promise<CandidateGate> {
  const ref = state.chain[index] as ModelRef;
  const view = await loadProviderView(state.deps, ref, now);
  const { reason } = explainUnavailable(profilesWithStats(view), ref.model, now);
  return { kind: "run", view, availability: { action: "probe", reason, transient: false } };
}
