/**
 * The chain an auto fallback walks (R-CH-2), `fallbacks: none` on a session already on a fallback, the
 * pre-call fit (R-FB-8) and the last-resort attempt (R-FB-9), through the library API on a FakeClock.
 */
import { describe, expect, it } from "vitest";
import { FailoverError } from "../../src/core/errors.js";
import { deferRequestFacts, type RequestFacts } from "../../src/core/fit.js";
import { UpstreamFailure } from "../../src/ports/provider.js";
import { httpError, success } from "../../src/testing/scripted-provider.js";
import { DEFAULT_PROFILES, FALLBACK, PRIMARY, apiKey, failed, makeHarness, succeeded } from "./harness.js";

const GEMINI = "google/gemini-2.5-pro";

function chainConfig(primary: string, fallbacks: string[], extra: Record<string, unknown> = {}) {
  return { agents: { defaults: { model: { primary, fallbacks } } }, ...extra };
}

function facts(inputTokens: number, extra: Partial<RequestFacts> = {}): RequestFacts {
  return { inputTokens, modalities: [], ...extra };
}

/** A session whose primary and first fallback failed, parked on the last fallback (anthropic). */
async function parkedOnLastFallback() {
  const h = await makeHarness({
    profiles: { ...DEFAULT_PROFILES, "google:a": apiKey("google", "g") },
    config: chainConfig(PRIMARY, [GEMINI, FALLBACK]),
  });
  h.provider("openai").always({}, httpError(503, "Service Unavailable"));
  h.provider("google").script({}, httpError(503, "Service Unavailable"));
  expect(succeeded(await h.runToEnd({ sessionKey: "s1" })).provider).toBe("anthropic");
  expect(await h.store.getSession("s1")).toMatchObject({ providerOverride: "anthropic", modelOverrideSource: "auto" });
  // Past every ladder cooldown, well within the 5-minute origin probe interval.
  await h.clock.advanceAsync(70_000);
  return h;
}

describe("auto fallback chain (R-CH-2)", () => {
  it("R-CH-2: a session parked on the last fallback still reaches the earlier fallbacks when it fails", async () => {
    const h = await parkedOnLastFallback();
    h.provider("anthropic").always({}, httpError(503, "Service Unavailable"));
    const out = succeeded(await h.runToEnd({ sessionKey: "s1" }));
    expect(out.provider).toBe("google");
    // The primary comes back only through its probe, not as an appended last resort.
    expect(h.provider("openai").calls).toHaveLength(2);
    expect(await h.store.getSession("s1")).toMatchObject({
      providerOverride: "google",
      modelOverride: "gemini-2.5-pro",
      modelOverrideFallbackOriginProvider: "openai",
      modelOverrideFallbackOriginModel: "gpt-5",
    });
  });

  it("R-CH-2: `fallbacks: none` on a session already on a fallback runs the selected model alone", async () => {
    const h = await parkedOnLastFallback();
    const openaiCalls = h.provider("openai").calls.length;
    const strict = failed(await h.runToEnd({ sessionKey: "s1", fallbacks: "none" }));
    expect(strict).toBeInstanceOf(UpstreamFailure);
    expect(h.provider("anthropic").calls).toHaveLength(1);
    expect(h.provider("openai").calls.length).toBeGreaterThan(openaiCalls);
    expect((await h.store.getSession("s1"))?.providerOverride).toBe("anthropic");

    await h.clock.advanceAsync(70_000);
    h.provider("openai").always({}, success("the origin is back"));
    const out = succeeded(await h.runToEnd({ sessionKey: "s1", fallbacks: [] }));
    expect(out.provider).toBe("openai");
    expect(h.provider("anthropic").calls).toHaveLength(1);
    // The origin answered: the session is back on it, announced once.
    expect(out.notice).toBe("↪️ Model Fallback cleared: openai/gpt-5 (was anthropic/claude-sonnet-4-6)");
    expect((await h.store.getSession("s1"))?.modelOverride).toBeUndefined();
  });
});

