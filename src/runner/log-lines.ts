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

/** The level `describeEvent` gives an event, without building its line. */
export function eventLevel(event: DetourEvent): LogLevel {
  switch (event.type) {
    case "timeout_retry_scheduled":
    case "run_started":
    case "attempt_started":
    case "attempt_finished":
    case "usage_recorded":
    case "headroom_read":
    case "session_override":
      return "debug";
    case "no_available_profile":
      return "warn";
    case "run_finished":
      return event.outcome === "failed" ? "warn" : "debug";
    case "model_fallback_decision":
      return decisionLevel(event);
    default:
      return "info";
  }
}

export function describeEvent(event: DetourEvent): LogLine {
  const fields = fieldsOf(event);
  switch (event.type) {
    case "timeout_retry_scheduled":
      return {
        level: "debug",
        message: `Profile ${event.profileId} timed out. Retry ${event.retry}/${event.maxRetries} in ${event.delayMs}ms…`,
        fields,
      };
    case "timeout_retries_exhausted":
      return {
        level: "info",
        message: `Profile ${event.profileId} timed out (${event.maxRetries} retries exhausted). Trying next account...`,
        fields,
      };
    case "server_error_retry_scheduled":
      return {
        level: "debug",
        message: `Profile ${event.profileId} failed (${event.status ?? "server_error"}). Retry ${event.retry}/${event.maxRetries} in ${event.delayMs}ms…`,
        fields,
      };
    case "server_error_retries_exhausted":
      return {
        level: "info",
        message: `Profile ${event.profileId} failed (${event.status ?? "server_error"}) (${event.maxRetries} retries exhausted). Trying next account...`,
        fields,
      };
    case "profile_failure_recorded":
      return { level: "info", message: `Cooldown applied: ${event.cooldownMs}ms for ${event.reason} reason`, fields };
    case "no_available_profile":
      return {
        level: "warn",
        message: `No available auth profile for ${event.provider} (all in cooldown or unavailable).`,
        fields,
      };
    case "model_fallback_decision":
      return { level: decisionLevel(event), message: "model_fallback_decision", fields };
    case "notice":
      return { level: "info", message: event.text, fields };
    case "profile_rotated":
      return {
        level: "info",
        message: `Profile ${event.fromProfileId} failed (${event.reason}); rotating to ${event.toProfileId}`,
        fields,
      };
    case "short_wait":
      return {
        level: "info",
        message: `Profile ${event.profileId} hit a ${event.reason} that resets in ${event.waitMs}ms; waiting to retry it`,
        fields,
      };
    case "overloaded_backoff":
      return { level: "info", message: `Backing off ${event.waitMs}ms after an overloaded failure`, fields };
    case "cooldown_wait":
      return { level: "info", message: `Every candidate is cooling down; waiting ${event.waitMs}ms for the soonest`, fields };
    case "run_finished":
      return { level: event.outcome === "failed" ? "warn" : "debug", message: `Run ${event.outcome}`, fields };
    case "headroom_passed_over":
      return {
        level: "info",
        message:
          `Profile ${event.profileId} is nearly spent (${event.window}` +
          (event.remainingShare !== null ? ` ${Math.round(event.remainingShare * 1000) / 10}% left` : "") +
          `, ${event.why === "window_status" ? "window status warns" : "below auth.headroom.minRemaining"}); ` +
          `${event.pinMoved ? "moving the session pin" : "using"} ${event.toProfileId ?? "another profile"} before the limit`,
        fields,
      };
    case "profile_passed_over":
      return {
        level: "info",
        message:
          `Profile ${event.profileId} has all ${event.limit} seats taken (maxConcurrent); ` +
          (event.toProfileId ? `using ${event.toProfileId}` : `no other profile of ${event.provider} has a free seat`),
        fields,
      };
    case "seat_cap_learned":
      return {
        level: "info",
        message: `Profile ${event.profileId} refused one more request at once; holding it to ${event.cap} in flight for a while instead of cooling it down`,
        fields,
      };
    case "seat_queue_wait":
      return {
        level: "info",
        message: `Every usable profile is at its seat limit (${event.profileIds.join(", ")}); waiting in line (${event.queueLength} waiting)`,
        fields,
      };
    case "state_bookkeeping_failed":
      return {
        level: "warn",
        message: `Could not record ${event.operation} of profile ${event.profileId} in the state store; the answer was delivered`,
        fields,
      };
    case "hedge":
      return { level: event.outcome === "started" ? "debug" : "info", message: hedgeMessage(event), fields };
    case "run_started":
    case "attempt_started":
    case "attempt_finished":
    case "usage_recorded":
    case "headroom_read":
    case "session_override":
      return { level: "debug", message: event.type, fields };
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
