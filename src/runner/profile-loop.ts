/**
 * The rotation over one candidate's profiles (SPEC §6) as small steps: `next(loop, step) → step` until a step
 * is `done`. Entering a profile, one attempt, the decision after a failure (R-RN-4 retry gate, R-RN-6 short
 * wait) and recording + rotating (§5, R-RN-2, R-RN-3) are one function each.
 */
import { unreachableKind } from "../core/unreachable.js";
import { activeWindows, isStatedResetTrusted } from "../core/cooldown.js";
import { LiveSessionModelSwitchError } from "../core/errors.js";
import { FAILOVER_REASONS, REASON_POLICY, type FailoverReason } from "../core/reasons.js";
import type { Classification, Credential } from "../core/types.js";
import type { AttemptProfile } from "./attempt.js";
import { classifyAttemptError } from "./failure.js";
import { recordProfileFailure } from "./profile-failures.js";
import type { ProviderView } from "./provider-view.js";
import { decideRotation, decideSameProfileRetry, statedWaitMs } from "./retry-decisions.js";
import type { RunnerDeps } from "./runner-deps.js";
import type { AuthProfilesOutcome, AuthProfilesRunInput } from "./run-with-auth-profiles.js";
import { learnSeatCap, takeSeat, withSeat } from "./seat-steps.js";
import { allUnusable } from "./unavailable-outcomes.js";
import { HedgeLost, laneLost, raceAttempt, RacingAttempt, takeHedgeStart, type RaceResult } from "./hedge-race.js";

/** How a refusal that arrived as an answer is reported (R-GW-11): a content filter, with the answer's 200. */
const REFUSAL: Classification = { reason: "content_filter", status: 200, preview: "the provider refused to answer" };

/** Stands in for the profile id of a provider that runs without a credential (R-RN-1). */
export const KEYLESS = "(keyless)";

export interface ListMode {
  strict: boolean;
  pinned?: "auto" | "user";
  pinnedId?: string;
}

type Failed<T> = Extract<AuthProfilesOutcome<T>, { kind: "failed" }>;

interface Loop<T> {
  deps: RunnerDeps;
  input: AuthProfilesRunInput<T>;
  list: readonly (string | undefined)[];
  mode: ListMode;
  /** R-RN-3: rotations made in this candidate, per reason. */
  rotations: Map<FailoverReason, number>;
  shortWaited: Set<string | undefined>;
  last?: Failed<T>;
  /** R-PO-8: profiles passed over in this candidate because every seat was taken. */
  seatsFull: string[];
}

/** The profile the loop is on. */
interface OnProfile {
  index: number;
  profileId: string | undefined;
  /** Start of the first attempt on this profile: its same-profile retries belong to that attempt (R-CD-1). */
  firstStartedAt?: number;
  /** The reason whose stated reset was just waited out on this profile (R-RN-6, R-CD-6 trust-once). */
  waitedOut?: FailoverReason;
}

interface AttemptFailure {
  error: unknown;
  classification: Classification;
  finishedAt: number;
  /** The attempt's stream had reached the client (R-ST-1). */
  committed?: boolean;
}

type Step<T> =
  | { kind: "enter"; index: number }
  | { kind: "attempt"; on: OnProfile }
  | { kind: "failed"; on: OnProfile; failure: AttemptFailure }
  | { kind: "done"; outcome: AuthProfilesOutcome<T> };

export async function tryProfiles<T>(
  deps: RunnerDeps,
  input: AuthProfilesRunInput<T>,
  list: readonly (string | undefined)[],
  mode: ListMode,
): Promise<AuthProfilesOutcome<T>> {
  const loop: Loop<T> = { deps, input, list, mode, rotations: new Map(), shortWaited: input.shortWaited ?? new Set(), seatsFull: [] };
  let step: Step<T> = { kind: "enter", index: 0 };
  while (step.kind !== "done") step = await next(loop, step);
  return step.outcome;
}

function next<T>(loop: Loop<T>, step: Exclude<Step<T>, { kind: "done" }>): Promise<Step<T>> {
  switch (step.kind) {
    case "enter":
      return enterProfile(loop, step.index);
    case "attempt":
      return attemptOnce(loop, step.on);
    case "failed":
      return afterFailure(loop, step.on, step.failure);
  }
}

