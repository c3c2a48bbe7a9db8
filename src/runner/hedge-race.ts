/**
 * Racing instead of waiting (SPEC R-HG-1…R-HG-4), the one place that decides a race. An attempt that has no
 * first content `hedgeAfter` after it started does not hold the run up: the rest of the run — what it would do
 * if the attempt failed now, never on the same profile — starts beside it, and the first of the two to reach
 * first content wins; the other is aborted at once. The data plane only reports progress
 * (`context.upstreamProgress`: the first bytes, the first content) and obeys its signal; what the rest of the run
 * is, and what a loss or a win means for the profile, the runner's steps say (profile-loop.ts, chain-walk.ts).
 *
 * Races nest: the rest of a run may itself be raced by the rest after it, up to `maxExtra` hedges per run. A
 * lane is one side of every race it is part of; an attempt reaching first content wins only when its lane has
 * not already lost one of them.
 */
import type { AttemptRecord } from "../core/errors.js";
import type { FitRequest } from "../core/fit.js";
import type { FirstTokenSamples } from "../core/hedging/first-token-samples.js";
import type { HedgeBudget } from "../core/hedging/hedge-budget.js";
import { hedgeAfterMs } from "../core/hedging/hedge-timing.js";
import type { SilentRoutes } from "../core/hedging/silent-route.js";
import type { Clock } from "../ports/clock.js";
import type { EventSink, HedgeOutcome } from "../ports/events.js";
import type { UpstreamProgress } from "./attempt.js";
import type { AttemptSettlement } from "./run-guard.js";
import type { PassResult } from "./run-state.js";

/** `agents.defaults.modelFailover.hedging` with defaults applied. */
export interface HedgingSettings {
  enabled: boolean;
  /** A fixed hedge delay; absent = learned per model (R-HG-2). */
  afterMs?: number;
  maxExtra: number;
}

/** Process-wide hedging state, shared by every run of the engine. */
export interface HedgingDeps {
  settings: HedgingSettings;
  samples: FirstTokenSamples;
  budget: HedgeBudget;
  silent: SilentRoutes;
  /** The first-token deadline of an attempt on `provider/model`: configured, learned (R-TT-1) or static. */
  firstTokenDeadlineMs(provider: string, model: string): number;
  /** R-TT-1: the deadline learned from the model's own first-token times; undefined until there are enough. */
  learnedDeadlineMs(provider: string, model: string): number | undefined;
}

/** Why a racing attempt was aborted: another attempt of the run reached first content first. */
export class HedgeLost extends Error {
  override readonly name = "HedgeLost";
  constructor() {
    super("another attempt of the run answered first (hedge_lost)");
  }
}

type Side = "first" | "rest";

interface Pair {
  parent: Lane;
  winner?: Side;
  abort: Record<Side, () => void>;
  /** Told once, when the race is decided. */
  decided(winner: Side): void;
}

/** Decides a race: `side` won, the other side is aborted at once. */
function decide(pair: Pair, side: Side): void {
  if (pair.winner !== undefined) return;
  pair.winner = side;
  pair.abort[other(side)]();
  pair.decided(side);
}

/** Where an attempt runs: the run itself, or one side of a race (and, through its parent, of every outer one). */
export interface Lane {
  pair?: Pair;
  side?: Side;
  /** The rest of a run just started as a hedge: its first attempt is the hedge. */
  hedgePending?: boolean;
}

/** One run's races: how many hedges it started (R-HG-1 `maxExtra`). */
export class HedgeRace {
  hedges = 0;
  readonly root: Lane = {};
  /** Failures of hedges that lost while the first attempt went on: listed among the run's attempts. */
  readonly lostHedgeFailures: { record: AttemptRecord; error: unknown; index?: number }[] = [];
}

/**
 * What a hedge loser is charged (cost honesty) when its provider stated no usage before it was closed: the
 * request's input is booked as its estimate — the cheap bound from the bytes when the facts are deferred (no parse for it).
 */
export function inputTokensEstimate(request: FitRequest | undefined): number | undefined {
  if (request === undefined) return undefined;
  return "bound" in request ? request.bound().inputTokens : request.inputTokens;
}

