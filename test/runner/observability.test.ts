/**
 * R-OB-1 decision events and the runner's log lines, through the library API.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { httpError } from "../../src/testing/scripted-provider.js";
import { FALLBACK, PRIMARY, apiKey, failed, makeHarness, succeeded } from "./harness.js";

const DECISION_FIELDS = [
  "decision",
  "runId",
  "agentId",
  "sessionId",
  "requestedModel",
  "candidateModel",
  "attemptIndex",
  "attemptTotal",
  "profileId",
  "reason",
  "status",
  "code",
  "errorPreview",
  "nextCandidate",
  "isPrimary",
  "fallbackStepFromModel",
  "fallbackStepToModel",
  "fallbackStepFromFailureReason",
  "fallbackStepFromFailureDetail",
  "fallbackStepChainPosition",
  "fallbackStepFinalOutcome",
  "continuation",
];

const GEMINI = "google/gemini-2.5-pro";

async function threeCandidates() {
  return makeHarness({
    profiles: {
      "openai:a": apiKey("openai", "sk-secret-openai-0001"),
      "anthropic:a": apiKey("anthropic", "sk-secret-anthropic-0002"),
      "google:a": apiKey("google", "sk-secret-google-0003"),
    },
    config: { agents: { defaults: { model: { primary: PRIMARY, fallbacks: [FALLBACK, GEMINI] } } } },
  });
}

describe("observability", () => {
  it("R-OB-1: every candidate outcome logs one model_fallback_decision with every field present", async () => {
    const h = await threeCandidates();
    h.provider("openai").always({}, httpError(429, "Too Many Requests"));
    await h.store.replaceUsageStats("anthropic:a", {
      disabledUntil: h.clock.now() + 3_600_000,
      disabledReason: "auth_permanent",
      failureCounts: { auth_permanent: 1 },
    });
    succeeded(await h.runToEnd({ sessionKey: "s1" }));
    const decisions = h.eventsOf("model_fallback_decision");
    expect(decisions.map((event) => event.decision)).toEqual(["candidate_failed", "skip_candidate", "candidate_succeeded"]);
    for (const event of decisions) {
      for (const field of DECISION_FIELDS) expect(Object.hasOwn(event, field), `${event.decision}.${field}`).toBe(true);
    }
    const [failedPrimary, skipped, won] = decisions;
    expect(failedPrimary).toMatchObject({
      requestedModel: PRIMARY,
      candidateModel: PRIMARY,
      attemptIndex: 1,
      attemptTotal: 3,
      profileId: "openai:a",
      reason: "rate_limit",
      status: 429,
      errorPreview: "Too Many Requests",
      nextCandidate: FALLBACK,
      isPrimary: true,
      sessionId: "s1",
      fallbackStepFromModel: PRIMARY,
      fallbackStepToModel: FALLBACK,
      fallbackStepFromFailureReason: "rate_limit",
      fallbackStepChainPosition: 1,
      fallbackStepFinalOutcome: "next_fallback",
    });
    expect(skipped).toMatchObject({
      candidateModel: FALLBACK,
      reason: "auth_permanent",
      isPrimary: false,
      fallbackStepFromModel: PRIMARY,
      fallbackStepToModel: GEMINI,
      fallbackStepChainPosition: 2,
    });
    expect(won).toMatchObject({
      candidateModel: GEMINI,
      fallbackStepFromModel: PRIMARY,
      fallbackStepFromFailureReason: "rate_limit",
      fallbackStepFromFailureDetail: "Too Many Requests",
      fallbackStepToModel: GEMINI,
      fallbackStepChainPosition: 3,
      fallbackStepFinalOutcome: "succeeded",
    });
    // The logger receives the same structured event.
    const logged = h.logs.filter((log) => log.message === "model_fallback_decision");
    expect(logged).toHaveLength(3);
    expect(logged[2]?.fields).toMatchObject({ event: "model_fallback_decision", decision: "candidate_succeeded" });
  });

  it("R-OB-1: when the last fallback fails too, the final event still carries the primary failure", async () => {
    const h = await threeCandidates();
    h.provider("openai").always({}, httpError(529, "Overloaded"));
    h.provider("anthropic").always({}, httpError(503, "Service Unavailable"));
    h.provider("google").always({}, httpError(500, '{"error":{"type":"server_error","message":"boom"}}'));
    failed(await h.runToEnd());
    const last = h.eventsOf("model_fallback_decision").at(-1);
    expect(last).toMatchObject({
      candidateModel: GEMINI,
      reason: "server_error",
      nextCandidate: null,
      fallbackStepFromModel: PRIMARY,
      fallbackStepFromFailureReason: "overloaded",
      fallbackStepFromFailureDetail: "Overloaded",
      fallbackStepToModel: null,
      fallbackStepFinalOutcome: "chain_exhausted",
    });
  });

  it("R-OB-1: one helper builds every model_fallback_decision event", () => {
    const runnerDir = resolve(import.meta.dirname, "../../src/runner");
    const builders = readdirSync(runnerDir)
      .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
      .filter((name) => readFileSync(join(runnerDir, name), "utf8").includes('type: "model_fallback_decision"'));
    expect(builders).toEqual(["decision-log.ts"]);
  });

  it("R-OB-2: no log line or event of a run carries the profiles' keys", async () => {
    const h = await threeCandidates();
    h.provider("openai").always({}, httpError(401, "Incorrect API key provided"));
    succeeded(await h.runToEnd({ sessionKey: "s1" }));
    const everything = JSON.stringify([h.logs, h.events, await h.detour.status()]);
    expect(everything).not.toContain("sk-secret");
    expect(everything).toContain("openai:a");
  });
});
