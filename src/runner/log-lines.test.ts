import { describe, expect, it } from "vitest";
import { describeEvent, eventLevel } from "./log-lines.js";

const base = { runId: "r1", agentId: "main", provider: "openai-codex", model: "gpt-5.2" };

describe("runner log lines", () => {
  it("R-RN-4: the retry, exhausted and cooldown lines read exactly as specified", () => {
    expect(
      describeEvent({ type: "timeout_retry_scheduled", ...base, profileId: "openai-codex:default", retry: 1, maxRetries: 1, delayMs: 847 })
        .message,
    ).toBe("Profile openai-codex:default timed out. Retry 1/1 in 847ms…");
    expect(describeEvent({ type: "timeout_retries_exhausted", ...base, profileId: "openai-codex:default", maxRetries: 1 }).message).toBe(
      "Profile openai-codex:default timed out (1 retries exhausted). Trying next account...",
    );
    expect(
      describeEvent({
        type: "profile_failure_recorded",
        agentId: "main",
        runId: "r1",
        provider: "openai-codex",
        model: "gpt-5.2",
        profileId: "openai-codex:default",
        reason: "timeout",
        cooldownMs: 10_000,
        stats: {},
      }).message,
    ).toBe("Cooldown applied: 10000ms for timeout reason");
  });

  it("R-RN-4: server errors log the same lines with the status", () => {
    const where = { ...base, profileId: "openai-codex:default" };
    expect(
      describeEvent({ type: "server_error_retry_scheduled", ...where, status: 502, retry: 1, maxRetries: 1, delayMs: 612 }).message,
    ).toBe("Profile openai-codex:default failed (502). Retry 1/1 in 612ms…");
    expect(describeEvent({ type: "server_error_retries_exhausted", ...where, status: 500, maxRetries: 1 }).message).toBe(
      "Profile openai-codex:default failed (500) (1 retries exhausted). Trying next account...",
    );
    expect(
      describeEvent({ type: "server_error_retry_scheduled", ...where, status: null, retry: 1, maxRetries: 2, delayMs: 300 }).message,
    ).toBe("Profile openai-codex:default failed (server_error). Retry 1/2 in 300ms…");
  });

  it("R-RN-5: the all-unusable line reads exactly as specified", () => {
    const line = describeEvent({ type: "no_available_profile", ...base, reason: "rate_limit", until: null });
    expect(line).toMatchObject({ level: "warn", message: "No available auth profile for openai-codex (all in cooldown or unavailable)." });
  });

  it("R-OB-1: the decision event is logged as a structured event with its fields", () => {
    const line = describeEvent({
      type: "model_fallback_decision",
      decision: "candidate_failed",
      runId: "r1",
      agentId: "main",
      sessionId: null,
      requestedModel: "a/b",
      candidateModel: "a/b",
      attemptIndex: 1,
      attemptTotal: 1,
      profileId: null,
      reason: "timeout",
      status: null,
      code: "ETIMEDOUT",
      errorPreview: "x",
      nextCandidate: null,
      isPrimary: true,
      fallbackStepFromModel: "a/b",
      fallbackStepToModel: null,
      fallbackStepFromFailureReason: "timeout",
      fallbackStepFromFailureDetail: "x",
      fallbackStepChainPosition: 1,
      fallbackStepFinalOutcome: "chain_exhausted",
      continuation: null,
    });
    expect(line.message).toBe("model_fallback_decision");
    expect(line.fields).toMatchObject({ event: "model_fallback_decision", code: "ETIMEDOUT", fallbackStepFinalOutcome: "chain_exhausted" });
  });

  it("a failed bookkeeping write is a warning before its line is built, so a warn-only logger still gets it", () => {
    const where = { agentId: "main", profileId: "openai:a" };
    const event = { type: "state_bookkeeping_failed", ...where, operation: "recordSpend", error: "down" } as const;
    expect(eventLevel(event)).toBe("warn");
    expect(describeEvent(event)).toMatchObject({
      level: "warn",
      message: "Could not record recordSpend of profile openai:a in the state store; the answer was delivered",
    });
  });

  it("a scheduled server-error retry and a started hedge are debug detail, like a scheduled timeout retry", () => {
    const where = { ...base, profileId: "openai-codex:default" };
    expect(eventLevel({ type: "server_error_retry_scheduled", ...where, status: 502, retry: 1, maxRetries: 1, delayMs: 612 })).toBe(
      "debug",
    );
    const hedge = {
      type: "hedge",
      runId: "r1",
      agentId: "main",
      provider: "openai",
      model: "gpt-5",
      profileId: null,
      afterMs: 900,
    } as const;
    expect(eventLevel({ ...hedge, outcome: "started" })).toBe("debug");
    expect(eventLevel({ ...hedge, outcome: "won" })).toBe("info");
  });
});
