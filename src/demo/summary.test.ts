import { describe, expect, it } from "vitest";
import type { DemoEvent, RouteEvent } from "./demo-events.js";
import { missingStorylineParts } from "./storyline-check.js";
import { summarize } from "./summary.js";

function route(request: number, overrides: Partial<RouteEvent>): RouteEvent {
  return {
    type: "route",
    request,
    status: 200,
    model: "openai/gpt-4o-mini",
    profileId: "openai:alpha",
    attemptCount: 1,
    attempts: [],
    notice: null,
    probedPrimary: false,
    reply: "",
    elapsedMs: 1,
    ...overrides,
  };
}

const failed = (profileId: string, reason: string) =>
  ({ provider: "openai", model: "gpt-4o-mini", profileId, outcome: "failed", reason, status: 429 }) as const;

const EVENTS: DemoEvent[] = [
  { type: "request", request: 1, step: 1, session: "s", model: "openai/gpt-4o-mini", message: "a" },
  route(1, {}),
  { type: "budget", provider: "openai", profileId: "openai:alpha", active: true, description: "nearly spent" },
  { type: "request", request: 5, step: 2, session: "t", model: "openai/gpt-4o-mini", message: "e" },
  {
    type: "headroom_passed_over",
    request: 5,
    profileId: "openai:alpha",
    toProfileId: "openai:beta",
    window: "requests",
    remainingShare: 0.03,
    why: "below_min_remaining",
    resetsInMs: 59_000,
    pinMoved: true,
  },
  route(5, { profileId: "openai:beta" }),
  { type: "budget", provider: "openai", profileId: "openai:alpha", active: false, description: "lifted", rejected: 0 },
  { type: "request", request: 2, step: 2, session: "s", model: "openai/gpt-4o-mini", message: "b" },
  { type: "profile_failure", request: 2, profileId: "openai:alpha", reason: "rate_limit", lane: "blocked", until: 5, remainingMs: 5 },
  { type: "rotation", request: 2, provider: "openai", model: "gpt-4o-mini", from: "openai:alpha", to: "openai:beta", reason: "rate_limit" },
  route(2, { profileId: "openai:beta", attempts: [failed("openai:alpha", "rate_limit")] }),
  { type: "request", request: 3, step: 3, session: "s", model: "openai/gpt-4o-mini", message: "c" },
  { type: "profile_failure", request: 3, profileId: "openai:beta", reason: "billing", lane: "disabled", until: 9, remainingMs: 9 },
  route(3, {
    model: "anthropic/claude",
    profileId: "anthropic:main",
    attempts: [failed("openai:beta", "billing")],
    notice: "↪️ Model Fallback: x",
  }),
  { type: "notice", request: 3, kind: "fallback", text: "↪️ Model Fallback: x" },
  { type: "request", request: 4, step: 4, session: "s", model: "openai/gpt-4o-mini", message: "d" },
  route(4, { probedPrimary: true, notice: "↪️ Model Fallback cleared: y" }),
  { type: "notice", request: 4, kind: "cleared", text: "↪️ Model Fallback cleared: y" },
  { type: "request", request: 6, step: 7, session: "s", model: "openai/gpt-4o-mini", message: "f" },
  route(6, { model: "anthropic/claude", profileId: "anthropic:main", continued: true, attempts: [failed("openai:alpha", "timeout")] }),
  {
    type: "seats",
    subAgents: 8,
    answered: 8,
    limit: 2,
    accounts: [
      { profileId: "openai:alpha", answered: 4, maxInFlight: 2, refused: 0 },
      { profileId: "openai:beta", answered: 2, maxInFlight: 1, refused: 0 },
      { profileId: "anthropic:main", answered: 0, maxInFlight: 0, refused: 0 },
    ],
    waited: 2,
    passedOver: 5,
  },
  { type: "hedge", request: 6, provider: "openai", model: "gpt-4o-mini", profileId: "openai:alpha", outcome: "started", afterMs: 5_000 },
  { type: "hedge", request: 6, provider: "openai", model: "gpt-4o-mini", profileId: "openai:alpha", outcome: "won", afterMs: 5_000 },
];

