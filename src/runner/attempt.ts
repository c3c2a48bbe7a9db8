/**
 * The shape of one attempt as the runner hands it to its caller, and of a run's outcome (SPEC §17).
 *
 * A streaming caller resolves its attempt at the stream's commit point (first content, R-ST-1): everything
 * before that fails over like any attempt; a failure after it is reported with
 * `detour.reportPostCommitFailure` and recorded on the profile (R-ST-2).
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
}