/** The first profile from `from` on that is still usable (the first of the list is always tried). */
async function enterProfile<T>(loop: Loop<T>, from: number): Promise<Step<T>> {
  const index = from === 0 && loop.list.length > 0 ? 0 : await nextUsableIndex(loop, from);
  if (index === undefined) {
    // Every later profile cooled down meanwhile (concurrent runs) before any attempt ran.
    const ids = loop.list.filter((id): id is string => id !== undefined);
    return { kind: "done", outcome: loop.last ?? allUnusable(loop.deps, loop.input, ids) };
  }
  return { kind: "attempt", on: { index, profileId: loop.list[index] } };
}

/** Re-reads later profiles' stats: a concurrent run may have cooled them down since the order was made. */
async function nextUsableIndex<T>(loop: Loop<T>, from: number): Promise<number | undefined> {
  const { deps, input, list } = loop;
  for (let index = from; index < list.length; index += 1) {
    const id = list[index];
    if (id === undefined) continue;
    const stats = await deps.store.getUsageStats(id);
    if (activeWindows(stats, input.candidate.model, deps.clock.now()).length === 0) return index;
  }
  return undefined;
}

function attemptProfile(mode: ListMode, profileId: string | undefined): AttemptProfile | undefined {
  if (profileId === undefined) return undefined;
  const pinned = mode.pinned && (mode.strict || profileId === mode.pinnedId) ? { pinned: mode.pinned } : {};
  return { id: profileId, ...pinned };
}

