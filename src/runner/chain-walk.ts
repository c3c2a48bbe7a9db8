/**
 * One pass over the candidate chain (SPEC §8) as small steps: `visit` gates and runs one candidate, `next`
 * turns its outcome into the following step — the next candidate, a jump (R-FB-5, R-FB-7), or the end.
 */
import { sameModelRef } from "../core/candidate-chain.js";
import { nextCandidateAfterOverflow } from "../core/fit.js";
import { REASON_POLICY } from "../core/reasons.js";
import type { ModelRef } from "../core/types.js";
import { gateCandidate, lastResortGate, type CandidateGate } from "./candidate-gate.js";
import { runCandidate } from "./candidate-run.js";
import { settleCommit } from "./run-settlement.js";
import type { Failure, PassResult, RunState } from "./run-state.js";
import type { AuthProfilesOutcome, CandidateHedging } from "./run-with-auth-profiles.js";
import { inputTokensEstimate, type Lane } from "./hedge-race.js";

interface Pass {
  failures: Failure[];
  called: boolean;
  cooldownSkips: number[];
  /** R-PO-8: profiles passed over because every seat was taken. */
  seatsFull: string[];
  /** R-FB-7: the user's live switch led to this candidate. */
  liveSwitchTarget?: number;
  /** R-FB-9: this pass runs exactly this candidate, despite its ladder cooldowns, and nothing else. */
  lastResort?: number;
}

type Step<T> = { kind: "visit"; index: number } | { kind: "done"; result: PassResult<T> };
type Ran = Extract<CandidateGate, { kind: "run" }>;
/** The outcome of a candidate's profiles of one kind. */
type OutcomeOf<T, K extends AuthProfilesOutcome<T>["kind"]> = Extract<AuthProfilesOutcome<T>, { kind: K }>;

export async function walkOnce<T>(
  state: RunState<T>,
  options: { lastResort?: number; from?: number; failures?: Failure[] } = {},
): Promise<PassResult<T>> {
  const pass: Pass = { failures: options.failures ?? [], called: false, cooldownSkips: [], seatsFull: [], lastResort: options.lastResort };
  let step: Step<T> = { kind: "visit", index: options.lastResort ?? options.from ?? 0 };
  while (step.kind === "visit") step = await visit(state, pass, step.index);
  return step.result;
}

async function visit<T>(state: RunState<T>, pass: Pass, index: number): Promise<Step<T>> {
  state.guard.throwIfStopped();
  const now = state.deps.clock.now();
  const lastResort = pass.lastResort === index;
  const gate = lastResort ? await lastResortGate(state, index, now) : await gateCandidate(state, index, now);
  if (gate.kind === "skip") {
    pass.failures.push(gate.failure);
    if (gate.unavailable) pass.cooldownSkips.push(index);
    const next = following(state, pass, index);
    state.log.record({ decision: "skip_candidate", index, reason: gate.reason, error: gate.message, next, outcome: outcomeOf(next) });
    return advance(state, pass, index);
  }
  const probe = gate.availability.action === "probe";
  if (gate.availability.action === "probe") {
    const decision = lastResort ? "last_resort" : "probe_cooldown_candidate";
    state.log.record({ decision, index, reason: gate.availability.reason, next: following(state, pass, index) });
  }
  const hasFallback = following(state, pass, index) !== undefined;
  const commit = (profileId: string | undefined) =>
    settleCommit(state, { index, profileId, failures: pass.failures, viaLiveSwitch: pass.liveSwitchTarget === index });
  const hedge = candidateHedging(state, pass, index);
  const outcome = await runCandidate(state, index, gate.view, { probe, hasFallback, commit, ...(hedge ? { hedge } : {}) });
  if (
    outcome.kind === "succeeded" ||
    outcome.kind === "live_switch" ||
    outcome.kind === "hedged" ||
    (outcome.kind === "failed" && !outcome.allInCooldown)
  )
    pass.called = true;
  if (outcome.kind === "seats_full" && outcome.last) pass.called = true;
  return next(state, pass, index, gate, outcome);
}

/** The candidate the run moves to after `index` when it fails; none in a last-resort pass. */
function following<T>(state: RunState<T>, pass: Pass, index: number): ModelRef | undefined {
  return pass.lastResort === undefined ? state.chain[index + 1] : undefined;
}

function outcomeOf(next: ModelRef | undefined): "next_fallback" | "chain_exhausted" {
  return next ? "next_fallback" : "chain_exhausted";
}

function advance<T>(state: RunState<T>, pass: Pass, index: number): Step<T> {
  if (following(state, pass, index) !== undefined) return { kind: "visit", index: index + 1 };
  return {
    kind: "done",
    result: {
      kind: "exhausted",
      failures: pass.failures,
      called: pass.called,
      cooldownSkips: pass.cooldownSkips,
      seatsFull: pass.seatsFull,
    },
  };
}