const FINAL = [
  { id: "openai:alpha", provider: "openai", lane: "ready", errorCount: 0 },
  { id: "openai:beta", provider: "openai", lane: "disabled", reason: "billing", until: 9, remainingMs: 9, errorCount: 1 },
] as const;

describe("summarize", () => {
  it("R-CL-2: counts requests, headroom moves, rotations, fallbacks, disables, probes and recoveries from the reported events", () => {
    const summary = summarize({
      events: EVENTS,
      finalProfiles: FINAL,
      upstreamCalls: { "openai:alpha": 4, "openai:beta": 2 },
      skippedMs: 300_000,
      elapsedMs: 1_234,
    });
    expect(summary).toMatchObject({
      type: "summary",
      requests: 6,
      answered: 6,
      headroomMoves: 1,
      budgetRejections: 0,
      rotations: 1,
      rescuedStreams: 1,
      fallbacks: 1,
      disables: 1,
      primaryProbes: 1,
      recoveries: 1,
      hedgesWon: 1,
      subAgents: 8,
      seatLimit: 2,
      maxInFlightPerAccount: 2,
      accountsUsed: 2,
      seatWaits: 2,
      concurrency429s: 0,
      skippedMs: 300_000,
      elapsedMs: 1_234,
    });
    expect(summary.profiles).toEqual([
      {
        id: "openai:alpha",
        lane: "ready",
        reason: null,
        remainingMs: null,
        answered: 2,
        failures: { rate_limit: 1, timeout: 1 },
        upstreamCalls: 4,
      },
      { id: "openai:beta", lane: "disabled", reason: "billing", remainingMs: 9, answered: 2, failures: { billing: 1 }, upstreamCalls: 2 },
    ]);
    expect(missingStorylineParts(summary)).toEqual([]);
  });

  it("R-PO-7: a turn that reached a spent budget's 429 fails the storyline, even when a move was seen", () => {
    const summary = summarize({
      events: EVENTS.map((event) => (event.type === "budget" && !event.active ? { ...event, rejected: 2 } : event)),
      finalProfiles: FINAL,
      upstreamCalls: {},
      skippedMs: 0,
      elapsedMs: 0,
    });
    expect(summary).toMatchObject({ headroomMoves: 1, budgetRejections: 2 });
    expect(missingStorylineParts(summary)).toEqual(["a key was used past its limit: 2 request(s) answered 429 by its budget"]);
  });

  it("R-PO-8: an account over its seats, a concurrency 429 or a fan-out on one account fails the storyline", () => {
    const summary = summarize({
      events: EVENTS.map((event) =>
        event.type === "seats" ? { ...event, accounts: [{ profileId: "openai:alpha", answered: 8, maxInFlight: 3, refused: 1 }] } : event,
      ),
      finalProfiles: FINAL,
      upstreamCalls: {},
      skippedMs: 0,
      elapsedMs: 0,
    });
    expect(summary).toMatchObject({ maxInFlightPerAccount: 3, concurrency429s: 1, accountsUsed: 1 });
    expect(missingStorylineParts(summary)).toEqual([
      "the sub-agents were not spread over the accounts",
      "an account had 3 requests in flight, over its 2 seats",
      "a provider refused 1 request(s) for lack of a free seat (concurrency 429)",
    ]);
  });

  it("R-CL-2: a run that did not show a part of the storyline is reported, part by part", () => {
    const summary = summarize({
      events: EVENTS.filter((event) => event.type === "request" || event.type === "route").map((event) =>
        event.type === "route" ? { ...event, probedPrimary: false, continued: false, status: event.request === 4 ? 503 : 200 } : event,
      ),
      finalProfiles: [],
      upstreamCalls: {},
      skippedMs: 0,
      elapsedMs: 0,
    });
    expect(missingStorylineParts(summary)).toEqual([
      "1 request(s) got no answer",
      "no turn moved off the nearly spent key before its limit",
      "no sub-agents fanned out over the accounts",
      "no rotation to the second key after the rate limit",
      "no profile was disabled by the billing failure",
      "no model fallback notice during the outage",
      "the primary was never re-probed",
      "no cleared notice after the primary recovered",
      "the stream cut mid-answer was not finished by a continuation",
      "no hedge answered for the provider that never sent a byte",
    ]);
  });
});