describe("pre-call fit (R-FB-8)", () => {
  it("R-FB-8: a candidate whose catalogue window cannot take the request is skipped without an upstream call", async () => {
    const h = await makeHarness({ config: chainConfig("openai/gpt-4o", [FALLBACK]) });
    const out = succeeded(await h.runToEnd({ requestFacts: facts(130_000) }));
    expect(out.provider).toBe("anthropic");
    expect(h.provider("openai").calls).toHaveLength(0);
    // 130 000 input + min(4 096, gpt-4o's 16 384 output limit) reserved for the answer.
    expect(out.attempts).toEqual([
      {
        provider: "openai",
        model: "gpt-4o",
        reason: "context_overflow",
        error: "Skipping openai/gpt-4o: request (~134096 tokens) exceeds its context window (128000)",
        skipped: true,
      },
    ]);
    expect(await h.store.getUsageStats("openai:a")).toBeUndefined();
  });

  it("R-FB-8: max_tokens counts against the window", async () => {
    const h = await makeHarness({ config: chainConfig("openai/gpt-4o", [FALLBACK]) });
    expect(succeeded(await h.runToEnd({ requestFacts: facts(120_000, { maxOutputTokens: 10_000 }) })).provider).toBe("anthropic");
    expect(succeeded(await h.runToEnd({ requestFacts: facts(120_000, { maxOutputTokens: 1_000 }) })).provider).toBe("openai");
  });

  it("R-FB-8: a declared contextWindow wins over the catalogue", async () => {
    const h = await makeHarness({
      config: chainConfig("openai/gpt-4o", [FALLBACK], {
        models: { providers: { openai: { models: [{ id: "gpt-4o", contextWindow: 1_000_000 }] } } },
      }),
    });
    expect(succeeded(await h.runToEnd({ requestFacts: facts(500_000) })).provider).toBe("openai");
  });

  it("R-FB-8: a model of unknown window is called whatever the estimate", async () => {
    const h = await makeHarness({ config: chainConfig("anthropic/claude-unlisted", []) });
    expect(succeeded(await h.runToEnd({ requestFacts: facts(5_000_000) })).provider).toBe("anthropic");
  });

  it("R-FB-8: a candidate that cannot take images is skipped as incompatible, and nothing is recorded", async () => {
    const h = await makeHarness({ config: chainConfig("openai/gpt-3.5-turbo", [FALLBACK]) });
    const out = succeeded(await h.runToEnd({ requestFacts: facts(100, { modalities: ["image"] }) }));
    expect(out.provider).toBe("anthropic");
    expect(h.provider("openai").calls).toHaveLength(0);
    expect(out.attempts[0]).toMatchObject({
      model: "gpt-3.5-turbo",
      reason: "incompatible",
      error: "Skipping openai/gpt-3.5-turbo: it does not accept image input",
      skipped: true,
    });
    expect(await h.store.getUsageStats("openai:a")).toBeUndefined();
  });

  it("R-FB-8: when no candidate fits, the run fails with context_overflow and calls nobody", async () => {
    const h = await makeHarness({ config: chainConfig("openai/gpt-4o", ["openai/gpt-4o-mini"]) });
    const error = failed(await h.runToEnd({ requestFacts: facts(200_000) }));
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain("All models failed (2)");
    expect(h.provider("openai").calls).toHaveLength(0);
    const single = failed(await h.runToEnd({ requestFacts: facts(200_000), fallbacks: "none" }));
    expect(single).toBeInstanceOf(FailoverError);
    expect(single).toMatchObject({ reason: "context_overflow" });
  });
});

