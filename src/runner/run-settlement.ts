/**
 * What a successful run leaves behind (R-NT-1, R-SO-3): the notice for a state change, the cleared override
 * when the origin recovered, and the returned outcome.
 */
import { formatModelRef, sameModelRef } from "../core/candidate-chain.js";
import { formatNotice } from "../core/notices.js";
import type { ModelRef } from "../core/types.js";
import type { CommittedRun, RunOutcome } from "./attempt.js";
import type { Failure, PassResult, RunState } from "./run-state.js";
import { sessionBase } from "./run-state.js";
import { autoFallbackOrigin, autoFallbackTarget, clearAutoOverrides, emitSessionOverride } from "./session-overrides.js";

interface Answered {
  index: number;
  profileId?: string;
  viaLiveSwitch: boolean;
}

export async function settleSuccess<T>(
  state: RunState<T>,
  pass: Extract<PassResult<T>, { kind: "succeeded" }>,
  failures: Failure[],
): Promise<RunOutcome<T>> {
  const ref = state.chain[pass.index] as ModelRef;
  const { committed, continuationsAttempted: continuations } = state.stream;
  // A stream settles its notice and overrides at its commit (R-ST-1); what is left is who finished it.
  const head = committed ?? (await settleAnswer(state, pass, failures));
  // Built field by field: a rest pattern leaving out the committed profile is a slow generic copy per run.
  const outcome: RunOutcome<T> = {
    result: pass.result,
    provider: ref.provider,
    model: ref.model,
    attempts: failures.map((failure) => failure.record),
    runId: head.runId,
  };
  if (pass.profileId !== undefined) outcome.profileId = pass.profileId;
  if (head.notice !== undefined) outcome.notice = head.notice;
  if (continuations > 0) outcome.continuations = continuations;
  if (pass.refused) outcome.refused = true;
  return outcome;
}

/**
 * R-ST-1: a stream reached the client. The first commit settles the notice and the session's overrides (the
 * headers go out now); a continuation's commit only names who answers now (R-ST-4).
 */
export async function settleCommit<T>(state: RunState<T>, answered: Answered & { failures: readonly Failure[] }): Promise<CommittedRun> {
  const ref = state.chain[answered.index] as ModelRef;
  if (state.stream.committed) {
    const { profileId: _first, ...previous } = state.stream.committed;
    return {
      ...previous,
      provider: ref.provider,
      model: ref.model,
      ...(answered.profileId !== undefined ? { profileId: answered.profileId } : {}),
      attempts: answered.failures.map((failure) => failure.record),
    };
  }
  const committed = await settleAnswer(state, answered, answered.failures);
  state.stream.committed = committed;
  return committed;
}

async function settleAnswer<T>(state: RunState<T>, pass: Answered, failures: readonly Failure[]): Promise<CommittedRun> {
  const { deps, input } = state;
  const ref = state.chain[pass.index] as ModelRef;
  const attempts = failures.map((failure) => failure.record);
  let notice: string | undefined;
  let returned = state.originProbe && pass.index === 0;

  if (state.originProbe && pass.index === 0 && input.sessionKey !== undefined) {
    // R-SO-3: the origin recovered; clear the auto override and an auto auth pin.
    const current = await deps.store.getSession(input.sessionKey);
    const cleared = await clearAutoOverrides(deps.store, input.sessionKey, current);
    emitSessionOverride(deps.events, sessionBase(deps, input), "fallback_cleared", cleared);
    const previous = autoFallbackTarget(state.sessionAtStart);
    notice = formatNotice({
      kind: "cleared",
      selected: formatModelRef(state.selected),
      previous: previous ? formatModelRef(previous) : "",
    });
  } else if (!sameModelRef(ref, input.selection.requested) && !pass.viaLiveSwitch) {
    notice = formatNotice({
      kind: "fallback",
      selected: formatModelRef(state.selected),
      active: formatModelRef(ref),
      attempts: attempts.map((attempt) => ({ reason: attempt.reason, status: attempt.status, error: attempt.error })),
    });
  } else if (
    state.persist &&
    input.sessionKey !== undefined &&
    input.selection.source !== "auto_fallback_override" &&
    autoFallbackTarget(state.sessionAtStart) !== undefined
  ) {
    // The run set the stored auto fallback aside (another model asked for, or `fallbacks: none`) and its
    // model answered: the stale fallback must not come back on a later turn.
    const current = await deps.store.getSession(input.sessionKey);
    const cleared = await clearAutoOverrides(deps.store, input.sessionKey, current);
    emitSessionOverride(deps.events, sessionBase(deps, input), "fallback_cleared", cleared);
    const origin = autoFallbackOrigin(state.sessionAtStart);
    const previous = autoFallbackTarget(state.sessionAtStart);
    // R-NT-1: the origin itself answered, so the session returned from its fallback.
    if (origin && previous && sameModelRef(origin, ref) && cleared?.applied.includes("modelOverride")) {
      returned = true;
      notice = formatNotice({ kind: "cleared", selected: formatModelRef(origin), previous: formatModelRef(previous) });
    }
  }

  if (notice !== undefined) {
    deps.events.emit({
      type: "notice",
      runId: input.runId,
      agentId: deps.agentId,
      sessionId: input.sessionKey ?? null,
      kind: returned ? "cleared" : "fallback",
      text: notice,
      selectedModel: formatModelRef(state.selected),
      activeModel: formatModelRef(ref),
    });
  }
  return {
    provider: ref.provider,
    model: ref.model,
    ...(pass.profileId !== undefined ? { profileId: pass.profileId } : {}),
    attempts,
    ...(notice !== undefined ? { notice } : {}),
    runId: input.runId,
  };
}
