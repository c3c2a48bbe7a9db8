/** The state one fallback run carries from candidate to candidate (shared by the runner's modules). */
import type { AttemptRecord } from "../core/errors.js";
import type { FitRequest } from "../core/fit.js";
import type { Selection } from "../core/selection-source.js";
import type { ModelRef, SessionEntry } from "../core/types.js";
import type { AttemptFn, CommittedRun, ContinuationPolicy } from "./attempt.js";
import type { DecisionLog } from "./decision-log.js";
import type { HedgeRace, Lane } from "./hedge-race.js";
import type { RunProbeSlots } from "./probes.js";
import type { RunGuard } from "./run-guard.js";
import type { RunnerDeps } from "./runner-deps.js";

export interface ModelFallbackRunInput<T> {
  runId: string;
  sessionKey?: string;
  /** From `core/selection-source.resolveSelection` (R-CH-1, R-CH-2). */
  selection: Selection;
  signal?: AbortSignal;
  attempt: AttemptFn<T>;
  /** Overrides every provider's attempt watchdog (a streaming caller passes its first-token timeout). */
  attemptTimeoutMs?: number;
  /**
   * Write fallback overrides and auth pins to the session (default true with a session). Cron and heartbeat
   * runs pass false: their model is a job choice, not the conversation's (R-CH-2).
   */
  persistSession?: boolean;
  /** What the pre-call fit knows about the request (R-FB-8), or deferred facts; absent = no fit check before calling. */
  request?: FitRequest;
  /** R-ST-4: continuing committed streams that failed; absent = a post-commit failure ends the run. */
  continuations?: ContinuationPolicy;
  /**
   * R-HG-1: the attempts report their progress (`context.upstreamProgress`), so a slow one can be raced; absent =
   * the run never hedges (an attempt that reports nothing would look silent until it finished).
   */
  reportsProgress?: boolean;
  /** Request facts only the caller knows, for run traces (R-OB-4): the client's wire format, streaming. */
  traceFacts?: { dialect?: string; stream?: boolean };
}

/** R-ST-1, R-ST-4: the run's stream: its first commit's outcome and the continuations made since. */
export interface StreamRunState {
  committed?: CommittedRun;
  /** Committed streams that failed and were handed on for continuation (the budget's count). */
  continuations: number;
  /** The highest continuation an attempt actually ran for (what `run_finished` reports). */
  continuationsAttempted: number;
  policy?: ContinuationPolicy;
}

export interface RunState<T> {
  deps: RunnerDeps;
  input: ModelFallbackRunInput<T>;
  guard: RunGuard;
  chain: readonly ModelRef[];
  /** The model the user or config selected: the origin while the session is on an auto fallback. */
  selected: ModelRef;
  /** Index 0 of the chain is the 5-minute probe of the auto fallback's origin (R-SO-3). */
  originProbe: boolean;
  sessionAtStart?: SessionEntry;
  persist: boolean;
  log: DecisionLog;
  slots: RunProbeSlots;
  timeoutRetries: Map<string, number>;
  /** R-RN-6: profiles whose short stated wait this run already waited out (once per run). */
  shortWaited: Set<string | undefined>;
  /** R-TT-2: providers this run could not reach at all (DNS, refused, TLS): never waited for. */
  unreachable: Set<string>;
  stream: StreamRunState;
  /** R-HG-1: the run's races; absent when its attempts are not raced. */
  race?: HedgeRace;
  /** The side of a race this part of the run runs on (the run itself: `race.root`). */
  lane?: Lane;
  /** Profiles racing elsewhere in the run: a hedge never runs on them (R-HG-1). */
  excluded?: ReadonlySet<string>;
}

export interface Failure {
  record: AttemptRecord;
  error: unknown;
  /** Position in the chain of the candidate it belongs to. */
  index?: number;
}

export type PassResult<T> =
  | {
      kind: "succeeded";
      result: T;
      index: number;
      profileId?: string;
      failures: Failure[];
      /** The user's live switch (R-FB-7) led here: their choice, not a fallback, so no notice. */
      viaLiveSwitch: boolean;
      /** R-GW-11: the answer is a refusal. */
      refused?: true;
    }
  | {
      kind: "exhausted";
      failures: Failure[];
      /** Some candidate reached an upstream call in this pass. */
      called: boolean;
      /** Candidates skipped because every profile of their provider was unusable (R-FB-3). */
      cooldownSkips: number[];
      /** R-PO-8: profiles passed over for want of a seat; the run waits in line for one of them. */
      seatsFull: string[];
    };

/** The common fields of a session event of this run. */
export function sessionBase<T>(deps: RunnerDeps, input: ModelFallbackRunInput<T>) {
  return { agentId: deps.agentId, runId: input.runId, sessionId: input.sessionKey ?? "" };
}
