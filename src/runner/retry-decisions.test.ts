import { describe, expect, it } from "vitest";
import { REASON_POLICY } from "../core/reasons.js";
import type { CooldownSettings } from "../core/types.js";
import { SeededRandom } from "../testing/seeded-random.js";
import { decideRotation, decideSameProfileRetry, jitteredDelayMs, statedWaitJitterMs } from "./retry-decisions.js";

const FAILOVER = {
  retrySameProfileOnTimeout: 1,
  retrySameProfileOnServerError: 1,
  retryBackoffMs: [300, 1200] as const,
  shortWaitSeconds: 3,
  waitForCooldownMaxSeconds: 10,
};
const COOLDOWNS: CooldownSettings = {
  billingBackoffHours: 5,
  billingBackoffHoursByProvider: {},
  billingMaxHours: 24,
  authPermanentBackoffMinutes: 10,
  authPermanentMaxMinutes: 60,
  failureWindowHours: 24,
  overloadedProfileRotations: 1,
  overloadedBackoffMs: 250,
  rateLimitedProfileRotations: 1,
  ladderSeconds: [30, 60, 300],
  timeoutLadderSeconds: [10, 20, 40, 80, 160, 300],
};

function retry(reason: keyof typeof REASON_POLICY, extra: Partial<Parameters<typeof decideSameProfileRetry>[0]> = {}) {
  return decideSameProfileRetry({
    policy: REASON_POLICY[reason],
    classification: { reason, preview: "" },
    now: 0,
    gateRetriesUsed: 0,
    modelFailover: FAILOVER,
    random: new SeededRandom(3),
    laterProfiles: 0,
    alreadyShortWaited: false,
    statedResetTrusted: true,
    hasFallback: true,
    ...extra,
  });
}

/** A stated wait as the helper's Random (seed 3, first draw) jitters it. */
const jittered = (waitMs: number) => waitMs + statedWaitJitterMs(waitMs, new SeededRandom(3));

