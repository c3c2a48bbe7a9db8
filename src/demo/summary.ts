/**
 * The closing numbers of the demo, computed from the events it reported — so the summary can only claim
 * what actually happened: requests, rotations, fallbacks, disables, primary probes and recoveries, turns
 * moved off a nearly spent key and the 429s a spent budget answered, how a fan-out of sub-agents used the
 * accounts' seats, the hedges that answered, and
 * per profile its final state, how often it answered, how it failed and how many calls its key made.
 */
import type { DemoEvent, ProfileSummary, SummaryEvent } from "./demo-events.js";
import type { ProfileState } from "./profile-states.js";

export interface SummaryInput {
  events: readonly DemoEvent[];
  finalProfiles: readonly ProfileState[];
  /** Chat calls each profile's key made to the mock providers. */
  upstreamCalls: Readonly<Record<string, number>>;
  skippedMs: number;
  elapsedMs: number;
}

export function summarize(input: SummaryInput): SummaryEvent {
  const answeredBy = new Map<string, number>();
  const failuresBy = new Map<string, Record<string, number>>();
  let requests = 0;
  let answered = 0;
  let rotations = 0;
  let rescuedStreams = 0;
  let fallbacks = 0;
  let disables = 0;
  let primaryProbes = 0;
  let recoveries = 0;
  let headroomMoves = 0;
  let budgetRejections = 0;
  let hedgesWon = 0;
  let subAgents = 0;
  let seatLimit: number | null = null;
  let maxInFlightPerAccount = 0;
  let accountsUsed = 0;
  let seatWaits = 0;
  let concurrency429s = 0;

  for (const event of input.events) {
    switch (event.type) {
      case "request":
        requests += 1;
        break;
      case "route":
        if (event.status === 200) answered += 1;
        if (event.status === 200 && event.continued) rescuedStreams += 1;
        if (event.probedPrimary) primaryProbes += 1;
        if (event.profileId !== null && event.status === 200) {
          answeredBy.set(event.profileId, (answeredBy.get(event.profileId) ?? 0) + 1);
        }
        for (const attempt of event.attempts) {
          if (attempt.outcome !== "failed" || attempt.profileId === null) continue;
          const failures = failuresBy.get(attempt.profileId) ?? {};
          const reason = attempt.reason ?? "unclassified";
          failures[reason] = (failures[reason] ?? 0) + 1;
          failuresBy.set(attempt.profileId, failures);
        }
        break;
      case "rotation":
        rotations += 1;
        break;
      case "seats":
        subAgents += event.subAgents;
        seatLimit = event.limit;
        maxInFlightPerAccount = Math.max(maxInFlightPerAccount, ...event.accounts.map((account) => account.maxInFlight));
        accountsUsed = Math.max(accountsUsed, event.accounts.filter((account) => account.answered > 0).length);
        seatWaits += event.waited;
        concurrency429s += event.accounts.reduce((sum, account) => sum + account.refused, 0);
        break;
      case "hedge":
        if (event.outcome === "won") hedgesWon += 1;
        break;
      case "headroom_passed_over":
        headroomMoves += 1;
        break;
      case "budget":
        budgetRejections += event.rejected ?? 0;
        break;
      case "profile_failure":
        if (event.lane === "disabled") disables += 1;
        break;
      case "notice":
        if (event.kind === "fallback") fallbacks += 1;
        else recoveries += 1;
        break;
      default:
        break;
    }
  }

  const profiles: ProfileSummary[] = input.finalProfiles.map((profile) => ({
    id: profile.id,
    lane: profile.lane,
    reason: profile.reason ?? null,
    remainingMs: profile.remainingMs ?? null,
    answered: answeredBy.get(profile.id) ?? 0,
    failures: failuresBy.get(profile.id) ?? {},
    upstreamCalls: input.upstreamCalls[profile.id] ?? 0,
  }));

  return {
    type: "summary",
    requests,
    answered,
    rotations,
    rescuedStreams,
    fallbacks,
    disables,
    primaryProbes,
    recoveries,
    headroomMoves,
    budgetRejections,
    subAgents,
    seatLimit,
    maxInFlightPerAccount,
    accountsUsed,
    seatWaits,
    concurrency429s,
    hedgesWon,
    skippedMs: input.skippedMs,
    elapsedMs: input.elapsedMs,
    profiles,
  };
}
