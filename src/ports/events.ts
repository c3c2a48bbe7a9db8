/**
 * Logging port and the typed events of the runner. The runner emits events; one place (engine/) turns them
 * into log lines, listeners and metrics. Events and loggers must never carry secrets (R-OB-2): they name
 * profiles by id, never by key.
 */
import type { FailoverReason } from "../core/reasons.js";
import type { TraceHeadroomReading } from "../core/run-trace.js";
import type { UsageStats } from "../core/types.js";

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
  /** False when entries of `level` are dropped: callers skip building them (the gateway hot path). */
  isLevelEnabled?(level: LogLevel): boolean;
}

export const silentLogger: Logger = { log() {} };

export type FallbackDecision =
  | "candidate_failed"
  | "skip_candidate"
  | "probe_cooldown_candidate"
  /** R-FB-9: every candidate was kept out only by ladder cooldowns; the soonest-ending one runs anyway. */
  | "last_resort"
  | "candidate_succeeded"
  /** R-HG-1: the candidate's attempt had no first content after `hedgeAfter`; the rest of the run raced it. */
  | "hedge_started"
  /** R-HG-1: the candidate's attempt was aborted because a hedge answered first (no failure recorded). */
  | "hedge_lost";

/** A failover reason, or R-PO-8's: the candidate's profiles were all at their seat limits. */
export type DecisionReason = FailoverReason | "concurrency_limited";

export type FallbackStepOutcome = "next_fallback" | "succeeded" | "chain_exhausted";

/**
 * R-OB-1: one per candidate outcome. Every field is always present (`null` when unknown) so an exporter can
 * rely on the shape. Built only by `runner/decision-log.ts`.
 */
export interface ModelFallbackDecisionEvent {
  type: "model_fallback_decision";
  decision: FallbackDecision;
  runId: string;
  agentId: string;
  sessionId: string | null;
  /** `provider/model` the run was asked for (the selected model). */
  requestedModel: string;
  candidateModel: string;
  /** 1-based position of the candidate in the chain. */
  attemptIndex: number;
  /** Length of the chain. */
  attemptTotal: number;
  profileId: string | null;
  /** `concurrency_limited` (R-PO-8): skipped because every usable profile of the candidate was at its seat limit. */
  reason: DecisionReason | null;
  status: number | null;
  code: string | null;
  errorPreview: string | null;
  nextCandidate: string | null;
  isPrimary: boolean;
  /** The first failed candidate of the run, so the primary failure survives a failing last fallback. */
  fallbackStepFromModel: string | null;
  fallbackStepToModel: string | null;
  fallbackStepFromFailureReason: DecisionReason | null;
  fallbackStepFromFailureDetail: string | null;
  fallbackStepChainPosition: number;
  /** `null` only on a `probe_cooldown_candidate` or `last_resort` decision, whose outcome follows in the next event. */
  fallbackStepFinalOutcome: FallbackStepOutcome | null;
  /** R-ST-4: the candidate ran to continue a committed stream that failed (1-based); null otherwise. */
  continuation: number | null;
}

interface RunScoped {
  runId: string;
  agentId: string;
}

export interface RunStartedEvent extends RunScoped {
  type: "run_started";
  sessionId: string | null;
  requestedModel: string;
  chain: string[];
  selectionSource: string;
  /** Request facts for run traces (R-OB-4), when the caller knows them. */
  dialect?: string;
  stream?: boolean;
  estimatedInputTokens?: number;
}

export interface RunFinishedEvent extends RunScoped {
  type: "run_finished";
  sessionId: string | null;
  /** `content_filter`: the answer was the provider's refusal, returned as sent (R-GW-11). */
  outcome: "succeeded" | "failed" | "aborted" | "content_filter";
  provider: string | null;
  model: string | null;
  profileId: string | null;
  /** Candidate failures and skips before the outcome. */
  failedCandidates: number;
  durationMs: number;
  /** R-ST-4: continuations of a committed stream that failed; absent when none were made. */
  continuations?: number;
}

export interface AttemptStartedEvent extends RunScoped {
  type: "attempt_started";
  provider: string;
  model: string;
  profileId: string | null;
}