async function attemptOnce<T>(loop: Loop<T>, on: OnProfile): Promise<Step<T>> {
  const { deps, input } = loop;
  const { candidate } = input;
  const { profileId } = on;
  const profile = attemptProfile(loop.mode, profileId);
  const seat = await takeSeat(deps, candidate.provider, profileId);
  if (seat.kind === "full") return passOverFull(loop, on, seat.limit);
  const startedAt = deps.clock.now();
  // R-ST-4: after a committed stream failed, every later attempt of the run continues its answer.
  const continuation = input.stream.committed !== undefined && input.stream.continuations > 0 ? input.stream.continuations : undefined;
  if (continuation !== undefined) input.stream.continuationsAttempted = Math.max(input.stream.continuationsAttempted, continuation);
  const hedging = deps.hedging;
  const racer = hedging && input.hedge ? new RacingAttempt(input.hedge.lane, deps.clock, startedAt, candidate, hedging.samples) : undefined;
  const isHedge = takeHedgeStart(input.hedge?.lane);
  // R-HG-3: the budget grows with the provider's own requests, never with its hedges.
  if (racer && !isHedge) hedging?.budget.noteRequest(candidate.provider);
  const firstTokenTimeoutMs = hedging?.learnedDeadlineMs(candidate.provider, candidate.model);
  let committedAt: number | undefined;
  let refused = false;
  deps.events.emit({ type: "attempt_started", ...where(loop), profileId: profileId ?? null });
  // The seat is held until the attempt settles, also while it races (R-PO-8).
  const attempt = withSeat(seat.hold, () =>
    input.guard.attempt(
      async (signal, release, abort) => {
        // A raced attempt is also aborted when another one wins (R-HG-1), through the attempt's own controller.
        if (racer && hedging?.settings.enabled) racer.abortWith(abort);
        const credential = await attemptCredential(deps, input.view, profileId, signal);
        return input.attempt({
          provider: candidate.provider,
          model: candidate.model,
          ...(profile ? { profile, profileId: profile.id } : {}),
          ...(credential ? { credential } : {}),
          signal,
          runId: input.runId,
          candidateIndex: input.candidateIndex + 1,
          probe: input.probe,
          ...(continuation !== undefined ? { continuation } : {}),
          ...(racer ? { upstreamProgress: racer.progress, upstreamUsage: racer.usage } : {}),
          ...(firstTokenTimeoutMs !== undefined ? { firstTokenTimeoutMs } : {}),
          commit: () => {
            // A stream that lost its race must not reach the client (R-HG-1).
            if (racer && !racer.claim()) return Promise.reject(new HedgeLost());
            committedAt ??= deps.clock.now();
            release();
            return input.commit(profileId);
          },
          refused: () => {
            refused = true;
          },
        });
      },
      input.attemptTimeoutMs ?? deps.settings.attemptTimeoutMs(candidate.provider),
    ),
  );
  const streamedOf = () => ({ committed: committedAt !== undefined, continuation, ...(isHedge ? { hedge: true } : {}) });
  let raced: RaceResult<T>;
  try {
    raced =
      racer && hedging && input.hedge && continuation === undefined
        ? await raceAttempt({
            hedging,
            race: input.hedge.race,
            clock: deps.clock,
            events: deps.events,
            runId: input.runId,
            agentId: deps.agentId,
            provider: candidate.provider,
            model: candidate.model,
            profileId,
            racer,
            attempt,
            startRest: input.hedge.restAfter(profileId, profileId !== undefined && !loop.mode.strict && on.index + 1 < loop.list.length),
          })
        : { kind: "own", settlement: await attempt };
  } catch (error) {
    // The side of a race this attempt ran on lost: it was aborted, nothing is recorded (R-HG-1).
    if (input.hedge && laneLost(input.hedge.lane)) {
      const abortedAt = deps.clock.now();
      emitAttemptFinished(
        loop,
        profileId,
        "aborted",
        undefined,
        abortedAt - startedAt,
        { ...streamedOf(), ...charged(input, racer) },
        abortedAt,
      );
      input.hedge.race.lostHedgeFailures.push({
        record: {
          provider: candidate.provider,
          model: candidate.model,
          ...(profileId !== undefined ? { profileId } : {}),
          error: "a hedge aborted because the attempt it raced answered first (hedge_lost)",
          hedge: "lost",
        },
        error,
        index: input.candidateIndex,
      });
    }
    throw error;
  }
  const finishedAt = deps.clock.now();
  // For a stream the upstream time is its time to first content; the rest is the answer being read.
  const durationMs = (committedAt ?? finishedAt) - startedAt;
  const streamed = streamedOf();
  if (raced.kind === "rest")
    return afterLostRace(loop, on, raced, { startedAt, finishedAt, durationMs, streamed, racer: racer as RacingAttempt });
  const settlement = raced.settlement;
  if (racer?.hasContent && profileId !== undefined) hedging?.silent.noteHeard(profileId, candidate.model);

  if (settlement.kind === "ok" && refused) {
    // R-GW-11: a refusal is a content_filter outcome: the run stops with the answer as sent (R-FB-5), nothing
    // is recorded on the profile (R-CD-5), and no success clears its failures or retry counters.
    emitAttemptFinished(loop, profileId, "failed", REFUSAL, durationMs, streamed, finishedAt);
    return { kind: "done", outcome: { kind: "succeeded", result: settlement.value, profileId, refused: true } };
  }
  if (settlement.kind === "ok") {
    emitAttemptFinished(loop, profileId, "succeeded", undefined, durationMs, streamed, finishedAt);
    clearGateCounters(loop, profileId);
    // R-ST-5: a committed stream's success is recorded when it ends, which is now — off the answer's path.
    if (profileId !== undefined) recordSuccessInBackground(deps, profileId, candidate.provider, finishedAt);
    return { kind: "done", outcome: { kind: "succeeded", result: settlement.value, profileId } };
  }
  if (settlement.error instanceof LiveSessionModelSwitchError) {
    emitAttemptFinished(loop, profileId, "failed", undefined, durationMs, streamed, finishedAt);
    return { kind: "done", outcome: { kind: "live_switch", error: settlement.error, profileId } };
  }
  const classification = classifyAttemptError(settlement.error, candidate.provider, finishedAt);
  emitAttemptFinished(loop, profileId, "failed", classification, durationMs, streamed, finishedAt);
  const failure = { error: settlement.error, classification, finishedAt, committed: committedAt !== undefined };
  return { kind: "failed", on: { ...on, firstStartedAt: on.firstStartedAt ?? startedAt }, failure };
}

/** R-HG-4: a route that lost two hedges in a row without a byte, recorded once as a model-scoped timeout. */
const SILENT_ROUTE: Classification = {
  reason: "timeout",
  code: "ETIMEDOUT",
  preview: "no byte before two hedges in a row answered instead (silent route)",
};

