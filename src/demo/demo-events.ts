/**
 * What the demo reports, step by step. The live view renders these for people; `--json` prints each one as
 * a line of NDJSON so scripts and tests can follow the storyline. Profile ids only — never a key.
 */
import type { ProfileState } from "./profile-states.js";

export type StepId = "healthy" | "headroom" | "seats" | "rate-limit" | "billing" | "outage" | "recovery" | "stream-rescue" | "hedging";

/** One upstream call the engine made for a request. */
export interface AttemptView {
  provider: string;
  model: string;
  profileId: string | null;
  outcome: "succeeded" | "failed" | "aborted";
  reason: string | null;
  status: number | null;
  /** The attempt continued a stream that was cut after its first words. */
  continuation?: number;
  /** The attempt was a hedge, started beside an attempt that had sent nothing yet. */
  hedge?: true;
}

export interface DemoStartedEvent {
  type: "demo_started";
  fast: boolean;
  /** The temporary DETOUR_HOME (removed at the end). */
  workspace: string;
  gateway: string;
  mocks: { openai: string; anthropic: string };
  session: string;
  primaryModel: string;
  fallbackModel: string;
  profiles: { id: string; provider: string }[];
}

export interface StepEvent {
  type: "step";
  step: number;
  of: number;
  id: StepId;
  title: string;
  detail: string;
}

/** A fault was injected into (or removed from) a mock provider. */
export interface FaultEvent {
  type: "fault";
  provider: "openai" | "anthropic";
  /** The profile whose key the fault targets; absent = every key of the provider. */
  profileId?: string;
  fault: string;
  active: boolean;
  description: string;
}

/**
 * A rate-limit budget was given to (or lifted from) a key of a mock provider: its answers report what is
 * left in real rate-limit headers, and once spent it answers 429.
 */
export interface BudgetEvent {
  type: "budget";
  provider: "openai" | "anthropic";
  profileId: string;
  active: boolean;
  description: string;
  /** On lifting: requests the budget answered 429 while it was set (counted at the mock). */
  rejected?: number;
}

/**
 * Detour passed over a nearly spent profile for one with headroom before calling anyone — no 429 needed
 * (the engine's `headroom_passed_over` decision).
 */
export interface HeadroomPassedOverEvent {
  type: "headroom_passed_over";
  request: number;
  profileId: string;
  /** The profile the turn went to instead. */
  toProfileId: string | null;
  /** The window that is nearly spent (`requests`, `tokens`, `codex-primary`, …). */
  window: string;
  remainingShare: number | null;
  why: "below_min_remaining" | "window_status";
  /** How long until that window resets, on the demo clock. */
  resetsInMs: number;
  /** The session's pin moved off the profile before this turn. */
  pinMoved: boolean;
}

export interface ClockEvent {
  type: "clock";
  skippedMs: number;
  totalSkippedMs: number;
  why: string;
}

export interface RequestEvent {
  type: "request";
  request: number;
  step: number;
  session: string;
  model: string;
  message: string;
  note?: string;
}

export interface RouteEvent {
  type: "route";
  request: number;
  status: number;
  /** The model that answered (`x-detour-model`). */
  model: string | null;
  /** The profile that answered. */
  profileId: string | null;
  /** `x-detour-attempts`. */
  attemptCount: number | null;
  attempts: AttemptView[];
  notice: string | null;
  /** The session ran on a fallback and this request tried its primary again (R-SO-3). */
  probedPrimary: boolean;
  /** A streamed request: its answer was cut mid-stream and finished by a continuation. */
  continued?: boolean;
  /** Every account was at its seat limit: the request waited in line for a seat first. */
  waitedForSeat?: boolean;
  reply: string;
  elapsedMs: number;
}

export interface RotationEvent {
  type: "rotation";
  request: number;
  provider: string;
  model: string;
  from: string;
  to: string;
  reason: string;
}

