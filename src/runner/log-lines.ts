/**
 * How runner events read as log lines — the one place the wording lives. Some lines are part of the
 * contract and are reproduced exactly (R-RN-4, R-RN-5); `model_fallback_decision` is logged as a structured
 * event with every field (R-OB-1).
 */
import type { DetourEvent, LogLevel } from "../ports/events.js";

export interface LogLine {
  level: LogLevel;
  message: string;
  fields: Record<string, unknown>;
}

function fieldsOf(event: DetourEvent): Record<string, unknown> {
  const { type, ...rest } = event;
  return { event: type, ...rest };
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
    case "profile_failure_recorded":
      return { level: "info", message: `Cooldown applied: ${event.cooldownMs}ms for ${event.reason} reason`, fields };
    case "no_available_profile":
      return {
        level: "warn",
        message: `No available auth profile for ${event.provider} (all in cooldown or unavailable).`,
        fields,
      };
    case "model_fallback_decision":
      return { level: "info", message: "model_fallback_decision", fields };
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
    case "state_bookkeeping_failed":
      return {
        level: "warn",
        message: `Could not record ${event.operation} of profile ${event.profileId} in the state store; the answer was delivered`,
        fields,
      };
    case "run_started":
    case "attempt_started":
    case "attempt_finished":
    case "session_override":
      return { level: "debug", message: event.type, fields };
  }
}