/**
 * R-HG-1: the rest of the run decided a race this attempt was in. A loser is aborted with nothing recorded
 * (`hedge_lost`), except a silent route's second loss (R-HG-4); an attempt that failed on its own before its
 * first content is recorded as usual, without the same-profile retry — the hedge already is the next attempt.
 */
async function afterLostRace<T>(
  loop: Loop<T>,
  on: OnProfile,
  raced: Extract<RaceResult<T>, { kind: "rest" }>,
  timing: {
    startedAt: number;
    finishedAt: number;
    durationMs: number;
    streamed: { committed: boolean; continuation: number | undefined; hedge?: boolean };
    racer: RacingAttempt;
  },
): Promise<Step<T>> {
  const { deps, input } = loop;
  const { candidate } = input;
  const { profileId } = on;
  const { settlement, pass } = raced;
  const started = { ...on, firstStartedAt: on.firstStartedAt ?? timing.startedAt };
  if (raced.lost || settlement.kind === "ok") {
    emitAttemptFinished(
      loop,
      profileId,
      "aborted",
      undefined,
      timing.durationMs,
      { ...timing.streamed, ...charged(input, timing.racer) },
      timing.finishedAt,
    );
    const error = new HedgeLost();
    const silent = profileId !== undefined && deps.hedging?.silent.noteLost(profileId, candidate.model, timing.racer.heardBytes) === true;
    if (silent) await recordFailure(loop, started, { error, classification: SILENT_ROUTE, finishedAt: timing.finishedAt });
    const record = {
      provider: candidate.provider,
      model: candidate.model,
      ...(profileId !== undefined ? { profileId } : {}),
      error: `no first content after ${Math.round(timing.durationMs)} ms; another attempt answered first (hedge_lost)`,
      hedge: "lost" as const,
    };
    return { kind: "done", outcome: { kind: "hedged", pass, record, error, profileId } };
  }
  const classification = classifyAttemptError(settlement.error, candidate.provider, timing.finishedAt);
  emitAttemptFinished(loop, profileId, "failed", classification, timing.durationMs, timing.streamed, timing.finishedAt);
  if (unreachableKind(classification.code) !== undefined) input.unreachable?.add(candidate.provider);
  await recordFailure(loop, started, { error: settlement.error, classification, finishedAt: timing.finishedAt });
  const { reason, status, code, preview } = classification;
  const record = {
    provider: candidate.provider,
    model: candidate.model,
    ...(profileId !== undefined ? { profileId } : {}),
    reason,
    ...(status !== undefined ? { status } : {}),
    ...(code !== undefined ? { code } : {}),
    error: preview,
  };
  return { kind: "done", outcome: { kind: "hedged", pass, record, error: settlement.error, profileId } };
}

/**
 * R-ST-4: a committed stream failed. It is continued on the next profile or candidate while the budget lasts
 * and the caller can continue it; otherwise the run ends with this failure. Either way it is recorded (R-ST-5).
 */
function afterCommittedFailure<T>(loop: Loop<T>, on: OnProfile, failure: AttemptFailure): Promise<Step<T>> {
  const stream = loop.input.stream;
  const policy = stream.policy;
  const continues = policy !== undefined && stream.continuations < policy.max && policy.canContinue(failure.error);
  if (!continues) return recordAndRotate(loop, on, failure, { endsRun: true });
  stream.continuations += 1;
  return recordAndRotate(loop, on, failure);
}

/**
 * R-CD-7 off the answer's critical path (R-SB-5: success bookkeeping is best effort): the answer does not wait
 * for the store. The write starts now, so a backend that applies it synchronously (memory, SQLite) has it in
 * place for the next decision; a store error becomes the `state_bookkeeping_failed` event.
 */
function recordSuccessInBackground(deps: RunnerDeps, profileId: string, provider: string, now: number): void {
  deps.store.recordSuccess(profileId, { provider, now }).catch((error: unknown) =>
    deps.events.emit({
      type: "state_bookkeeping_failed",
      agentId: deps.agentId,
      operation: "recordSuccess",
      profileId,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    }),
  );
}

