/**
 * The demo narrates what each step shows; this check makes sure the run really showed it. If the engine
 * ever stops rotating, steering before a limit, disabling, falling back or recovering as scripted, the demo says which part was
 * missing and exits non-zero instead of narrating something that did not happen.
 */
import type { SummaryEvent } from "./demo-events.js";

export function missingStorylineParts(summary: SummaryEvent): string[] {
  const missing: string[] = [];
  if (summary.answered !== summary.requests) missing.push(`${summary.requests - summary.answered} request(s) got no answer`);
  if (summary.headroomMoves < 1) missing.push("no turn moved off the nearly spent key before its limit");
  if (summary.budgetRejections > 0)
    missing.push(`a key was used past its limit: ${summary.budgetRejections} request(s) answered 429 by its budget`);
  if (summary.subAgents < 1) missing.push("no sub-agents fanned out over the accounts");
  else if (summary.accountsUsed < 2) missing.push("the sub-agents were not spread over the accounts");
  if (summary.seatLimit !== null && summary.maxInFlightPerAccount > summary.seatLimit) {
    missing.push(`an account had ${summary.maxInFlightPerAccount} requests in flight, over its ${summary.seatLimit} seats`);
  }
  if (summary.concurrency429s > 0)
    missing.push(`a provider refused ${summary.concurrency429s} request(s) for lack of a free seat (concurrency 429)`);
  if (summary.rotations < 1) missing.push("no rotation to the second key after the rate limit");
  if (summary.disables < 1) missing.push("no profile was disabled by the billing failure");
  if (summary.fallbacks < 1) missing.push("no model fallback notice during the outage");
  if (summary.primaryProbes < 1) missing.push("the primary was never re-probed");
  if (summary.recoveries < 1) missing.push("no cleared notice after the primary recovered");
  if (summary.rescuedStreams < 1) missing.push("the stream cut mid-answer was not finished by a continuation");
  if (summary.hedgesWon < 1) missing.push("no hedge answered for the provider that never sent a byte");
  return missing;
}