describe("pre-call fit with facts on demand (R-FB-8)", () => {
  it("R-FB-8: deferred facts are computed once per run, only for candidates of known window, and skip as exact facts do", async () => {
    const h = await makeHarness({ config: chainConfig("openai/gpt-4o", ["openai/gpt-4o-mini", FALLBACK]) });
    let computed = 0;
    const requestFacts = deferRequestFacts({ inputTokens: 300_000, modalities: [] }, () => {
      computed += 1;
      return facts(130_000);
    });
    const out = succeeded(await h.runToEnd({ requestFacts }));
    expect(out.provider).toBe("anthropic");
    expect(computed).toBe(1);
    expect(h.provider("openai").calls).toHaveLength(0);
    expect(out.attempts.map((attempt) => attempt.error)).toEqual([
      "Skipping openai/gpt-4o: request (~134096 tokens) exceeds its context window (128000)",
      "Skipping openai/gpt-4o-mini: request (~134096 tokens) exceeds its context window (128000)",
    ]);
  });

  it("R-FB-8: deferred facts are never computed when the bound settles every candidate", async () => {
    const h = await makeHarness({ config: chainConfig("openai/gpt-4o", [FALLBACK]) });
    let computed = 0;
    const requestFacts = deferRequestFacts({ inputTokens: 1_000, modalities: [] }, () => {
      computed += 1;
      return facts(1_000);
    });
    expect(succeeded(await h.runToEnd({ requestFacts })).provider).toBe("openai");
    expect(computed).toBe(0);
  });
});

describe("last resort (R-FB-9)", () => {
  const oneKey = () =>
    makeHarness({ profiles: { "openai:a": apiKey("openai", "k") }, config: { agents: { defaults: { model: { primary: PRIMARY } } } } });

  it("R-FB-9: one key, no fallback: a ladder cooldown never refuses without a call; the attempt is logged last_resort", async () => {
    const h = await oneKey();
    h.provider("openai").script({}, httpError(429, "Rate limit reached"), httpError(429, "Rate limit reached"), success("third"));
    failed(await h.runToEnd());
    // The primary's throttled probe (R-FB-3) takes the second request.
    failed(await h.runToEnd());
    const out = succeeded(await h.runToEnd());
    expect(out.result.content[0]).toEqual({ type: "text", text: "third" });
    expect(h.provider("openai").calls).toHaveLength(3);
    expect(out.attempts).toEqual([]);
    const decisions = h.eventsOf("model_fallback_decision").map((event) => event.decision);
    expect(decisions.slice(-3)).toEqual(["skip_candidate", "last_resort", "candidate_succeeded"]);
    // Success clears the ladder as for any answer.
    expect((await h.store.getUsageStats("openai:a"))?.cooldownUntil).toBeUndefined();
  });

  it("R-FB-9: a failing last resort surfaces the provider's own error, as calling it directly would", async () => {
    const h = await oneKey();
    h.provider("openai").always({}, httpError(429, "Rate limit reached"));
    failed(await h.runToEnd());
    failed(await h.runToEnd());
    const error = failed(await h.runToEnd());
    expect(error).toBeInstanceOf(UpstreamFailure);
    expect((error as UpstreamFailure).failure.status).toBe(429);
    expect(h.provider("openai").calls).toHaveLength(3);
  });

  it("R-FB-9: a provider-stated reset, a disable and an auth cooldown are not overridden", async () => {
    const h = await oneKey();
    h.provider("openai").script({}, httpError(429, "Rate limit reached", { "retry-after": "120" }));
    failed(await h.runToEnd());
    failed(await h.runToEnd());
    expect(h.provider("openai").calls).toHaveLength(1);

    const now = h.clock.now();
    for (const stats of [
      { disabledUntil: now + 3_600_000, disabledReason: "billing" as const, failureCounts: { billing: 1 } },
      { cooldownUntil: now + 60_000, cooldownReason: "auth" as const, errorCount: 1, failureCounts: { auth: 1 } },
    ]) {
      await h.store.replaceUsageStats("openai:a", stats);
      failed(await h.runToEnd());
      expect(h.provider("openai").calls).toHaveLength(1);
    }
    expect(h.eventsOf("model_fallback_decision").some((event) => event.decision === "last_resort")).toBe(false);
  });
});
