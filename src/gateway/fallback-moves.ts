/**
 * What counts as "a fallback", one definition for every place that counts them (`detour_fallbacks_total`,
 * the dashboard's chart): a candidate failed or was skipped and the run moved on to the next model of the
 * chain. A return to the selected model after its probe (the "cleared" notice), a sticky turn on an auto
 * fallback, and a continuation of a cut stream on another profile are not moves to a fallback.
 */
import type { ModelFallbackDecisionEvent } from "../ports/events.js";

export function isFallbackMove(event: ModelFallbackDecisionEvent): boolean {
  return event.fallbackStepFinalOutcome === "next_fallback" && event.nextCandidate !== null;
}