/** The lane lost one of the races it is part of: its attempts are being aborted. */
export function laneLost(lane: Lane | undefined): boolean {
  for (let at = lane; at?.pair; at = at.pair.parent) {
    if (at.pair.winner !== undefined && at.pair.winner !== at.side) return true;
  }
  return false;
}

/** Whether the attempt about to start on `lane` is the hedge itself (the first attempt of a raced rest). */
export function takeHedgeStart(lane: Lane | undefined): boolean {
  if (!lane?.hedgePending) return false;
  lane.hedgePending = false;
  return true;
}

function other(side: Side): Side {
  return side === "first" ? "rest" : "first";
}

/**
 * One attempt of a run with hedging: what it reported so far, and how to abort it when it loses. Its progress
 * is reported by the data plane through `context.upstreamProgress`.
 *
 * A loss aborts the attempt's own controller (the run guard's, bound with `abortWith`) rather than a second
 * controller linked to it: an attempt has one controller and one signal, with no listeners to link and release.
 */
export class RacingAttempt {
  heardBytes = false;
  hasContent = false;
  /** A plain call whose first content cannot be seen is never raced. */
  unwatched = false;
  lost = false;
  /** The input tokens the provider stated before the commit point, when it stated any (cost honesty). */
  statedInputTokens: number | undefined;
  #abort: ((reason: unknown) => void) | undefined;

  constructor(
    public lane: Lane,
    private readonly clock: Clock,
    private readonly startedAt: number,
    private readonly where: { provider: string; model: string },
    private readonly samples: FirstTokenSamples | undefined,
  ) {}

  readonly progress = (kind: UpstreamProgress): void => {
    if (kind === "bytes") this.heardBytes = true;
    else if (kind === "unwatched") this.unwatched = true;
    else this.claim();
  };

  readonly usage = (usage: { inputTokens: number }): void => {
    if (Number.isFinite(usage.inputTokens) && usage.inputTokens > 0) this.statedInputTokens = usage.inputTokens;
  };

  /** Binds the abort of the attempt's controller; an attempt that already lost is aborted at once. */
  abortWith(abort: (reason: unknown) => void): void {
    this.#abort = abort;
    if (this.lost) abort(new HedgeLost());
  }

  /**
   * The attempt reached first content. True when it wins every race it is part of (the others are aborted
   * now); false when it had already lost one — then it is aborted itself and must not reach the client.
   */
  claim(): boolean {
    if (this.hasContent) return !this.lost;
    this.hasContent = true;
    this.heardBytes = true;
    for (let lane = this.lane; lane.pair; lane = lane.pair.parent) {
      const { pair } = lane;
      if (pair.winner !== undefined && pair.winner !== lane.side) {
        this.lose();
        return false;
      }
    }
    for (let lane = this.lane; lane.pair; lane = lane.pair.parent) decide(lane.pair, lane.side as Side);
    // R-HG-2, R-TT-1: the evidence for when to hedge and how long to wait is what first content took.
    this.samples?.record(this.where.provider, this.where.model, this.clock.now() - this.startedAt);
    return true;
  }

  /** Aborts this attempt because another one won. */
  lose(): void {
    this.lost = true;
    this.#abort?.(new HedgeLost());
  }
}

/** How a raced attempt ended for the step that started it. */
export type RaceResult<T> =
  /** The attempt's own settlement decides (it won, raced nobody, or its hedge found nothing to call). */
  | { kind: "own"; settlement: AttemptSettlement<T> }
  /**
   * The rest of the run decides: the attempt lost (`lost`), or failed before first content while the hedge went
   * on (then its failure is recorded as usual, without the same-profile retry).
   */
  | { kind: "rest"; settlement: AttemptSettlement<T>; lost: boolean; pass: PassResult<T> };

