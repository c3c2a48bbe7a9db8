/**
 * The shape of one attempt as the runner hands it to its caller, and of a run's outcome (SPEC §17).
 *
 * A streaming caller either resolves its attempt at the stream's commit point (first content, R-ST-1) and
 * reports a later failure with `detour.reportPostCommitFailure` (R-ST-2), or calls `context.commit()` at the
 * commit point and keeps the attempt pending until the stream ends: then the run settles when the stream
 * does (R-ST-5) and a failure after the commit is continued on the next profile or candidate (R-ST-4).
 */
import type { AttemptRecord } from "../core/errors.js";
import type { Credential } from "../core/types.js";

/** The profile an attempt runs with; absent for keyless providers (R-RN-1). */
export interface AttemptProfile {
  id: string;
  /** `auto` / `user` when the session pinned this profile (R-PO-5, R-PO-6). */
  pinned?: "auto" | "user";
}

export interface AttemptContext {
  provider: string;
  /** Model id without the provider prefix. */
  model: string;
  profile?: AttemptProfile;
  /** Same as `profile?.id`, flat for adapters that only need the id. */
  profileId?: string;
  credential?: Credential;
  /**
   * Aborts when the caller aborts, the attempt's watchdog fires, or the run's deadline passes. Pass it to
   * the upstream call: an attempt that ignores it is abandoned (its result is discarded) anyway.
   */
  signal: AbortSignal;
  runId: string;
  /** 1-based position of the candidate in the chain. */
  candidateIndex: number;
  /** The run is probing a candidate whose profiles are all cooling down (R-FB-3). */
  probe: boolean;
  /**
   * R-ST-1/R-ST-5: this attempt's streamed answer reached the client. The attempt watchdog and the run
   * deadline stop guarding it (only the caller's abort still does); keep the attempt pending until the stream
   * ends. Resolves with what the answer's headers need: who answers, the attempts before it, the notice.
   */
  commit(): Promise<CommittedRun>;
  /**
   * R-ST-4: 1-based number of the continuation this attempt makes, when an earlier attempt of the run
   * committed and then failed; absent for an ordinary attempt.
   */
  continuation?: number;
  /**
   * R-GW-11: the answer this attempt resolves with is the provider's refusal (Anthropic `stop_reason:
   * "refusal"`, OpenAI `finish_reason: "content_filter"` or a `refusal` message). Call it before resolving:
   * the answer is still returned as sent, but the run counts it as a `content_filter` outcome — it stops
   * there (no fallback) and the profile's failures are not cleared as a success would.
   */
  refused?(): void;
  /**
   * R-HG-1: the data plane reports the upstream's progress before the commit point — `bytes` at its first byte
   * of body, `content` at its first content (text or tool-call delta; a non-streamed answer's first token).
   * Present only for runs that race slow attempts; the first attempt of a run to report content wins, the
   * others are aborted through their signal. `unwatched`: the attempt makes a plain call whose first content
   * cannot be seen (a model that refuses to stream): it is not raced.
   */
  upstreamProgress?(kind: UpstreamProgress): void;
  /**
   * R-HG-1 (cost honesty): the data plane reports the input tokens the provider stated before the commit point
   * (Anthropic's `message_start` usage). An attempt that then loses its race is charged these instead of the
   * request's estimate. Present only for raced runs, like `upstreamProgress`.
   */
  upstreamUsage?(usage: { inputTokens: number }): void;
  /**
   * R-TT-1: how long this attempt may wait for its first content (configured, learned from the model's recent
   * first-token times, or the static default); absent = the caller's own default.
   */
  firstTokenTimeoutMs?: number;
}

/** What the data plane reports of an attempt before its commit point (R-HG-1). */
export type UpstreamProgress = "bytes" | "content" | "unwatched";

/** A run's outcome at the commit point of its stream: everything but the result (R-ST-1). */
export type CommittedRun = Omit<RunOutcome<never>, "result">;

/** R-ST-4: whether and how often a run may continue a committed stream that failed. */
export interface ContinuationPolicy {
  /** `gateway.streamContinuations`: continuations per response. */
  max: number;
  /** The caller can continue after this failure (e.g. no tool call was cut, the client is still there). */
  canContinue(error: unknown): boolean;
}

export type AttemptFn<T> = (context: AttemptContext) => Promise<T>;

/** What a successful run returns (R-FB-1). */
export interface RunOutcome<T> {
  result: T;
  provider: string;
  model: string;
  /** Absent when the provider ran without a credential. */
  profileId?: string;
  /** Candidates that failed or were skipped before the one that answered. */
  attempts: AttemptRecord[];
  /** R-NT-1 notice, present only when the run changed the session's fallback state. */
  notice?: string;
  runId: string;
  /** R-ST-4: continuations that completed a committed stream after it failed; absent when none. */
  continuations?: number;
  /** R-GW-11: the answer is the provider's refusal, returned as sent and counted as `content_filter`. */
  refused?: true;
}