export interface ProfileFailureEvent {
  type: "profile_failure";
  request: number;
  profileId: string;
  reason: string;
  /** The lane the failure put the profile in (`ready` when no window opened). */
  lane: ProfileState["lane"];
  until: number | null;
  remainingMs: number | null;
}

/** A hedge of a slow attempt: started after `afterMs` without a first byte, then `won` or `lost` (or not allowed). */
export interface HedgeDemoEvent {
  type: "hedge";
  request: number;
  /** The slow attempt's model and profile. */
  provider: string;
  model: string;
  profileId: string | null;
  outcome: "started" | "won" | "lost" | "budget_denied";
  afterMs: number;
}

/** One account's share of a fan-out of sub-agents: at most how many were in flight on it at once. */
export interface SeatAccountView {
  profileId: string;
  answered: number;
  /** The most requests in flight on the account's key at once, counted by the mock provider. */
  maxInFlight: number;
  /** Requests the provider refused with a concurrency 429 (the key had no free seat). */
  refused: number;
}

/** A fan-out of sub-agents sent at once, and how Detour spread them over the accounts' seats. */
export interface SeatsEvent {
  type: "seats";
  subAgents: number;
  answered: number;
  /** Seats per account (`maxConcurrent`). */
  limit: number;
  accounts: SeatAccountView[];
  /** Sub-agents that waited in line because every account was full. */
  waited: number;
  /** Times a full account was passed over for one with a free seat. */
  passedOver: number;
}

export interface NoticeEvent {
  type: "notice";
  request: number;
  kind: "fallback" | "cleared";
  text: string;
}

export interface ProfilesEvent {
  type: "profiles";
  now: number;
  profiles: ProfileState[];
}

export interface ProfileSummary {
  id: string;
  lane: ProfileState["lane"];
  reason: string | null;
  remainingMs: number | null;
  /** Requests this profile answered. */
  answered: number;
  /** Failed calls with this profile, by reason. */
  failures: Record<string, number>;
  /** Chat calls the mock provider received with this profile's key. */
  upstreamCalls: number;
}

export interface SummaryEvent {
  type: "summary";
  requests: number;
  answered: number;
  rotations: number;
  /** Streamed answers cut mid-stream and finished by a continuation. */
  rescuedStreams: number;
  fallbacks: number;
  disables: number;
  primaryProbes: number;
  recoveries: number;
  /** Turns Detour moved off a nearly spent profile before its limit. */
  headroomMoves: number;
  /** Requests a mock budget answered 429 (a key used past its limit). */
  budgetRejections: number;
  /** Sub-agents of the fan-out, the seats per account, and the most in flight on any one account. */
  subAgents: number;
  seatLimit: number | null;
  maxInFlightPerAccount: number;
  /** Accounts that answered at least one sub-agent. */
  accountsUsed: number;
  seatWaits: number;
  /** Concurrency 429s the providers answered during the fan-out. */
  concurrency429s: number;
  /** Requests a hedge answered while the attempt it raced had sent nothing. */
  hedgesWon: number;
  skippedMs: number;
  elapsedMs: number;
  profiles: ProfileSummary[];
}

export interface CleanupEvent {
  type: "cleanup";
  workspace: string;
  removed: boolean;
}

export type DemoEvent =
  | DemoStartedEvent
  | StepEvent
  | FaultEvent
  | BudgetEvent
  | ClockEvent
  | RequestEvent
  | RouteEvent
  | RotationEvent
  | HeadroomPassedOverEvent
  | ProfileFailureEvent
  | HedgeDemoEvent
  | SeatsEvent
  | NoticeEvent
  | ProfilesEvent
  | SummaryEvent
  | CleanupEvent;

/** Where the demo sends its events: the live view or NDJSON. */
export interface DemoSink {
  emit(event: DemoEvent): void;
  /**
   * The demo clock moved while time is being skipped, for views that animate timers. Optional: NDJSON
   * output records only the skip itself.
   */
  tick?(now: number): void;
}