export interface RaceInput<T> {
  hedging: HedgingDeps;
  race: HedgeRace;
  clock: Clock;
  events: EventSink;
  runId: string;
  agentId: string;
  provider: string;
  model: string;
  profileId: string | undefined;
  racer: RacingAttempt;
  attempt: Promise<AttemptSettlement<T>>;
  /**
   * Starts the rest of the run on `lane` (the next usable profile of the model, else the next candidate; never
   * this profile), aborted by `signal`; absent when there is nothing the run could do next.
   */
  startRest?: (lane: Lane, signal: AbortSignal) => Promise<PassResult<T>>;
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

/** Resolves true after `ms` on the clock, false when cancelled first. */
function timer(clock: Clock, ms: number): { fired: Promise<boolean>; cancel(): void } {
  let done: (fired: boolean) => void = () => {};
  const fired = new Promise<boolean>((resolve) => (done = resolve));
  const cancel = clock.setTimer(ms, () => done(true));
  return {
    fired,
    cancel: () => {
      cancel();
      done(false);
    },
  };
}

/**
 * Waits for a raced attempt: its own settlement, or — when it has no first content `hedgeAfter` after it started
 * and a hedge is allowed (R-HG-1 `maxExtra`, R-HG-3 budget) — the race between it and the rest of the run.
 */
export async function raceAttempt<T>(input: RaceInput<T>): Promise<RaceResult<T>> {
  const { hedging, race, racer } = input;
  const own = settle(input.attempt);
  if (!hedging.settings.enabled || input.startRest === undefined || race.hedges >= hedging.settings.maxExtra) {
    return { kind: "own", settlement: await input.attempt };
  }
  const afterMs = hedgeAfterMs({
    stats: hedging.samples.stats(input.provider, input.model),
    ttftDeadlineMs: hedging.firstTokenDeadlineMs(input.provider, input.model),
    configuredAfterMs: hedging.settings.afterMs,
  });
  const wait = timer(input.clock, afterMs);
  const first = await Promise.race([own.then(() => false), wait.fired]);
  wait.cancel();
  if (!first || racer.hasContent || racer.unwatched || race.hedges >= hedging.settings.maxExtra)
    return { kind: "own", settlement: await input.attempt };
  if (!hedging.budget.tryHedge(input.provider)) {
    emitHedge(input, "budget_denied", afterMs);
    return { kind: "own", settlement: await input.attempt };
  }
  race.hedges += 1;
  const restController = new AbortController();
  const pair: Pair = {
    parent: racer.lane,
    abort: { first: () => racer.lose(), rest: () => restController.abort(new HedgeLost()) },
    decided: (winner) => emitHedge(input, winner === "rest" ? "won" : "lost", afterMs),
  };
  racer.lane = { pair, side: "first" };
  emitHedge(input, "started", afterMs);
  const rest = settle(input.startRest({ pair, side: "rest", hedgePending: true }, restController.signal));

  const next = await Promise.race([own.then((settled) => ({ own: settled })), rest.then((settled) => ({ rest: settled }))]);
  if ("own" in next) {
    const settlement = await input.attempt;
    // A complete answer without a content report (an empty completion) wins too.
    if (settlement.kind === "ok") decide(pair, "first");
    if (pair.winner === "first") {
      await rest;
      return { kind: "own", settlement };
    }
    // Lost, or failed before any content while the hedge goes on: the rest of the run decides.
    const restResult = await rest;
    if (pair.winner === undefined) emitHedge(input, "lost", afterMs);
    if (!restResult.ok) throw restResult.error;
    return { kind: "rest", settlement, lost: pair.winner === "rest", pass: restResult.value };
  }

  const restResult = next.rest;
  if (restResult.ok && restResult.value.kind === "succeeded") {
    decide(pair, "rest");
    const settlement = await input.attempt;
    return { kind: "rest", settlement, lost: pair.winner === "rest", pass: restResult.value };
  }
  // The hedge lost, failed, or found nothing to call: the first attempt goes on alone.
  racer.lane = pair.parent;
  if (restResult.ok && restResult.value.kind === "exhausted" && !restResult.value.called) {
    // Nothing was called: no hedge happened, so its budget and its count are given back.
    race.hedges -= 1;
    hedging.budget.refund(input.provider);
  } else {
    if (restResult.ok) race.lostHedgeFailures.push(...restResult.value.failures);
    if (pair.winner === undefined) emitHedge(input, "lost", afterMs);
  }
  return { kind: "own", settlement: await input.attempt };
}

function emitHedge<T>(input: RaceInput<T>, outcome: HedgeOutcome, afterMs: number): void {
  input.events.emit({
    type: "hedge",
    runId: input.runId,
    agentId: input.agentId,
    provider: input.provider,
    model: input.model,
    profileId: input.profileId ?? null,
    outcome,
    afterMs: Math.round(afterMs),
  });
}
