/**
 * How runner events read as log lines — the one place the wording lives. Some lines are part of the
 * contract and are reproduced exactly (R-RN-4, R-RN-5); `model_fallback_decision` is logged as a structured
 * event with every field (R-OB-1).
 */
import type { DetourEvent, DetourEventOf, LogLevel, ModelFallbackDecisionEvent } from "../ports/events.js";

export interface LogLine {
  level: LogLevel;
  message: string;
  fields: Record<string, unknown>;
}

function fieldsOf(event: DetourEvent): Record<string, unknown> {
  const { type, ...rest } = event;
  return { event: type, ...rest };
}

/**
 * A healthy request's one decision is per-request detail (debug); failures, skips and a success after a
 * fallback are what an operator reads (info).
 */
function decisionLevel(event: ModelFallbackDecisionEvent): LogLevel {
  return event.decision === "candidate_succeeded" && event.fallbackStepFromModel === null ? "debug" : "info";
}

/**
 * Events logged by their type alone, at debug: per-request detail, every fact of it in the fields.
 */
const BARE_EVENT_TYPES = [
  "run_started",
  "attempt_started",
  "attempt_finished",
  "usage_recorded",
  "headroom_read",
  "session_override",
] as const;

type BareEvent = DetourEventOf<(typeof BARE_EVENT_TYPES)[number]>;

function isBare(event: DetourEvent): event is BareEvent {
  return (BARE_EVENT_TYPES as readonly string[]).includes(event.type);
}

/**
 * The level of an event's log line, decided without building the line: the event hub asks it first and skips
 * the line when the logger would drop it.
 */
export function eventLevel(event: DetourEvent): LogLevel {
  if (isBare(event)) return "debug";
  switch (event.type) {
    case "timeout_retry_scheduled":
    case "server_error_retry_scheduled":
      return "debug";
    case "no_available_profile":
    case "state_bookkeeping_failed":
      return "warn";
    case "run_finished":
      return event.outcome === "failed" ? "warn" : "debug";
    case "model_fallback_decision":
      return decisionLevel(event);
    case "hedge":
      return event.outcome === "started" ? "debug" : "info";
    default:
      return "info";
  }
}

export function describeEvent(event: DetourEvent): LogLine {
  return { level: eventLevel(event), message: isBare(event) ? event.type : messageOf(event), fields: fieldsOf(event) };
}

function messageOf(event: Exclude<DetourEvent, BareEvent>): string {
  switch (event.type) {
    case "timeout_retry_scheduled":
      return `Profile ${event.profileId} timed out. Retry ${event.retry}/${event.maxRetries} in ${event.delayMs}ms…`;
    case "timeout_retries_exhausted":
      return `Profile ${event.profileId} timed out (${event.maxRetries} retries exhausted). Trying next account...`;
    case "server_error_retry_scheduled":
      return `Profile ${event.profileId} failed (${event.status ?? "server_error"}). Retry ${event.retry}/${event.maxRetries} in ${event.delayMs}ms…`;
    case "server_error_retries_exhausted":
      return `Profile ${event.profileId} failed (${event.status ?? "server_error"}) (${event.maxRetries} retries exhausted). Trying next account...`;
    case "profile_failure_recorded":
      return `Cooldown applied: ${event.cooldownMs}ms for ${event.reason} reason`;
    case "no_available_profile":
      return `No available auth profile for ${event.provider} (all in cooldown or unavailable).`;
    case "model_fallback_decision":
      return "model_fallback_decision";
    case "notice":
      return event.text;
    case "profile_rotated":
      return `Profile ${event.fromProfileId} failed (${event.reason}); rotating to ${event.toProfileId}`;
    case "short_wait":
      return `Profile ${event.profileId} hit a ${event.reason} that resets in ${event.waitMs}ms; waiting to retry it`;
    case "overloaded_backoff":
      return `Backing off ${event.waitMs}ms after an overloaded failure`;
    case "cooldown_wait":
      return `Every candidate is cooling down; waiting ${event.waitMs}ms for the soonest`;
    case "run_finished":
      return `Run ${event.outcome}`;
    case "headroom_passed_over":
      return (
        `Profile ${event.profileId} is nearly spent (${event.window}` +
        (event.remainingShare !== null ? ` ${Math.round(event.remainingShare * 1000) / 10}% left` : "") +
        `, ${event.why === "window_status" ? "window status warns" : "below auth.headroom.minRemaining"}); ` +
        `${event.pinMoved ? "moving the session pin" : "using"} ${event.toProfileId ?? "another profile"} before the limit`
      );
    case "profile_passed_over":
      return (
        `Profile ${event.profileId} has all ${event.limit} seats taken (maxConcurrent); ` +
        (event.toProfileId ? `using ${event.toProfileId}` : `no other profile of ${event.provider} has a free seat`)
      );
    case "seat_cap_learned":
      return `Profile ${event.profileId} refused one more request at once; holding it to ${event.cap} in flight for a while instead of cooling it down`;
    case "seat_queue_wait":
      return `Every usable profile is at its seat limit (${event.profileIds.join(", ")}); waiting in line (${event.queueLength} waiting)`;
    case "state_bookkeeping_failed":
      return `Could not record ${event.operation} of profile ${event.profileId} in the state store; the answer was delivered`;
    case "hedge":
      return hedgeMessage(event);
  }
}

/** R-HG-1, R-HG-3: one line per hedge decision, naming the slow attempt. */
function hedgeMessage(event: DetourEventOf<"hedge">): string {
  const slow = `${event.provider}/${event.model}${event.profileId ? ` (${event.profileId})` : ""}`;
  switch (event.outcome) {
    case "started":
      return `No first token from ${slow} after ${event.afterMs}ms; racing the next attempt`;
    case "won":
      return `The hedge of ${slow} answered first; the slow attempt was aborted`;
    case "lost":
      return `${slow} answered before its hedge; the hedge was aborted`;
    case "budget_denied":
      return `No first token from ${slow} after ${event.afterMs}ms; hedge budget of ${event.provider} spent, waiting`;
  }
}