/** Same-profile retries first (R-RN-4 retry gate, R-RN-6 short wait); otherwise record and rotate. */
async function afterFailure<T>(loop: Loop<T>, on: OnProfile, failure: AttemptFailure): Promise<Step<T>> {
  // Same-profile retries and waits are for calls that gave nothing yet; a cut answer moves on (R-ST-4).
  if (failure.committed) return afterCommittedFailure(loop, on, failure);
  const { deps, input, list } = loop;
  const { classification } = failure;
  const { reason } = classification;
  // R-TT-2: a host that does not resolve, refuses or fails TLS is not slow: retrying or waiting on the same
  // profile cannot help, so the failure is recorded and the run moves on at once.
  if (unreachableKind(classification.code) !== undefined) {
    input.unreachable?.add(input.candidate.provider);
    return recordAndRotate(loop, on, failure);
  }
  // R-PO-8: "too many concurrent requests" asks for fewer in flight, not for a cooldown.
  const learnedCap = await learnSeatCap(deps, { runId: input.runId, provider: input.candidate.provider }, on.profileId, classification);
  if (learnedCap !== undefined) return passOverFull(loop, on, learnedCap);
  // R-GW-10: a continuation's failure while the client holds part of the answer: no same-profile retry or
  // wait leaves its stream silent — the next usable profile or candidate goes on at once.
  if (midStream(loop)) return recordAndRotate(loop, on, failure);
  const policy = REASON_POLICY[reason];
  const counterKey = gateCounterKey(reason, on.profileId);
  const retry = decideSameProfileRetry({
    policy,
    classification,
    now: failure.finishedAt,
    gateRetriesUsed: input.timeoutRetries.get(counterKey) ?? 0,
    modelFailover: deps.settings.modelFailover,
    random: deps.random,
    laterProfiles: list.length - on.index - 1,
    alreadyShortWaited: loop.shortWaited.has(on.profileId),
    statedResetTrusted: await statedResetTrusted(loop, on.profileId, failure),
    hasFallback: input.hasFallback,
  });
  const at = { ...where(loop), profileId: on.profileId ?? KEYLESS };
  const status = classification.status ?? null;
  if (retry.kind === "gate_retry") {
    input.timeoutRetries.set(counterKey, retry.retry);
    const { retry: attempt, maxRetries, delayMs } = retry;
    if (reason === "server_error") {
      deps.events.emit({ type: "server_error_retry_scheduled", ...at, status, retry: attempt, maxRetries, delayMs });
    } else {
      deps.events.emit({ type: "timeout_retry_scheduled", ...at, retry: attempt, maxRetries, delayMs });
    }
    await input.guard.sleep(delayMs);
    return { kind: "attempt", on };
  }
  if (retry.kind === "short_wait" && input.guard.leavesTimeAfter(retry.waitMs)) {
    loop.shortWaited.add(on.profileId);
    // The stated block is on record before the wait, so that concurrent runs see it at once instead of
    // calling a provider that just said "not before then" (they go to a fallback, or wait for it themselves).
    await recordFailure(loop, on, failure);
    deps.events.emit({ type: "short_wait", ...at, reason, waitMs: retry.waitMs });
    await input.guard.sleep(retry.waitMs);
    // A fresh attempt: its failure is a new one, not the incident already recorded (R-CD-1).
    return { kind: "attempt", on: { index: on.index, profileId: on.profileId, waitedOut: reason } };
  }
  if (retry.kind === "none" && retry.retriesExhausted !== undefined) {
    const maxRetries = retry.retriesExhausted;
    if (reason === "server_error") deps.events.emit({ type: "server_error_retries_exhausted", ...at, status, maxRetries });
    else deps.events.emit({ type: "timeout_retries_exhausted", ...at, maxRetries });
  }
  return recordAndRotate(loop, on, failure);
}

/**
 * R-CD-6 trust-once, asked only when a short wait could follow: a stated reset of this reason that already ran
 * out once on this profile is not waited out again.
 */
async function statedResetTrusted<T>(loop: Loop<T>, profileId: string | undefined, failure: AttemptFailure): Promise<boolean> {
  const { classification, finishedAt } = failure;
  if (profileId === undefined || !REASON_POLICY[classification.reason].shortWaitEligible) return true;
  if (statedWaitMs(classification, finishedAt) === undefined) return true;
  const { deps, input } = loop;
  if (!deps.settings.providerRecordsCooldowns(input.candidate.provider)) return true;
  return isStatedResetTrusted(await deps.store.getUsageStats(profileId), {
    reason: classification.reason,
    model: input.candidate.model,
    now: finishedAt,
    cooldowns: deps.settings.cooldowns,
  });
}