function next<T>(state: RunState<T>, pass: Pass, index: number, gate: Ran, outcome: AuthProfilesOutcome<T>): Step<T> {
  if (outcome.kind === "succeeded") {
    state.log.record({
      decision: "candidate_succeeded",
      index,
      profileId: outcome.profileId,
      outcome: "succeeded",
      ...continuationOf(state),
    });
    const { result, profileId } = outcome;
    const viaLiveSwitch = pass.liveSwitchTarget === index;
    const refused = outcome.refused ? { refused: true as const } : {};
    return { kind: "done", result: { kind: "succeeded", result, index, profileId, failures: pass.failures, viaLiveSwitch, ...refused } };
  }
  if (outcome.kind === "live_switch") return liveSwitch(state, pass, index, outcome);
  if (outcome.kind === "seats_full") return seatsFullCandidate(state, pass, index, outcome);
  if (outcome.kind === "hedged") return hedged(state, pass, index, outcome);
  return failedCandidate(state, pass, index, gate, outcome);
}

/**
 * R-PO-8: every usable profile of the candidate was at its seat limit: the run moves on like after a skip,
 * and remembers the profiles so that it can wait in line for one when no candidate answers.
 */
function seatsFullCandidate<T>(state: RunState<T>, pass: Pass, index: number, outcome: OutcomeOf<T, "seats_full">): Step<T> {
  for (const id of outcome.profileIds) if (!pass.seatsFull.includes(id)) pass.seatsFull.push(id);
  const error = `every usable profile is at its seat limit (${outcome.profileIds.join(", ")})`;
  if (outcome.last) pass.failures.push(classifiedFailure(state, index, outcome.last));
  const next = following(state, pass, index);
  state.log.record({
    decision: "skip_candidate",
    index,
    reason: "concurrency_limited",
    error,
    next,
    outcome: outcomeOf(next),
    ...continuationOf(state),
  });
  return advance(state, pass, index);
}

/**
 * R-HG-1: how the attempts of candidate `index` are raced. The rest of the run after an attempt — the model's
 * other profiles, then the next candidates, never the racing profile — is this pass walked on from there, on a
 * guard of its own that the race stops when the first attempt wins. Never in a last-resort pass or after a
 * commit (R-ST-4 covers that).
 */
function candidateHedging<T>(state: RunState<T>, pass: Pass, index: number): CandidateHedging<T> | undefined {
  const { race, lane } = state;
  if (!race || !lane || pass.lastResort !== undefined || state.stream.committed !== undefined) return undefined;
  return {
    race,
    lane,
    restAfter(profileId, otherProfiles) {
      const from = otherProfiles ? index : index + 1;
      if (from >= state.chain.length) return undefined;
      return (restLane, signal) => walkRest(state, pass, { index, from, profileId, lane: restLane, signal });
    },
    inputTokens: () => inputTokensEstimate(state.input.request),
  };
}

async function walkRest<T>(
  state: RunState<T>,
  pass: Pass,
  at: { index: number; from: number; profileId: string | undefined; lane: Lane; signal: AbortSignal },
): Promise<PassResult<T>> {
  const ref = state.chain[at.index] as ModelRef;
  state.log.record({ decision: "hedge_started", index: at.index, profileId: at.profileId, next: state.chain[at.from] });
  const guard = state.guard.child(at.signal);
  const excluded = at.profileId === undefined ? state.excluded : new Set([...(state.excluded ?? []), at.profileId]);
  const rest: RunState<T> = { ...state, guard, lane: at.lane, ...(excluded ? { excluded } : {}) };
  // The slow attempt leads the hedge's attempts: a notice of a hedge that answers names why it was raced.
  const slow: Failure = {
    record: {
      provider: ref.provider,
      model: ref.model,
      ...(at.profileId !== undefined ? { profileId: at.profileId } : {}),
      error: "no first content in the model's usual time; a hedge answered (hedge_lost)",
      hedge: "lost",
    },
    error: undefined,
    index: at.index,
  };
  try {
    const result = await walkOnce(rest, { from: at.from, failures: [...pass.failures, slow] });
    // Only the hedge's own attempts go back: the race's caller places them after the slow attempt.
    return { ...result, failures: result.failures.slice(pass.failures.length + 1) };
  } finally {
    guard.dispose();
  }
}

