/**
 * The fallback runner (SPEC §8): walks the candidate chain of a selection (chain-walk.ts) — skip cache, fit,
 * availability, persisted override, auth-profile runner — and returns the first answer with its notice; when
 * nobody could be called it makes the last-resort attempt (R-FB-9) or waits for a close recovery or stated
 * reset (R-RA-2);
 * otherwise it fails with the original error (one attempt) or a `FallbackSummaryError`.
 */
import { formatModelRef, sameModelRef } from "../core/candidate-chain.js";
import type { ModelRef } from "../core/types.js";
import type { RunOutcome } from "./attempt.js";
import { walkOnce } from "./chain-walk.js";
import { DecisionLog } from "./decision-log.js";
import { HedgeRace } from "./hedge-race.js";
import { cooldownWait, exhaustionError } from "./exhaustion.js";
import { lastResortCandidate } from "./last-resort.js";
import { RunProbeSlots } from "./probes.js";
import { RunGuard } from "./run-guard.js";
import { statedWaitJitterMs } from "./retry-decisions.js";
import { settleSuccess } from "./run-settlement.js";
import { waitForSeat, type SeatLine } from "./seat-wait.js";
import { sessionBase, type Failure, type ModelFallbackRunInput, type RunState } from "./run-state.js";
import type { RunnerDeps } from "./runner-deps.js";
import {
  autoFallbackOrigin,
  claimOriginProbe,
  clearAutoOverrides,
  consumePendingLiveSwitch,
  emitSessionOverride,
} from "./session-overrides.js";

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
      ...(input.traceFacts?.dialect !== undefined ? { dialect: input.traceFacts.dialect } : {}),
      ...(input.traceFacts?.stream !== undefined ? { stream: input.traceFacts.stream } : {}),
      // Run traces keep the estimate when the caller's facts hold it already; deferred facts are not parsed for it.
      ...(input.request !== undefined && "inputTokens" in input.request && typeof input.request.inputTokens === "number"
        ? { estimatedInputTokens: input.request.inputTokens }
        : {}),
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
      // R-GW-11: a refusal that arrived as an answer is returned, but it is no success.
      outcome: finished ? (finished.refused ? "content_filter" : "succeeded") : guard.callerAborted ? "aborted" : "failed",
      provider: finished?.provider ?? null,
      model: finished?.model ?? null,
      profileId: finished?.profileId ?? null,
      failedCandidates: state?.log.failedCandidates ?? 0,
      durationMs: deps.clock.now() - startedAt,
      ...(state && state.stream.continuationsAttempted > 0 ? { continuations: state.stream.continuationsAttempted } : {}),
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

  // R-HG-1: only attempts that report their progress can be raced (one that does not would look silent).
  const race = deps.hedging && input.reportsProgress ? new HedgeRace() : undefined;
  return {
    deps,
    input,
    guard,
    ...(race ? { race, lane: race.root } : {}),
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
    shortWaited: new Set(),
    unreachable: new Set(),
    stream: { continuations: 0, continuationsAttempted: 0, ...(input.continuations ? { policy: input.continuations } : {}) },
  };
}

/**
 * Passes over the chain until one answers. A pass that called nobody is followed by the last-resort attempt
 * (R-FB-9). When every candidate is unusable and one opens soon, the run waits for it and tries again
 * (R-RA-2): once before its first upstream call (a provider's stated "not before" seen on arrival) and once
 * after it, each wait jittered and only when it ends before the run's deadline.
 */
async function walkChain<T>(state: RunState<T>): Promise<RunOutcome<T>> {
  const { deps, guard } = state;
  const earlier: Failure[] = [];
  const waited = { beforeCall: false, afterCall: false };
  let called = false;
  let waitedFor: number | undefined;
  const line: SeatLine = {};
  for (;;) {
    const pass = await walkOnce(state);
    // R-HG-1: hedges that lost while the first attempt went on are among the run's attempts too.
    const hedges = state.race?.lostHedgeFailures ?? [];
    if (pass.kind === "succeeded") return settleSuccess(state, pass, [...earlier, ...pass.failures, ...hedges.splice(0)]);
    if (pass.seatsFull.length > 0) {
      // R-PO-8: a seat frees when any attempt on the account ends: wait in line for one, then walk again.
      await waitForSeat(state, pass.seatsFull, line);
      continue;
    }
    let failures = [...pass.failures, ...hedges.splice(0)];
    called ||= pass.called;

    const lastResort = await lastResortCandidate(state, pass, waitedFor);
    if (lastResort !== undefined) {
      // R-FB-9: the one extra attempt; its outcome replaces the candidate's skip among the attempts.
      const extra = await walkOnce(state, { lastResort });
      failures = [...failures.filter((failure) => failure.index !== lastResort), ...extra.failures];
      if (extra.kind === "succeeded") return settleSuccess(state, extra, [...earlier, ...failures]);
      called = true;
    }

    const budget = called ? "afterCall" : "beforeCall";
    // R-GW-10: a committed stream's continuation never waits for a cooldown: the client's stream would be silent.
    const wait = waited[budget] || state.stream.committed !== undefined ? undefined : await cooldownWait(state);
    const waitMs = wait ? jitteredWaitMs(state, wait.until) : 0;
    if (!wait || !guard.leavesTimeAfter(waitMs)) throw await exhaustionError(state, failures);
    waited[budget] = true;
    waitedFor = wait.index;
    earlier.push(...failures);
    deps.events.emit({ type: "cooldown_wait", runId: state.input.runId, agentId: deps.agentId, waitMs, until: wait.until });
    await guard.sleep(waitMs);
  }
}

/** Until `until`, plus a random part of that time, so that runs waiting for the same moment spread out. */
function jitteredWaitMs<T>(state: RunState<T>, until: number): number {
  const remainingMs = Math.max(0, until - state.deps.clock.now());
  return remainingMs + statedWaitJitterMs(remainingMs, state.deps.random);
}
