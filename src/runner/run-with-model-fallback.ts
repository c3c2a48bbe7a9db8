/**
 * The fallback runner (SPEC §8): walks the candidate chain of a selection — skip cache, availability,
 * persisted override, auth-profile runner — and returns the first answer with its notice, or fails with the
 * original error (one attempt) or a `FallbackSummaryError`.
 */
import { formatModelRef, sameModelRef } from "../core/candidate-chain.js";
import { explainUnavailable } from "../core/explain.js";
import { REASON_POLICY } from "../core/reasons.js";
import type { ModelRef, SessionEntry } from "../core/types.js";
import type { RunOutcome } from "./attempt.js";
import { decideAvailability, profilesWithStats, skipped } from "./availability-gate.js";
import { DecisionLog } from "./decision-log.js";
import { cooldownWaitUntil, exhaustionError } from "./exhaustion.js";
import { RunProbeSlots } from "./probes.js";
import { loadProviderView } from "./provider-view.js";
import { RunGuard } from "./run-guard.js";
import { settleSuccess } from "./run-settlement.js";
import { sessionBase, type Failure, type ModelFallbackRunInput, type PassResult, type RunState } from "./run-state.js";
import { runWithAuthProfiles } from "./run-with-auth-profiles.js";
import type { RunnerDeps } from "./runner-deps.js";
import {
  OverrideTransaction,
  autoFallbackOrigin,
  claimOriginProbe,
  clearAutoOverrides,
  consumePendingLiveSwitch,
  emitSessionOverride,
  fallbackOverrideValues,
} from "./session-overrides.js";
import { skipCacheMessage } from "./skip-cache.js";

export type { ModelFallbackRunInput } from "./run-state.js";

export async function runWithModelFallback<T>(deps: RunnerDeps, input: ModelFallbackRunInput<T>): Promise<RunOutcome<T>> {
  const guard = new RunGuard({ clock: deps.clock, signal: input.signal, runTimeoutMs: deps.settings.runTimeoutMs });
  const startedAt = deps.clock.now();
  const sessionKey = input.sessionKey;
  let state: RunState<T> | undefined;
  let finished: RunOutcome<T> | undefined;
  try {
    guard.throwIfStopped();
    state = await prepareRun(deps, input, guard);
    deps.events.emit({
      type: "run_started",
      runId: input.runId,
      agentId: deps.agentId,
      sessionId: sessionKey ?? null,
      requestedModel: formatModelRef(input.selection.requested),
      chain: state.chain.map(formatModelRef),
      selectionSource: input.selection.source,
    });
    finished = await walkChain(state);
    return finished;
  } finally {
    guard.dispose();
    deps.events.emit({
      type: "run_finished",
      runId: input.runId,
      agentId: deps.agentId,
      sessionId: sessionKey ?? null,
      outcome: finished ? "succeeded" : guard.callerAborted ? "aborted" : "failed",
      provider: finished?.provider ?? null,
      model: finished?.model ?? null,
      profileId: finished?.profileId ?? null,
      failedCandidates: state?.log.failedCandidates ?? 0,
      durationMs: deps.clock.now() - startedAt,
    });
  }
}

async function prepareRun<T>(deps: RunnerDeps, input: ModelFallbackRunInput<T>, guard: RunGuard): Promise<RunState<T>> {
  const { selection, sessionKey } = input;
  const persist = sessionKey !== undefined && input.persistSession !== false;
  let session = sessionKey !== undefined ? await deps.store.getSession(sessionKey) : undefined;
  if (sessionKey !== undefined && session) {
    // Only a run that uses the session's own selection reconciles the user's pending switch (R-SO-4).
    if (persist) await consumePendingLiveSwitch(deps.store, sessionKey, session);
    if (selection.clearAutoOverrideBeforeRun) {
      const cleared = await clearAutoOverrides(deps.store, sessionKey, session);
      emitSessionOverride(deps.events, sessionBase(deps, input), "fallback_cleared", cleared);
    }
    session = await deps.store.getSession(sessionKey);
  }

  let chain: readonly ModelRef[] = selection.chain;
  let originProbe = false;
  const origin = selection.source === "auto_fallback_override" ? autoFallbackOrigin(session) : undefined;
  const head = chain[0];
  if (origin && persist && session && sessionKey !== undefined && head && !sameModelRef(origin, head)) {
    if (await claimOriginProbe(deps.store, sessionKey, session, deps.clock.now())) {
      chain = [origin, ...chain.filter((ref) => !sameModelRef(ref, origin))];
      originProbe = true;
    }
  }

  return {
    deps,
    input,
    guard,
    chain,
    selected: origin ?? selection.requested,
    originProbe,
    sessionAtStart: session,
    persist,
    log: new DecisionLog(deps.events, {
      runId: input.runId,
      agentId: deps.agentId,
      sessionKey,
      requested: selection.requested,
      chain,
    }),
    slots: new RunProbeSlots(),
    timeoutRetries: new Map(),
  };
}