/** R-HG-1: the candidate's attempt was raced and the rest of the run decided; its attempt takes the slow one's place. */
function hedged<T>(state: RunState<T>, pass: Pass, index: number, outcome: OutcomeOf<T, "hedged">): Step<T> {
  const rest = outcome.pass;
  const { record } = outcome;
  const lost = record.hedge === "lost";
  state.log.record({
    decision: lost ? "hedge_lost" : "candidate_failed",
    index,
    profileId: outcome.profileId,
    reason: record.reason,
    status: record.status,
    code: record.code,
    error: record.error,
    ...(lost ? {} : { outcome: rest.kind === "succeeded" ? ("next_fallback" as const) : ("chain_exhausted" as const) }),
  });
  pass.called = true;
  const failures = [...pass.failures, { record, error: outcome.error, index }, ...rest.failures];
  if (rest.kind === "succeeded") return { kind: "done", result: { ...rest, failures } };
  return {
    kind: "done",
    result: {
      kind: "exhausted",
      failures,
      called: true,
      cooldownSkips: [...pass.cooldownSkips, ...rest.cooldownSkips],
      seatsFull: [...new Set([...pass.seatsFull, ...rest.seatsFull])],
    },
  };
}

/** R-FB-7: jump straight to the switch target when it is a later candidate; never an outer retry loop. */
function liveSwitch<T>(state: RunState<T>, pass: Pass, index: number, outcome: OutcomeOf<T, "live_switch">): Step<T> {
  const ref = state.chain[index] as ModelRef;
  const { error, profileId } = outcome;
  const jump = state.chain.findIndex((candidate, position) => position > index && sameModelRef(candidate, error));
  if (jump !== -1 && pass.lastResort === undefined) {
    state.log.record({
      decision: "candidate_failed",
      index,
      profileId,
      error: error.message,
      next: state.chain[jump],
      outcome: "next_fallback",
    });
    pass.liveSwitchTarget = jump;
    return { kind: "visit", index: jump };
  }
  pass.failures.push({ record: { provider: ref.provider, model: ref.model, profileId, error: error.message }, error, index });
  const next = following(state, pass, index);
  state.log.record({ decision: "candidate_failed", index, profileId, error: error.message, next, outcome: outcomeOf(next) });
  return advance(state, pass, index);
}

function failedCandidate<T>(state: RunState<T>, pass: Pass, index: number, gate: Ran, outcome: OutcomeOf<T, "failed">): Step<T> {
  const { deps, input } = state;
  const ref = state.chain[index] as ModelRef;
  const { classification, profileId } = outcome;
  const { reason, status, code, preview } = classification;
  const policy = REASON_POLICY[reason];
  pass.failures.push(classifiedFailure(state, index, outcome));
  const isPrimary = index === 0;
  if (!isPrimary && policy.marksSessionSkipCache) deps.skipCache.mark(input.sessionKey, ref, reason, deps.clock.now());
  const { availability } = gate;
  if (availability.action === "probe" && availability.transient && !isPrimary && !policy.keepsProbeSlot) {
    state.slots.use(ref.provider);
  }
  const failed = {
    decision: "candidate_failed" as const,
    index,
    profileId,
    reason,
    status,
    code,
    error: preview,
    ...continuationOf(state),
  };

  if (outcome.endsRun) {
    // R-ST-4: a committed stream failed and cannot be continued (budget spent, nothing to continue it with).
    state.log.record({ ...failed, outcome: "chain_exhausted" });
    throw outcome.error;
  }
  if (policy.stopRun) {
    // R-FB-5: context overflow may only move on to a later candidate with a larger (or unknown) window.
    const onward = policy.advanceToLargerContextWindow && pass.lastResort === undefined ? overflowTarget(state, index) : -1;
    if (onward !== -1) {
      state.log.record({ ...failed, next: state.chain[onward], outcome: "next_fallback" });
      return { kind: "visit", index: onward };
    }
    state.log.record({ ...failed, outcome: "chain_exhausted" });
    throw outcome.error;
  }
  const next = following(state, pass, index);
  state.log.record({ ...failed, next, outcome: outcomeOf(next) });
  return advance(state, pass, index);
}

/** A classified failure of one of candidate `index`'s profiles, as the pass keeps it: the record and the error. */
function classifiedFailure<T>(state: RunState<T>, index: number, failed: OutcomeOf<T, "failed">): Failure {
  const ref = state.chain[index] as ModelRef;
  const { reason, status, code, preview } = failed.classification;
  return {
    record: { provider: ref.provider, model: ref.model, profileId: failed.profileId, reason, status, code, error: preview },
    error: failed.error,
    index,
  };
}

/** R-ST-4: the continuation a decision belongs to, once a committed stream of the run failed. */
function continuationOf<T>(state: RunState<T>): { continuation?: number } {
  const { stream } = state;
  return stream.committed !== undefined && stream.continuations > 0 ? { continuation: stream.continuations } : {};
}

function overflowTarget<T>(state: RunState<T>, failedIndex: number): number {
  const windows = state.chain.map((ref) => state.deps.settings.modelFacts(ref).contextWindow);
  return nextCandidateAfterOverflow(windows, failedIndex);
}