/** Writes one failed attempt to its profile (§5). */
async function recordFailure<T>(loop: Loop<T>, on: OnProfile, failure: AttemptFailure): Promise<void> {
  const { deps, input } = loop;
  const { classification } = failure;
  const { settings } = deps;
  await recordProfileFailure(
    {
      store: deps.store,
      events: deps.events,
      cooldowns: settings.cooldowns,
      providerRecordsCooldowns: (provider) => settings.providerRecordsCooldowns(provider),
    },
    {
      agentId: deps.agentId,
      runId: input.runId,
      provider: input.candidate.provider,
      model: input.candidate.model,
      profileId: on.profileId,
      classification,
      now: failure.finishedAt,
      attemptStartedAt: on.firstStartedAt,
      afterStatedWait: on.waitedOut === classification.reason,
    },
  );
}

async function recordAndRotate<T>(
  loop: Loop<T>,
  on: OnProfile,
  failure: AttemptFailure,
  options: { endsRun?: boolean } = {},
): Promise<Step<T>> {
  const { deps, input } = loop;
  const { classification } = failure;
  const policy = REASON_POLICY[classification.reason];
  const { settings } = deps;
  await recordFailure(loop, on, failure);
  const last: Failed<T> = {
    kind: "failed",
    error: failure.error,
    classification,
    profileId: on.profileId,
    allInCooldown: false,
    ...(options.endsRun ? { endsRun: true } : {}),
  };
  loop.last = last;
  if (options.endsRun || !policy.rotateProfile || loop.mode.strict) return { kind: "done", outcome: last };

  const nextIndex = await nextUsableIndex(loop, on.index + 1);
  const rotationsDone = loop.rotations.get(classification.reason) ?? 0;
  const rotation = decideRotation({
    policy,
    hasFallback: input.hasFallback,
    hasNextProfile: nextIndex !== undefined,
    rotationsDone,
    cooldowns: settings.cooldowns,
  });
  // R-GW-10: no overload backoff mid-stream either; the next profile is tried at once.
  if (rotation.pauseMs > 0 && !midStream(loop)) await pause(loop, on.profileId, rotation.pauseMs);
  // R-PO-8: a profile passed over for want of a seat is still usable once one frees: wait for it in line.
  if (nextIndex === undefined && loop.seatsFull.length > 0)
    return { kind: "done", outcome: { kind: "seats_full", profileIds: [...loop.seatsFull], last } };
  if (rotation.kind === "fail" || nextIndex === undefined) return { kind: "done", outcome: last };
  loop.rotations.set(classification.reason, rotationsDone + 1);
  const toProfileId = loop.list[nextIndex];
  if (on.profileId !== undefined && toProfileId !== undefined) {
    deps.events.emit({ type: "profile_rotated", ...where(loop), fromProfileId: on.profileId, toProfileId, reason: classification.reason });
  }
  return { kind: "attempt", on: { index: nextIndex, profileId: toProfileId } };
}

/**
 * R-PO-8: a profile at its seat limit is passed over like one without headroom — no failure is recorded and
 * no rotation counted. When no usable profile is left the candidate ends `seats_full`, and a run whose
 * candidates all end so waits in line for a seat. A strict user pin is never passed over for another profile.
 */
async function passOverFull<T>(loop: Loop<T>, on: OnProfile, limit: number): Promise<Step<T>> {
  const { deps, input } = loop;
  const profileId = on.profileId as string;
  if (!loop.seatsFull.includes(profileId)) loop.seatsFull.push(profileId);
  const nextIndex = loop.mode.strict ? undefined : await nextUsableIndex(loop, on.index + 1);
  const toProfileId = nextIndex === undefined ? null : (loop.list[nextIndex] ?? null);
  deps.events.emit({
    type: "profile_passed_over",
    ...where(loop),
    reason: "concurrency_limited",
    sessionId: input.sessionKey ?? null,
    profileId,
    toProfileId,
    limit,
  });
  if (nextIndex === undefined) return { kind: "done", outcome: { kind: "seats_full", profileIds: [...loop.seatsFull], last: loop.last } };
  return { kind: "attempt", on: { index: nextIndex, profileId: loop.list[nextIndex] } };
}

