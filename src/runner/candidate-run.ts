/**
 * Running one candidate of the chain (R-FB-1): read the session once, persist the fallback override before
 * the call (R-SO-2), run the auth-profile runner, and roll the override back when the candidate did not answer.
 */
import { sameModelRef } from "../core/candidate-chain.js";
import type { ModelRef, SessionEntry } from "../core/types.js";
import type { CommittedRun } from "./attempt.js";
import type { ProviderView } from "./provider-view.js";
import { sessionBase, type RunState } from "./run-state.js";
import { runWithAuthProfiles, type AuthProfilesOutcome, type CandidateHedging } from "./run-with-auth-profiles.js";
import { OverrideTransaction, emitSessionOverride, fallbackOverrideValues } from "./session-overrides.js";

export async function runCandidate<T>(
  state: RunState<T>,
  index: number,
  view: ProviderView,
  options: {
    probe: boolean;
    hasFallback: boolean;
    commit: (profileId: string | undefined) => Promise<CommittedRun>;
    hedge?: CandidateHedging<T>;
  },
): Promise<AuthProfilesOutcome<T>> {
  const { deps, input } = state;
  const ref = state.chain[index] as ModelRef;
  // R-ST-4: a continuation finishes an answer whose headers (and notice) are gone; it changes no session
  // state the user could not be told about — the next turn picks its model afresh.
  const continuing = state.stream.committed !== undefined;
  const transaction =
    state.persist && input.sessionKey !== undefined && !continuing ? new OverrideTransaction(deps.store, input.sessionKey) : undefined;
  let session = input.sessionKey !== undefined ? await deps.store.getSession(input.sessionKey) : undefined;

  const isOriginProbe = state.originProbe && index === 0;
  const isRequested = sameModelRef(ref, input.selection.requested);
  // A user who changed the session's model while this run was in flight wins: nothing is persisted over it.
  if (transaction && !isRequested && !isOriginProbe && !modelOverrideChanged(state.sessionAtStart, session)) {
    const pin = session?.authProfileOverride;
    const values = fallbackOverrideValues({
      entry: session,
      candidate: ref,
      requested: input.selection.requested,
      pinBelongsToCandidate: pin !== undefined && view.profileProviders[pin] === ref.provider,
      now: deps.clock.now(),
    });
    const result = await transaction.write(session, values);
    emitSessionOverride(deps.events, sessionBase(deps, input), "fallback_persisted", result);
    session = result.entry;
  }

  let outcome: AuthProfilesOutcome<T>;
  try {
    outcome = await runWithAuthProfiles(deps, {
      runId: input.runId,
      candidate: ref,
      candidateIndex: index,
      view,
      sessionKey: input.sessionKey,
      session,
      transaction,
      hasFallback: options.hasFallback,
      probe: options.probe,
      attempt: input.attempt,
      attemptTimeoutMs: input.attemptTimeoutMs,
      guard: state.guard,
      timeoutRetries: state.timeoutRetries,
      shortWaited: state.shortWaited,
      unreachable: state.unreachable,
      commit: options.commit,
      stream: state.stream,
      ...(state.excluded ? { excluded: state.excluded } : {}),
      ...(options.hedge ? { hedge: options.hedge } : {}),
    });
  } catch (error) {
    // A caller abort or the run deadline: nothing of this candidate stays in the session.
    await transaction?.rollback();
    throw error;
  }
  // A hedge of this model's other profile that answered keeps the override this candidate wrote (R-HG-1).
  const answeredHere = outcome.kind === "hedged" && outcome.pass.kind === "succeeded" && outcome.pass.index === index;
  if (outcome.kind !== "succeeded" && !answeredHere) {
    const rolledBack = await transaction?.rollback();
    emitSessionOverride(deps.events, sessionBase(deps, input), "fallback_rolled_back", rolledBack);
  }
  return outcome;
}

function modelOverrideChanged(before: SessionEntry | undefined, now: SessionEntry | undefined): boolean {
  return (
    before?.providerOverride !== now?.providerOverride ||
    before?.modelOverride !== now?.modelOverride ||
    before?.modelOverrideSource !== now?.modelOverrideSource
  );
}