describe("retry decisions", () => {
  it("R-RN-4: a timeout retries until the gate is used up; 0 disables it; rate limits never take it", () => {
    expect(retry("timeout")).toMatchObject({ kind: "gate_retry", retry: 1, maxRetries: 1 });
    expect(retry("timeout", { gateRetriesUsed: 1 })).toEqual({ kind: "none", retriesExhausted: 1 });
    expect(retry("timeout", { modelFailover: { ...FAILOVER, retrySameProfileOnTimeout: 0 } })).toEqual({ kind: "none" });
    expect(retry("rate_limit")).toEqual({ kind: "none" });
  });

  it("R-RN-4: a server error takes the gate with retrySameProfileOnServerError; overloaded never does", () => {
    expect(retry("server_error")).toMatchObject({ kind: "gate_retry", retry: 1, maxRetries: 1 });
    expect(retry("server_error", { gateRetriesUsed: 1 })).toEqual({ kind: "none", retriesExhausted: 1 });
    const twice = { ...FAILOVER, retrySameProfileOnServerError: 2 };
    expect(retry("server_error", { gateRetriesUsed: 1, modelFailover: twice })).toMatchObject({
      kind: "gate_retry",
      retry: 2,
      maxRetries: 2,
    });
    const off = { ...FAILOVER, retrySameProfileOnServerError: 0 };
    expect(retry("server_error", { modelFailover: off })).toEqual({ kind: "none" });
    // The server-error key does not reach timeouts, and overloaded (503/529) cools down at once.
    expect(retry("timeout", { modelFailover: off })).toMatchObject({ kind: "gate_retry" });
    expect(retry("overloaded")).toEqual({ kind: "none" });
  });

  it("R-CD-6: a stated reset that is no longer trusted is not waited out", () => {
    const stated = { reason: "rate_limit" as const, preview: "", retryAfterMs: 1_000 };
    expect(retry("rate_limit", { classification: stated })).toEqual({ kind: "short_wait", waitMs: 1_000 });
    expect(retry("rate_limit", { classification: stated, statedResetTrusted: false })).toEqual({ kind: "none" });
  });

  it("R-FB-9: with no fallback a short stated wait is waited out even when trust-once no longer trusts it", () => {
    const stated = { reason: "rate_limit" as const, preview: "", retryAfterMs: 1_000 };
    const untrusted = { classification: stated, statedResetTrusted: false, hasFallback: false };
    expect(retry("rate_limit", untrusted)).toEqual({ kind: "short_wait", waitMs: jittered(1_000) });
    // Still once per profile and only for a short stated time.
    expect(retry("rate_limit", { ...untrusted, alreadyShortWaited: true })).toEqual({ kind: "none" });
    expect(retry("rate_limit", { ...untrusted, classification: { ...stated, retryAfterMs: 3_001 } })).toEqual({ kind: "none" });
  });

  it("R-RN-6: the jitter adds up to a quarter of the wait, at most 500 ms, and never takes any off", () => {
    expect(statedWaitJitterMs(1_000, { next: () => 0 })).toBe(0);
    expect(statedWaitJitterMs(1_000, { next: () => 0.999999 })).toBe(250);
    expect(statedWaitJitterMs(8_000, { next: () => 0.999999 })).toBe(500);
    expect(statedWaitJitterMs(-5, { next: () => 0.5 })).toBe(0);
    // Requests that waited for the same second spread over a quarter of it.
    const random = new SeededRandom(11);
    const landings = new Set(Array.from({ length: 20 }, () => statedWaitJitterMs(1_000, random)));
    expect(landings.size).toBeGreaterThan(15);
  });

  it("R-RN-4: the jitter is uniform over retryBackoffMs", () => {
    const random = { next: () => 0.5 };
    expect(jitteredDelayMs([300, 1200], random)).toBe(750);
    expect(jitteredDelayMs([300, 1200], { next: () => 0 })).toBe(300);
    expect(jitteredDelayMs([300, 1200], { next: () => 0.999999 })).toBe(1200);
  });

  it("R-RN-6: a short stated wait on the last profile, once; not with other profiles left, not too long", () => {
    const stated = { reason: "rate_limit" as const, preview: "", retryAfterMs: 2_000 };
    expect(retry("rate_limit", { classification: stated })).toEqual({ kind: "short_wait", waitMs: 2_000 });
    expect(retry("rate_limit", { classification: { ...stated, resetAt: 1_500 } })).toEqual({ kind: "short_wait", waitMs: 1_500 });
    // With no fallback, concurrent requests wait for the same moment: the wait is jittered.
    expect(retry("rate_limit", { classification: stated, hasFallback: false })).toEqual({ kind: "short_wait", waitMs: jittered(2_000) });
    expect(retry("rate_limit", { classification: stated, laterProfiles: 1 })).toEqual({ kind: "none" });
    expect(retry("rate_limit", { classification: stated, alreadyShortWaited: true })).toEqual({ kind: "none" });
    expect(retry("rate_limit", { classification: { ...stated, retryAfterMs: 3_001 } })).toEqual({ kind: "none" });
    expect(retry("auth", { classification: { ...stated, reason: "auth" } })).toEqual({ kind: "none" });
    expect(
      retry("overloaded", { classification: { ...stated, reason: "overloaded" }, modelFailover: { ...FAILOVER, shortWaitSeconds: 0 } }),
    ).toEqual({ kind: "none" });
  });

  it("R-RN-3: rotation caps only with a fallback; the overloaded pause precedes rotation and escalation", () => {
    const decide = (reason: keyof typeof REASON_POLICY, hasFallback: boolean, rotationsDone: number, hasNextProfile = true) =>
      decideRotation({ policy: REASON_POLICY[reason], hasFallback, hasNextProfile, rotationsDone, cooldowns: COOLDOWNS });
    expect(decide("rate_limit", true, 0)).toEqual({ kind: "rotate", pauseMs: 0 });
    expect(decide("rate_limit", true, 1)).toEqual({ kind: "fail", pauseMs: 0 });
    expect(decide("rate_limit", false, 5)).toEqual({ kind: "rotate", pauseMs: 0 });
    expect(decide("overloaded", true, 0)).toEqual({ kind: "rotate", pauseMs: 250 });
    expect(decide("overloaded", true, 1)).toEqual({ kind: "fail", pauseMs: 250 });
    expect(decide("overloaded", false, 0, false)).toEqual({ kind: "fail", pauseMs: 0 });
    expect(decide("auth", true, 9)).toEqual({ kind: "rotate", pauseMs: 0 });
  });
});
