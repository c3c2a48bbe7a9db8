/**
 * What the pipe asks of the engine: one run (`runWith`, the chain walk with its options) and the report of a
 * failure after the commit point (R-ST-2). The engine implements it (engine/create-detour.ts); the pipe only
 * sees this shape, so pipe/ never imports engine/ (DESIGN §1: engine composes the pipe, not the other way).
 */
import type { FitRequest } from "../core/fit.js";
import type { Classification, ModelRef } from "../core/types.js";
import type { AttemptFn, ContinuationPolicy, RunOutcome } from "../runner/attempt.js";

export interface RunTraceFacts {
  dialect?: string;
  stream?: boolean;
}

export interface RunWithOptions<T> {
  agentId?: string;
  /** No session key = no session state (overrides, pins, skip cache). */
  sessionKey?: string;
  /** `provider/model`, an alias, or absent for the agent's configured chain. */
  model?: string;
  /** The caller's own fallback list (R-CH-1; `[]` or "none" = no fallback). */
  fallbacks?: readonly string[] | "none";
  source?: "cron" | "heartbeat";
  /** A cron job's payload (R-CH-2): `payload.model` and `payload.fallbacks`. */
  cron?: { model?: string; fallbacks?: readonly string[] };
  /** A one-off user choice (`detour run --model`): strict, no fallback (R-CH-2). */
  strictModel?: boolean;
  /**
   * The models this kind of call can be made to at all (count_tokens: only Anthropic Messages providers have
   * a count endpoint). Others are left out of the chain before the run starts, so passing over them is not a
   * fallback: no notice, no fallback counted. When none is left the call fails with reason `incompatible`.
   */
  candidateFilter?: (candidate: ModelRef) => boolean;
  signal?: AbortSignal;
  /** Overrides the providers' attempt watchdog; a streaming caller passes its first-token timeout. */
  attemptTimeoutMs?: number;
  /** One attempt; a streaming caller resolves it at the commit point (R-ST-1). */
  attempt: AttemptFn<T>;
  /**
   * What the request needs (estimated input tokens, `max_tokens`, input modalities): candidates that cannot
   * take it are skipped before any call (R-FB-8). `detour.run` fills it in; absent = no pre-call fit.
   * Deferred facts (`deferRequestFacts`: a bound from the bytes, the exact facts on demand) spare a caller
   * holding unparsed bytes the parse whenever no candidate's known window or modalities could exclude it.
   */
  requestFacts?: FitRequest;
  /**
   * R-ST-4: an attempt that called `context.commit()` and then failed is continued on the next profile or
   * candidate (each later attempt sees `context.continuation`) up to `max` times; absent = the run ends with
   * that failure.
   */
  continuations?: ContinuationPolicy;
  /**
   * R-HG-1: the attempt reports its upstream's progress through `context.upstreamProgress` (first bytes, first
   * content), so an attempt without first content after the model's usual time is raced by the next one. Absent =
   * attempts are never raced (one that reports nothing would look silent until it finished).
   */
  reportsProgress?: boolean;
  /** What the run trace records about the request (R-OB-4): the client's wire format and whether it streams. */
  traceFacts?: RunTraceFacts;
}

export interface PostCommitFailureReport {
  agentId?: string;
  runId?: string;
  provider: string;
  model: string;
  /** Absent for a keyless provider (then nothing is recorded). */
  profileId?: string;
  error: unknown;
  /** The client went away: not a failure, nothing is recorded (R-EC-7). */
  callerAborted?: boolean;
}

export interface PostCommitFailureResult {
  classification?: Classification;
  recorded: boolean;
}

/** The two engine calls the pipe makes: `Detour` satisfies it. */
export interface RunnerDetour {
  runWith<T>(options: RunWithOptions<T>): Promise<RunOutcome<T>>;
  reportPostCommitFailure(report: PostCommitFailureReport): Promise<PostCommitFailureResult>;
}