export interface AttemptFinishedEvent extends RunScoped {
  type: "attempt_finished";
  provider: string;
  model: string;
  profileId: string | null;
  outcome: "succeeded" | "failed" | "aborted";
  reason: FailoverReason | null;
  status: number | null;
  /** Upstream time: for a stream, until its first content reached the client. */
  durationMs: number;
  /** R-ST-5: the attempt's stream reached the client; the outcome is how the stream ended. */
  committed?: true;
  /** R-ST-4: the attempt continued a committed stream that failed (1-based). */
  continuation?: number;
  /** Measured facts for run traces (R-OB-4), present when the attempt learned them. */
  firstTokenMs?: number;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  /** Epoch ms the provider said the limit resets (Retry-After, reset headers, error body). */
  statedResetAt?: number;
  /** The upstream's error code or the connection's (`ECONNREFUSED`, `rate_limit_exceeded`); never a message. */
  code?: string;
  /** The attempt was a hedge raced beside a slow first attempt. */
  hedge?: true;
  /**
   * `inputTokens` is an estimate of the request's input: the attempt lost a hedge race before its provider stated
   * any usage (absent when the provider stated its input tokens before the close: then those are booked).
   */
  usageEstimated?: true;
}

/** R-HG-1, R-HG-3: what became of a hedge of a slow attempt (`started`, then `won` or `lost`), or none allowed. */
export type HedgeOutcome = "started" | "won" | "lost" | "budget_denied";

/** A hedge of the attempt on `provider/model` (the slow one): `detour_hedges_total` counts these. */
export interface HedgeEvent extends RunScoped {
  type: "hedge";
  provider: string;
  model: string;
  profileId: string | null;
  outcome: HedgeOutcome;
  /** How long the slow attempt had gone without first content when the hedge was decided. */
  afterMs: number;
}

/** A failure was written to a profile's usage stats (§5). */
export interface ProfileFailureRecordedEvent {
  type: "profile_failure_recorded";
  agentId: string;
  runId: string | null;
  provider: string;
  model: string | null;
  profileId: string;
  reason: FailoverReason;
  /** How long the profile is now unusable for this model (0 when no window opened). */
  cooldownMs: number;
  stats: UsageStats;
}

export interface ProfileRotatedEvent extends RunScoped {
  type: "profile_rotated";
  provider: string;
  model: string;
  fromProfileId: string;
  toProfileId: string;
  reason: FailoverReason;
}

/** R-RN-4: the same profile is retried after a jittered pause, no cooldown written. */
export interface TimeoutRetryScheduledEvent extends RunScoped {
  type: "timeout_retry_scheduled";
  provider: string;
  model: string;
  profileId: string;
  retry: number;
  maxRetries: number;
  delayMs: number;
}

/** R-RN-4: the retries are used up; the timeout is recorded and the profile rotated. */
export interface TimeoutRetriesExhaustedEvent extends RunScoped {
  type: "timeout_retries_exhausted";
  provider: string;
  model: string;
  profileId: string;
  maxRetries: number;
}

/** R-RN-4: a server error (500/502/504 or in-band) retries the same profile after a jittered pause, no cooldown written. */
export interface ServerErrorRetryScheduledEvent extends RunScoped {
  type: "server_error_retry_scheduled";
  provider: string;
  model: string;
  profileId: string;
  /** The upstream HTTP status; null for an in-band error. */
  status: number | null;
  retry: number;
  maxRetries: number;
  delayMs: number;
}

/** R-RN-4: the server-error retries are used up; the failure is recorded and the profile rotated. */
export interface ServerErrorRetriesExhaustedEvent extends RunScoped {
  type: "server_error_retries_exhausted";
  provider: string;
  model: string;
  profileId: string;
  status: number | null;
  maxRetries: number;
}

/** R-RN-6: a short provider-stated wait is waited out on the same profile. */
export interface ShortWaitEvent extends RunScoped {
  type: "short_wait";
  provider: string;
  model: string;
  profileId: string;
  reason: FailoverReason;
  waitMs: number;
}

/** R-RN-3: `overloadedBackoffMs` pause. */
export interface OverloadedBackoffEvent extends RunScoped {
  type: "overloaded_backoff";
  provider: string;
  model: string;
  profileId: string;
  waitMs: number;
}

/** R-RN-5: every profile of the provider is unusable for this model. */
export interface NoAvailableProfileEvent extends RunScoped {
  type: "no_available_profile";
  provider: string;
  model: string;
  reason: FailoverReason;
  until: number | null;
}

/** R-RA-2: every candidate is unusable and the soonest expiry is close enough to wait for. */
export interface CooldownWaitEvent extends RunScoped {
  type: "cooldown_wait";
  waitMs: number;
  until: number;
}

/** R-NT-1/R-NT-2: emitted once per state change, beside the result. */
export interface NoticeEvent extends RunScoped {
  type: "notice";
  sessionId: string | null;
  kind: "fallback" | "cleared";
  text: string;
  selectedModel: string;
  activeModel: string;
}

/** A session's owned override fields changed (R-SO-2, R-SO-3). */
export interface SessionOverrideEvent {
  type: "session_override";
  agentId: string;
  runId: string | null;
  sessionId: string;
  action: "fallback_persisted" | "fallback_rolled_back" | "fallback_cleared" | "auth_pin_written";
  /** Fields left alone because someone changed them meanwhile (narrow rollback). */
  conflicted: string[];
}