async function walkChain<T>(state: RunState<T>): Promise<RunOutcome<T>> {
  const { deps, guard } = state;
  const earlier: Failure[] = [];
  let waited = false;
  for (;;) {
    const pass = await walkOnce(state);
    if (pass.kind === "succeeded") return settleSuccess(state, pass, [...earlier, ...pass.failures]);

    // R-RA-2: everything is cooling down and the soonest recovery is close: wait once instead of failing.
    if (!waited) {
      const waitUntil = await cooldownWaitUntil(state);
      if (waitUntil !== undefined) {
        waited = true;
        earlier.push(...pass.failures);
        const waitMs = Math.max(0, waitUntil - deps.clock.now());
        deps.events.emit({ type: "cooldown_wait", runId: state.input.runId, agentId: deps.agentId, waitMs, until: waitUntil });
        await guard.sleep(waitMs);
        continue;
      }
    }
    throw await exhaustionError(state, pass.failures);
  }
}

async function walkOnce<T>(state: RunState<T>): Promise<PassResult<T>> {
  const { deps, input, chain, log } = state;
  const failures: Failure[] = [];
  let liveSwitchTarget: number | undefined;

  for (let index = 0; index < chain.length; index += 1) {
    const ref = chain[index] as ModelRef;
    const next = chain[index + 1];
    const isPrimary = index === 0;
    const stepOutcome = next ? "next_fallback" : "chain_exhausted";
    state.guard.throwIfStopped();
    const now = deps.clock.now();

    // R-FB-2: skip cache (never the primary).
    const skipReason = isPrimary ? undefined : deps.skipCache.liveReason(input.sessionKey, ref, now);
    if (skipReason !== undefined) {
      const message = skipCacheMessage(ref, skipReason);
      failures.push(skipped(ref, skipReason, message));
      log.record({ decision: "skip_candidate", index, reason: skipReason, error: message, next, outcome: stepOutcome });
      continue;
    }

    // R-FB-3: availability when every profile is unusable for this model.
    const view = await loadProviderView(deps, ref, now);
    const availability = await decideAvailability(state, view, isPrimary, now);
    if (availability.action === "skip") {
      const { reason, until } = explainUnavailable(profilesWithStats(view), ref.model, now);
      deps.events.emit({
        type: "no_available_profile",
        runId: input.runId,
        agentId: deps.agentId,
        provider: ref.provider,
        model: ref.model,
        reason: availability.reason ?? reason,
        until: until ?? null,
      });
      failures.push(skipped(ref, availability.reason ?? reason, availability.message, until));
      log.record({
        decision: "skip_candidate",
        index,
        reason: availability.reason ?? reason,
        error: availability.message,
        next,
        outcome: stepOutcome,
      });
      continue;
    }
    const probe = availability.action === "probe";
    if (availability.action === "probe") {
      log.record({ decision: "probe_cooldown_candidate", index, reason: availability.reason, next });
    }

    // R-SO-2: persist the fallback override before the candidate runs.
    const isOriginProbe = state.originProbe && isPrimary;
    const isRequested = sameModelRef(ref, input.selection.requested);
    const transaction =
      state.persist && input.sessionKey !== undefined ? new OverrideTransaction(deps.store, input.sessionKey) : undefined;
    let session = input.sessionKey !== undefined ? await deps.store.getSession(input.sessionKey) : undefined;
    // A user who changed the session's model while this run was in flight wins: nothing is persisted over it.
    if (transaction && !isRequested && !isOriginProbe && !modelOverrideChanged(state.sessionAtStart, session)) {
      const pin = session?.authProfileOverride;
      const result = await transaction.write(
        session,
        fallbackOverrideValues({
          entry: session,
          candidate: ref,
          requested: input.selection.requested,
          pinBelongsToCandidate: pin !== undefined && view.profileProviders[pin] === ref.provider,
          now,
        }),
      );
      emitSessionOverride(deps.events, sessionBase(deps, input), "fallback_persisted", result);
      session = result.entry;
    }

    let outcome;
    try {
      outcome = await runWithAuthProfiles(deps, {
        runId: input.runId,
        candidate: ref,
        candidateIndex: index,
        view,
        sessionKey: input.sessionKey,
        session,
        transaction,
        hasFallback: next !== undefined,
        probe,
        attempt: input.attempt,
        attemptTimeoutMs: input.attemptTimeoutMs,
        guard: state.guard,
        timeoutRetries: state.timeoutRetries,
      });
    } catch (error) {
      // A caller abort or the run deadline: nothing of this candidate stays in the session.
      await transaction?.rollback();
      throw error;
    }

    if (outcome.kind === "succeeded") {
      log.record({ decision: "candidate_succeeded", index, profileId: outcome.profileId, outcome: "succeeded" });
      return {
        kind: "succeeded",
        result: outcome.result,
        index,
        profileId: outcome.profileId,
        failures,
        viaLiveSwitch: liveSwitchTarget === index,
      };
    }

    const rolledBack = await transaction?.rollback();
    emitSessionOverride(deps.events, sessionBase(deps, input), "fallback_rolled_back", rolledBack);

    if (outcome.kind === "live_switch") {
      // R-FB-7: jump straight to the switch target when it is a later candidate; never an outer retry loop.
      const target = outcome.error;
      const jump = chain.findIndex((candidate, position) => position > index && sameModelRef(candidate, target));
      const message = outcome.error.message;
      if (jump !== -1) {
        log.record({ decision: "candidate_failed", index, profileId: outcome.profileId, error: message, next: chain[jump], outcome: "next_fallback" });
        liveSwitchTarget = jump;
        index = jump - 1;
        continue;
      }
      failures.push({ record: { provider: ref.provider, model: ref.model, profileId: outcome.profileId, error: message }, error: outcome.error });
      log.record({ decision: "candidate_failed", index, profileId: outcome.profileId, error: message, next, outcome: stepOutcome });
      continue;
    }

    const { classification } = outcome;
    const policy = REASON_POLICY[classification.reason];
    failures.push({
      record: {
        provider: ref.provider,
        model: ref.model,
        profileId: outcome.profileId,
        reason: classification.reason,
        status: classification.status,
        code: classification.code,
        error: classification.preview,
      },
      error: outcome.error,
    });
    if (!isPrimary && policy.marksSessionSkipCache) deps.skipCache.mark(input.sessionKey, ref, classification.reason, now);
    if (probe && availability.action === "probe" && availability.transient && !isPrimary && !policy.keepsProbeSlot) {
      state.slots.use(ref.provider);
    }
    const failed = {
      decision: "candidate_failed" as const,
      index,
      profileId: outcome.profileId,
      reason: classification.reason,
      status: classification.status,
      code: classification.code,
      error: classification.preview,
    };

    if (policy.stopRun) {
      // R-FB-5: context overflow may only move on to a candidate with a larger declared window.
      const larger = policy.advanceToLargerContextWindow ? largerContextWindowIndex(state, index) : -1;
      if (larger !== -1) {
        log.record({ ...failed, next: chain[larger], outcome: "next_fallback" });
        index = larger - 1;
        continue;
      }
      log.record({ ...failed, outcome: "chain_exhausted" });
      throw outcome.error;
    }
    log.record({ ...failed, next, outcome: stepOutcome });
  }
  return { kind: "exhausted", failures };
}

function modelOverrideChanged(before: SessionEntry | undefined, now: SessionEntry | undefined): boolean {
  return (
    before?.providerOverride !== now?.providerOverride ||
    before?.modelOverride !== now?.modelOverride ||
    before?.modelOverrideSource !== now?.modelOverrideSource
  );
}

function largerContextWindowIndex<T>(state: RunState<T>, failedIndex: number): number {
  const failing = state.chain[failedIndex];
  const failingWindow = failing ? state.deps.settings.contextWindow(failing) : undefined;
  if (failingWindow === undefined) return -1;
  return state.chain.findIndex((ref, position) => {
    if (position <= failedIndex) return false;
    const window = state.deps.settings.contextWindow(ref);
    return window !== undefined && window > failingWindow;
  });
}
