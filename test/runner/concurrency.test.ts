/**
 * Fifty runs in parallel on one session and three profiles: no recorded failure may be lost (R-SB-2 as the
 * runner relies on it), and the session ends in one consistent state.
 */
import { describe, expect, it } from "vitest";
import type { FailoverReason } from "../../src/core/reasons.js";
import { httpError, type ScriptedOutcome } from "../../src/testing/scripted-provider.js";
import { SeededRandom } from "../../src/testing/seeded-random.js";
import { FALLBACK, PRIMARY, apiKey, makeHarness, succeeded } from "./harness.js";

const FAILURES: readonly { outcome: ScriptedOutcome; reason: FailoverReason }[] = [
  { outcome: httpError(429, "Too Many Requests"), reason: "rate_limit" },
  { outcome: httpError(529, "Overloaded"), reason: "overloaded" },
  { outcome: httpError(503, "Service Unavailable"), reason: "overloaded" },
  { outcome: httpError(500, '{"error":{"type":"server_error","message":"boom"}}'), reason: "server_error" },
  { outcome: httpError(401, "Incorrect API key provided"), reason: "auth" },
];

describe("concurrency", () => {
  it("R-SB-2: 50 parallel runs on one session and three profiles leave counters equal to the failures made", async () => {
    const h = await makeHarness({
      // The fallback provider has no profiles: it runs keyless and always answers.
      profiles: {
        "openai:a": apiKey("openai", "sk-a"),
        "openai:b": apiKey("openai", "sk-b"),
        "openai:c": apiKey("openai", "sk-c"),
      },
      // Every call here is recorded: no R-RN-4 same-profile retry holds a server error back.
      config: {
        agents: { defaults: { model: { primary: PRIMARY, fallbacks: [FALLBACK] }, modelFailover: { retrySameProfileOnServerError: 0 } } },
      },
    });
    const random = new SeededRandom(2024);
    const reasonOfCall: FailoverReason[] = [];
    h.provider("openai").always({}, (call) => {
      const pick = FAILURES[Math.floor(random.next() * FAILURES.length)] ?? FAILURES[0]!;
      reasonOfCall[call.sequence - 1] = pick.reason;
      return pick.outcome;
    });

    const runs = Array.from({ length: 50 }, () => h.run({ sessionKey: "shared" }));
    const outcome = succeeded(await h.drive(Promise.all(runs)));
    expect(outcome).toHaveLength(50);
    expect(outcome.every((out) => out.provider === "anthropic")).toBe(true);

    const calls = h.provider("openai").calls;
    expect(calls.length).toBeGreaterThan(3);
    for (const profileId of ["openai:a", "openai:b", "openai:c"]) {
      const made = calls.filter((call) => call.profileId === profileId);
      const expectedCounts: Partial<Record<FailoverReason, number>> = {};
      for (const call of made) {
        const reason = reasonOfCall[call.sequence - 1] as FailoverReason;
        expectedCounts[reason] = (expectedCounts[reason] ?? 0) + 1;
      }
      const stats = await h.store.getUsageStats(profileId);
      expect(stats?.errorCount ?? 0, profileId).toBe(made.length);
      expect(stats?.failureCounts ?? {}, profileId).toEqual(expectedCounts);
    }

    const session = await h.store.getSession("shared");
    expect(session).toMatchObject({
      providerOverride: "anthropic",
      modelOverride: "claude-sonnet-4-6",
      modelOverrideSource: "auto",
      modelOverrideFallbackOriginProvider: "openai",
      modelOverrideFallbackOriginModel: "gpt-5",
    });
  });
});