/** A stream of this run was committed: the client already reads the answer, and waits for nothing (R-GW-10). */
function midStream<T>(loop: Loop<T>): boolean {
  return loop.input.stream.committed !== undefined;
}

/** R-RN-4: retry counters are per profile, per reason and per run; the run's map holds them all. */
function gateCounterKey(reason: FailoverReason, profileId: string | undefined): string {
  return `${reason}\u0000${profileId ?? KEYLESS}`;
}

const GATED_REASONS = FAILOVER_REASONS.filter((reason) => REASON_POLICY[reason].retryGateKey !== undefined);

/** R-RN-4: a success clears the profile's retry counters. */
function clearGateCounters<T>(loop: Loop<T>, profileId: string | undefined): void {
  for (const reason of GATED_REASONS) loop.input.timeoutRetries.delete(gateCounterKey(reason, profileId));
}

function where<T>(loop: Loop<T>) {
  const { deps, input } = loop;
  return { runId: input.runId, agentId: deps.agentId, provider: input.candidate.provider, model: input.candidate.model };
}

/**
 * Resolved inside the attempt so that a refresh (R-AP-5) is bounded by the attempt's watchdog and its failure
 * is classified, recorded and rotated away from like any failed attempt.
 */
async function attemptCredential(
  deps: RunnerDeps,
  view: ProviderView,
  profileId: string | undefined,
  signal: AbortSignal,
): Promise<Credential | undefined> {
  const listed = profileId !== undefined ? view.credentials.get(profileId) : undefined;
  if (profileId === undefined || listed === undefined || !deps.profiles.credentialForAttempt) return listed;
  return deps.profiles.credentialForAttempt(profileId, listed, signal);
}

async function pause<T>(loop: Loop<T>, profileId: string | undefined, waitMs: number): Promise<void> {
  loop.deps.events.emit({ type: "overloaded_backoff", ...where(loop), profileId: profileId ?? KEYLESS, waitMs });
  await loop.input.guard.sleep(waitMs);
}

/**
 * A hedge loser's charge: the input tokens its provider stated before the close (Anthropic's `message_start`),
 * else the request's input estimated — it was closed before any usage came.
 */
function charged<T>(input: AuthProfilesRunInput<T>, racer: RacingAttempt | undefined): { inputTokens?: number; usageEstimated?: true } {
  if (racer?.statedInputTokens !== undefined) return { inputTokens: racer.statedInputTokens };
  const inputTokens = input.hedge?.inputTokens();
  return inputTokens !== undefined ? { inputTokens, usageEstimated: true } : {};
}

function emitAttemptFinished<T>(
  loop: Loop<T>,
  profileId: string | undefined,
  outcome: "succeeded" | "failed" | "aborted",
  classification: Classification | undefined,
  durationMs: number,
  streamed: { committed: boolean; continuation: number | undefined; hedge?: boolean; inputTokens?: number; usageEstimated?: true },
  finishedAt: number,
): void {
  // Run traces (R-OB-4) keep the stated reset as an instant, so a replay can tell when the limit lifted.
  const statedResetAt =
    classification?.resetAt ?? (classification?.retryAfterMs !== undefined ? finishedAt + classification.retryAfterMs : undefined);
  loop.deps.events.emit({
    type: "attempt_finished",
    ...where(loop),
    profileId: profileId ?? null,
    outcome,
    reason: classification?.reason ?? null,
    status: classification?.status ?? null,
    durationMs,
    ...(streamed.committed ? { committed: true, firstTokenMs: durationMs } : {}),
    ...(streamed.continuation !== undefined ? { continuation: streamed.continuation } : {}),
    ...(statedResetAt !== undefined ? { statedResetAt } : {}),
    ...(classification?.code !== undefined ? { code: classification.code } : {}),
    ...(streamed.hedge ? { hedge: true as const } : {}),
    ...(streamed.inputTokens !== undefined ? { inputTokens: streamed.inputTokens } : {}),
    ...(streamed.usageEstimated ? { usageEstimated: true as const } : {}),
  });
}