/**
 * R-PO-7: a nearly spent profile was passed over for one with headroom before any attempt — either the
 * order without headroom would have tried it first, or the session's auto pin moved off it.
 */
export interface HeadroomPassedOverEvent extends RunScoped {
  type: "headroom_passed_over";
  sessionId: string | null;
  provider: string;
  model: string;
  profileId: string;
  /** The profile with headroom the run starts with instead. */
  toProfileId: string | null;
  why: "below_min_remaining" | "window_status";
  /** The binding window (`requests`, `tokens`, `unified-5h`, `codex-primary`, …) and its state. */
  window: string;
  remainingShare: number | null;
  resetAt: number;
  /** The session's auto pin moved off the profile before this turn (R-PO-5 with R-PO-7). */
  pinMoved: boolean;
}

// --- seats (R-PO-8) ---

/** A profile at its seat limit was passed over before any call, like one without headroom. */
export interface ProfilePassedOverEvent extends RunScoped {
  type: "profile_passed_over";
  reason: "concurrency_limited";
  sessionId: string | null;
  provider: string;
  model: string;
  profileId: string;
  /** The profile tried instead; null when none was left for this candidate. */
  toProfileId: string | null;
  /** The seats the profile has now (its `maxConcurrent`, or a learned cap below it). */
  limit: number;
}

/** A 429 naming a concurrency limit lowered the profile's seats for a while, instead of cooling it down. */
export interface SeatCapLearnedEvent extends RunScoped {
  type: "seat_cap_learned";
  provider: string;
  profileId: string;
  /** The attempts that were in flight on the profile when it refused one more. */
  cap: number;
  until: number;
}

/** Every usable profile of every candidate was full: the request joined the line for a seat. */
export interface SeatQueueWaitEvent extends RunScoped {
  type: "seat_queue_wait";
  sessionId: string | null;
  profileIds: string[];
  /** Requests waiting in this process when it joined, itself included. */
  queueLength: number;
  /** When it stops waiting and gets 429 (epoch ms). */
  deadline: number;
}

/**
 * The answer's usage was priced (R-GW-7), after the run: run traces (R-OB-4) add the tokens and the cost to
 * the attempt that answered. `costUsd` is null when the model's prices are unknown.
 */
export interface UsageRecordedEvent extends RunScoped {
  type: "usage_recorded";
  provider: string;
  model: string;
  profileId: string | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
}

/**
 * An attempt's upstream answer stated rate-limit headroom (R-PO-7): run traces (R-OB-4) keep the readings on
 * that attempt. Emitted only when the headers held readings; numbers and statuses only, never a header value.
 */
export interface HeadroomReadEvent extends RunScoped {
  type: "headroom_read";
  provider: string;
  model: string;
  profileId: string;
  readings: TraceHeadroomReading[];
}

// --- state bookkeeping (R-SB-5) ---

/** Recording a success, a use or a spend failed in the store; the answer was delivered anyway (best effort). */
export interface StateBookkeepingFailedEvent {
  type: "state_bookkeeping_failed";
  agentId: string;
  operation: "recordSuccess" | "markUsed" | "recordSpend" | "takeSeat" | "renewSeat" | "releaseSeat";
  profileId: string;
  /** The store's error text (store errors name the backend, never a credential). */
  error: string;
}

export type DetourEvent =
  | ModelFallbackDecisionEvent
  | RunStartedEvent
  | RunFinishedEvent
  | AttemptStartedEvent
  | AttemptFinishedEvent
  | ProfileFailureRecordedEvent
  | ProfileRotatedEvent
  | TimeoutRetryScheduledEvent
  | TimeoutRetriesExhaustedEvent
  | ServerErrorRetryScheduledEvent
  | ServerErrorRetriesExhaustedEvent
  | ShortWaitEvent
  | OverloadedBackoffEvent
  | NoAvailableProfileEvent
  | CooldownWaitEvent
  | NoticeEvent
  | UsageRecordedEvent
  | HeadroomReadEvent
  | SessionOverrideEvent
  | HeadroomPassedOverEvent
  | ProfilePassedOverEvent
  | SeatCapLearnedEvent
  | SeatQueueWaitEvent
  | StateBookkeepingFailedEvent
  | HedgeEvent;

export type DetourEventType = DetourEvent["type"];
export type DetourEventOf<T extends DetourEventType> = Extract<DetourEvent, { type: T }>;

/** Where the runner sends its events. Emitting never throws into the runner. */
export interface EventSink {
  emit(event: DetourEvent): void;
}

export const discardEvents: EventSink = { emit() {} };
