/**
 * Scenario tests of the fallback runner (SPEC §8, R-RA-2, R-EC-7, R-CD-5) through the library API.
 */
import { describe, expect, it } from "vitest";
import { FailoverError, FallbackSummaryError, LiveSessionModelSwitchError } from "../../src/core/errors.js";
import { UpstreamFailure } from "../../src/ports/provider.js";
import { statedWaitJitterMs } from "../../src/runner/retry-decisions.js";
import { hang, httpError, networkError, success } from "../../src/testing/scripted-provider.js";
import { SeededRandom } from "../../src/testing/seeded-random.js";
import { DEFAULT_PROFILES, FALLBACK, PRIMARY, SEED, apiKey, failed, makeHarness, succeeded } from "./harness.js";

const HOUR = 3_600_000;

function chainConfig(primary: string, fallbacks: string[], extra: Record<string, unknown> = {}) {
  return { agents: { defaults: { model: { primary, fallbacks } } }, ...extra };
}

describe("fallback runner", () => {
  it("R-FB-1: success returns result, provider, model, profileId, attempts and notice", async () => {
    const h = await makeHarness();
    h.provider("openai").always({}, httpError(503, "Service Unavailable: the model is overloaded"));
    const out = succeeded(await h.runToEnd());
    expect(out.result.content).toEqual([{ type: "text", text: "ok" }]);
    expect(out).toMatchObject({
      provider: "anthropic",
      model: "claude-sonnet-4-6",
      profileId: "anthropic:a",
      attempts: [{ provider: "openai", model: "gpt-5", reason: "overloaded", status: 503 }],
    });
    expect(out.notice).toBe("↪️ Model Fallback: anthropic/claude-sonnet-4-6 (selected openai/gpt-5; 503 Service Unavailable)");
  });

  it("R-FB-1: a user-pinned profile is strict while model fallback still proceeds", async () => {
    const h = await makeHarness();
    await h.detour.sessions.patch("s1", { profile: "openai:a" });
    h.provider("openai").always({ profileId: "openai:a" }, httpError(429, "rate limit"));
    const out = succeeded(await h.runToEnd({ sessionKey: "s1", model: PRIMARY }));
    expect(h.provider("openai").calls.map((call) => call.profileId)).toEqual(["openai:a"]);
    expect(out.provider).toBe("anthropic");
  });

  it("R-FB-1: a strict user model override surfaces the original error", async () => {
    const h = await makeHarness();
    await h.detour.sessions.patch("s1", { model: "google/gemini-2.5-pro" });
    await h.store.upsertProfile({ id: "google:a", credential: apiKey("google", "g-key") });
    h.provider("google").always({}, httpError(401, "API key not valid. Please pass a valid API key."));
    const error = failed(await h.runToEnd({ sessionKey: "s1" }));
    expect(error).toBeInstanceOf(UpstreamFailure);
    expect((error as UpstreamFailure).failure.status).toBe(401);
    expect(h.provider("anthropic").calls).toHaveLength(0);
  });

  it("R-FB-1: cron payload.fallbacks [] makes the cron run strict", async () => {
    const h = await makeHarness();
    h.provider("anthropic").always({}, httpError(529, "Overloaded"));
    const error = failed(await h.runToEnd({ source: "cron", cron: { model: FALLBACK, fallbacks: [] }, sessionKey: "cron:nightly" }));
    expect(error).toBeInstanceOf(UpstreamFailure);
    expect(h.provider("openai").calls).toHaveLength(0);
    // A cron model is a job choice: it never becomes the session's override.
    expect((await h.detour.sessions.get("cron:nightly"))?.modelOverride).toBeUndefined();
  });

  it("R-FB-2: a non-primary auth failure is skipped in the session while the marker lives; the primary never is", async () => {
    const h = await makeHarness({
      env: { OPENCLAW_FALLBACK_SKIP_TTL_MS: "5" },
      // No R-RN-4 server-error retry pauses: the 1 s skip marker must outlive the walk to the fallback.
      config: {
        agents: {
          defaults: {
            model: { primary: PRIMARY, fallbacks: [FALLBACK, "google/gemini-2.5-pro"] },
            modelFailover: { retrySameProfileOnServerError: 0 },
          },
        },
      },
      profiles: { ...DEFAULT_PROFILES, "google:a": apiKey("google", "g-key") },
    });
    h.provider("openai").always({}, httpError(500, '{"error":{"type":"server_error","message":"boom"}}'));
    h.provider("anthropic").script({}, httpError(401, "invalid x-api-key"));
    succeeded(await h.runToEnd({ sessionKey: "s1", fallbacks: [FALLBACK, "google/gemini-2.5-pro"] }));
    await h.detour.sessions.reset("s1");
    await h.store.resetUsageStats("anthropic:a");
    await h.store.resetUsageStats("openai:a");
    await h.store.resetUsageStats("openai:b");

    const second = succeeded(await h.runToEnd({ sessionKey: "s1", fallbacks: [FALLBACK, "google/gemini-2.5-pro"] }));
    expect(second.attempts[1]).toMatchObject({
      provider: "anthropic",
      skipped: true,
      error: "Skipping anthropic/claude-sonnet-4-6: recent auth failure in this session",
    });
    expect(h.provider("anthropic").calls).toHaveLength(1);
    // Another session is not affected by this session's marker.
    await h.store.resetUsageStats("openai:a");
    await h.store.resetUsageStats("openai:b");
    succeeded(await h.runToEnd({ sessionKey: "s2", fallbacks: [FALLBACK, "google/gemini-2.5-pro"] }));
    expect(h.provider("anthropic").calls).toHaveLength(2);
  });

  it("R-FB-2: the TTL is clamped to at least 1 000 ms and the marker then expires", async () => {
    const h = await makeHarness({
      env: { OPENCLAW_FALLBACK_SKIP_TTL_MS: "5" },
      profiles: { "anthropic:a": apiKey("anthropic", "k"), "google:a": apiKey("google", "g") },
    });
    h.provider("anthropic").always({}, httpError(401, "invalid x-api-key"));
    const request = { sessionKey: "s1", model: "ollama/qwen3", fallbacks: [FALLBACK, "google/gemini-2.5-pro"] };
    h.provider("ollama").always({}, httpError(503, "Service Unavailable"));
    succeeded(await h.runToEnd(request));
    expect(h.provider("anthropic").calls).toHaveLength(1);

    await h.store.resetUsageStats("anthropic:a");
    await h.clock.advanceAsync(999);
    await h.detour.sessions.reset("s1");
    succeeded(await h.runToEnd(request));
    expect(h.provider("anthropic").calls).toHaveLength(1);

    await h.clock.advanceAsync(1);
    await h.detour.sessions.reset("s1");
    succeeded(await h.runToEnd(request));
    expect(h.provider("anthropic").calls).toHaveLength(2);
  });

  it("R-FB-2: unset, 0 or non-integer TTL keeps the cache off", async () => {
    for (const value of ["", "0", "-5", "abc", "1.5"]) {
      const h = await makeHarness({ env: { OPENCLAW_FALLBACK_SKIP_TTL_MS: value } });
      h.provider("openai").always({}, httpError(503, "Service Unavailable"));
      h.provider("anthropic").always({}, httpError(401, "invalid x-api-key"));
      failed(await h.runToEnd({ sessionKey: "s1", model: PRIMARY, fallbacks: [FALLBACK] }));
      await h.store.resetUsageStats("anthropic:a");
      failed(await h.runToEnd({ sessionKey: "s1", model: PRIMARY, fallbacks: [FALLBACK] }));
      expect(h.provider("anthropic").calls, `TTL ${JSON.stringify(value)}`).toHaveLength(2);
    }
  });

  it("R-FB-3: billing disables the profile and the next run skips the provider without calling it", async () => {
    const h = await makeHarness({ profiles: { "openai:a": apiKey("openai", "k"), "anthropic:a": apiKey("anthropic", "k") } });
    h.provider("openai").script({}, httpError(402, "Your credit balance is too low to access the API"));
    const first = succeeded(await h.runToEnd());
    expect(first.provider).toBe("anthropic");
    expect(await h.store.getUsageStats("openai:a")).toMatchObject({ disabledReason: "billing" });

    const second = succeeded(await h.runToEnd());
    expect(h.provider("openai").calls).toHaveLength(1);
    expect(second.attempts[0]).toMatchObject({
      provider: "openai",
      skipped: true,
      reason: "billing",
      error: "Provider openai has billing issue (skipping all models)",
    });

    // Within 2 minutes of the disable's end the primary is probed (throttled), so recovery needs no restart.
    await h.clock.advanceAsync(5 * HOUR - 60_000);
    const third = succeeded(await h.runToEnd());
    expect(third.provider).toBe("openai");
    expect(h.eventsOf("model_fallback_decision").some((event) => event.decision === "probe_cooldown_candidate")).toBe(true);
    expect((await h.store.getUsageStats("openai:a"))?.disabledUntil).toBeUndefined();
  });

  it("R-FB-3: a model-scoped rate limit lets a sibling model of the same provider run", async () => {
    const h = await makeHarness({
      profiles: { "openai:a": apiKey("openai", "k") },
      config: chainConfig(PRIMARY, ["openai/gpt-5-mini"]),
    });
    h.provider("openai").always({ model: "gpt-5" }, httpError(429, "Rate limit reached for gpt-5 in organization"));
    const out = succeeded(await h.runToEnd());
    expect(out).toMatchObject({ provider: "openai", model: "gpt-5-mini", profileId: "openai:a" });
    // gpt-5-mini's success cleared the profile; a fresh gpt-5 limit scopes to gpt-5 only.
    h.provider("openai").script({ model: "gpt-5" }, httpError(429, "Rate limit reached for gpt-5"));
    succeeded(await h.runToEnd({ model: "openai/gpt-5-mini", fallbacks: "none" }));
  });

  it("R-FB-3: one transient probe per provider per run; later siblings are skipped", async () => {
    const h = await makeHarness({
      profiles: { "openai:a": apiKey("openai", "k"), "anthropic:a": apiKey("anthropic", "k") },
      config: chainConfig(PRIMARY, ["openai/gpt-5-mini", "openai/gpt-4o", FALLBACK]),
    });
    await h.store.replaceUsageStats("openai:a", {
      cooldownUntil: h.clock.now() + 300_000,
      cooldownReason: "overloaded",
      errorCount: 3,
      failureCounts: { overloaded: 3 },
    });
    h.provider("openai").always({}, httpError(529, "Overloaded"));
    const out = succeeded(await h.runToEnd());
    expect(out.provider).toBe("anthropic");
    // The primary is probed (throttle open), one sibling is probed, the next sibling is skipped.
    expect(h.provider("openai").calls.map((call) => call.model)).toEqual(["gpt-5", "gpt-5-mini"]);
    expect(out.attempts[2]).toMatchObject({
      model: "gpt-4o",
      skipped: true,
      error: "Provider openai is in cooldown (probe already attempted this run)",
    });
  });

  it("R-FB-3: a probe failing with a format error does not use up the provider's probe slot", async () => {
    const h = await makeHarness({
      profiles: { "openai:a": apiKey("openai", "k"), "anthropic:a": apiKey("anthropic", "k") },
      config: chainConfig(FALLBACK, ["openai/gpt-5-mini", "openai/gpt-4o"]),
    });
    await h.store.replaceUsageStats("openai:a", {
      cooldownUntil: h.clock.now() + 300_000,
      cooldownReason: "overloaded",
      errorCount: 1,
      failureCounts: { overloaded: 1 },
    });
    h.provider("anthropic").always({}, httpError(529, "Overloaded"));
    h.provider("openai").script({ model: "gpt-5-mini" }, httpError(400, "messages.1.content: string should match pattern"));
    const out = succeeded(await h.runToEnd());
    expect(out.model).toBe("gpt-4o");
  });

  it("R-FB-3: a probe failing with model_not_found keeps the slot: the next sibling is still probed", async () => {
    const h = await makeHarness({
      profiles: { "openai:a": apiKey("openai", "k"), "anthropic:a": apiKey("anthropic", "k") },
      config: chainConfig(FALLBACK, ["openai/gpt-5-mini", "openai/gpt-4o"]),
    });
    await h.store.replaceUsageStats("openai:a", {
      cooldownUntil: h.clock.now() + 300_000,
      cooldownReason: "overloaded",
      errorCount: 1,
      failureCounts: { overloaded: 1 },
    });
    h.provider("anthropic").always({}, httpError(529, "Overloaded"));
    h.provider("openai").always({ model: "gpt-5-mini" }, httpError(404, "The model `gpt-5-mini` does not exist"));
    const out = succeeded(await h.runToEnd());
    expect(out.model).toBe("gpt-4o");
    expect(h.provider("openai").calls.map((call) => call.model)).toEqual(["gpt-5-mini", "gpt-4o"]);
    // The missing model is recorded (R-CD-2: latest reason) on the window it widened, yet that window still
    // does not read as "gpt-4o is in cooldown".
    expect(out.attempts[1]).toMatchObject({ model: "gpt-5-mini", reason: "model_not_found" });
  });

  it("R-FB-3: a provider-stated reset still covering the model is not probed", async () => {
    const h = await makeHarness({ profiles: { "openai:a": apiKey("openai", "k"), "anthropic:a": apiKey("anthropic", "k") } });
    await h.store.replaceUsageStats("openai:a", {
      blockedUntil: h.clock.now() + HOUR,
      blockedReason: "rate_limit",
      errorCount: 1,
      failureCounts: { rate_limit: 1 },
    });
    const out = succeeded(await h.runToEnd());
    expect(out.provider).toBe("anthropic");
    expect(h.provider("openai").calls).toHaveLength(0);
    expect(out.attempts[0]).toMatchObject({ skipped: true, error: "Provider openai is in cooldown" });
  });

  it("R-FB-3: a probe never runs a strict user pin that a provider-stated reset still covers", async () => {
    const h = await makeHarness();
    await h.detour.sessions.patch("s1", { profile: "openai:a" });
    // openai:b's ladder cooldown makes the provider probe-able; the user's own profile is blocked by a stated reset.
    await h.store.replaceUsageStats("openai:a", {
      blockedUntil: h.clock.now() + HOUR,
      blockedReason: "rate_limit",
      errorCount: 1,
      failureCounts: { rate_limit: 1 },
    });
    await h.store.replaceUsageStats("openai:b", {
      cooldownUntil: h.clock.now() + 300_000,
      cooldownReason: "overloaded",
      errorCount: 1,
      failureCounts: { overloaded: 1 },
    });
    const out = succeeded(await h.runToEnd({ sessionKey: "s1" }));
    expect(h.provider("openai").calls).toHaveLength(0);
    expect(out.provider).toBe("anthropic");
  });

  it("R-FB-4: the primary is probed at most once per (agent, provider) every 30 s", async () => {
    const h = await makeHarness({ profiles: { "openai:a": apiKey("openai", "k"), "anthropic:a": apiKey("anthropic", "k") } });
    await h.store.replaceUsageStats("openai:a", {
      cooldownUntil: h.clock.now() + 300_000,
      cooldownReason: "rate_limit",
      errorCount: 3,
      failureCounts: { rate_limit: 3 },
    });
    h.provider("openai").always({}, httpError(429, "rate limit"));
    succeeded(await h.runToEnd());
    expect(h.provider("openai").calls).toHaveLength(1);
    await h.clock.advanceAsync(29_000);
    succeeded(await h.runToEnd());
    expect(h.provider("openai").calls).toHaveLength(1);
    await h.clock.advanceAsync(1_000);
    succeeded(await h.runToEnd());
    expect(h.provider("openai").calls).toHaveLength(2);
    // Another agent has its own throttle.
    succeeded(await h.runToEnd({ agentId: "ops" }));
    expect(h.provider("openai").calls).toHaveLength(3);
  });

  it("R-FB-5: context overflow stops the run when no later candidate has a larger window (catalogue windows)", async () => {
    // gpt-5 has 400 000 tokens in the catalogue, gpt-4o 128 000: nothing larger is left.
    const h = await makeHarness({ config: chainConfig(PRIMARY, ["openai/gpt-4o"]) });
    h.provider("openai").always({}, httpError(400, "prompt is too long: 450000 tokens > 400000 maximum"));
    const error = failed(await h.runToEnd());
    expect(error).toBeInstanceOf(UpstreamFailure);
    expect(h.provider("openai").calls.map((call) => call.model)).toEqual(["gpt-5"]);
    expect(await h.store.getUsageStats("openai:a")).toBeUndefined();
    expect(h.eventsOf("run_finished")).toMatchObject([{ outcome: "failed", failedCandidates: 1 }]);
  });

  it("R-FB-5: context overflow skips to the first later candidate whose window is larger or unknown; config wins", async () => {
    const h = await makeHarness({
      profiles: { ...DEFAULT_PROFILES, "google:a": apiKey("google", "g") },
      config: chainConfig(
        PRIMARY,
        ["openai/gpt-4o", "google/gemini-2.5-pro", "anthropic/claude-small", FALLBACK, "anthropic/claude-unlisted"],
        {
          models: {
            providers: {
              // The catalogue says 1 048 576; the declaration wins and is not larger than gpt-5's 400 000.
              google: { models: [{ id: "gemini-2.5-pro", contextWindow: 300_000 }] },
              anthropic: { models: [{ id: "claude-small", contextWindow: 100_000 }] },
            },
          },
        },
      ),
    });
    h.provider("openai").always({}, httpError(400, "This model's maximum context length is 400000 tokens"));
    const out = succeeded(await h.runToEnd());
    // claude-sonnet-4-6's 200 000 (bundled catalogue) is smaller too; claude-unlisted has no known window:
    // it is not passed over.
    expect(out.model).toBe("claude-unlisted");
    expect(h.provider("openai").calls.map((call) => call.model)).toEqual(["gpt-5"]);
    expect(h.provider("google").calls).toHaveLength(0);
    expect(h.provider("anthropic").calls.map((call) => call.model)).toEqual(["claude-unlisted"]);
  });

  it("R-FB-5: a context overflow from a model of unknown window advances to the very next candidate", async () => {
    const h = await makeHarness({ config: chainConfig("anthropic/claude-unlisted", ["openai/gpt-3.5-turbo", "openai/gpt-5"]) });
    h.provider("anthropic").always({}, httpError(400, "prompt is too long: 250000 tokens > 200000 maximum"));
    h.provider("openai").script({ model: "gpt-3.5-turbo" }, httpError(400, "This model's maximum context length is 16385 tokens"));
    const out = succeeded(await h.runToEnd());
    expect(out.model).toBe("gpt-5");
    expect(h.provider("openai").calls.map((call) => call.model)).toEqual(["gpt-3.5-turbo", "gpt-5"]);
  });

  it("R-FB-5: a content-filter refusal stops the run; a format error advances", async () => {
    const h = await makeHarness();
    h.provider("openai").script({}, httpError(400, '{"error":{"code":"content_policy_violation","message":"blocked"}}'));
    failed(await h.runToEnd());
    expect(h.provider("anthropic").calls).toHaveLength(0);

    h.provider("openai").script({}, httpError(422, "conversation must end with a user message"));
    succeeded(await h.runToEnd());
    expect(h.provider("anthropic").calls).toHaveLength(1);
  });

  it("R-FB-5: an unknown error with no candidates left surfaces as it is", async () => {
    const h = await makeHarness();
    h.provider("openai").always({}, httpError(418, "I'm a teapot"));
    const error = failed(await h.runToEnd({ fallbacks: "none" }));
    expect(error).toBeInstanceOf(UpstreamFailure);
  });

  it("R-FB-6: exhaustion throws FallbackSummaryError with message, attempts, model-aware soonest expiry and cause", async () => {
    const h = await makeHarness({
      profiles: { "openai:a": apiKey("openai", "k"), "openai:b": apiKey("openai", "k2"), "anthropic:a": apiKey("anthropic", "k") },
    });
    const now = h.clock.now();
    // openai:b: a short block on a model outside the chain (ignored) and a longer gpt-5 rate limit (reported,
    // because a model's own limit is only over when its last profile recovers).
    await h.store.replaceUsageStats("openai:b", {
      cooldownUntil: now + 45_000,
      cooldownReason: "rate_limit",
      cooldownModel: "gpt-5",
      blockedUntil: now + 5_000,
      blockedReason: "rate_limit",
      blockedModel: "gpt-4o",
      errorCount: 1,
      lastFailureAt: now,
      failureCounts: { rate_limit: 1 },
    });
    await h.store.replaceUsageStats("anthropic:a", { errorCount: 1, lastFailureAt: now, failureCounts: { overloaded: 1 } });
    h.provider("openai").always({}, httpError(429, "Rate limit reached for gpt-5"));
    h.provider("anthropic").always({}, httpError(529, "Overloaded"));
    const error = failed(await h.runToEnd());
    expect(error).toBeInstanceOf(FallbackSummaryError);
    const summary = error as FallbackSummaryError;
    expect(summary.message).toBe(
      "All models failed (2): openai/gpt-5: Rate limit reached for gpt-5 (rate_limit) | " +
        "anthropic/claude-sonnet-4-6: Overloaded (overloaded)",
    );
    expect(summary.attempts).toEqual([
      {
        provider: "openai",
        model: "gpt-5",
        profileId: "openai:a",
        reason: "rate_limit",
        status: 429,
        code: undefined,
        error: "Rate limit reached for gpt-5",
      },
      {
        provider: "anthropic",
        model: "claude-sonnet-4-6",
        profileId: "anthropic:a",
        reason: "overloaded",
        status: 529,
        code: undefined,
        error: "Overloaded",
      },
    ]);
    expect(h.provider("openai").calls.map((call) => call.profileId)).toEqual(["openai:a"]);
    expect(summary.soonestCooldownExpiry).toBe(now + 45_000);
    expect(summary.cause).toBeInstanceOf(UpstreamFailure);
    expect(summary.code).toBe("DETOUR_ALL_MODELS_FAILED");
  });

  it("R-FB-6: exactly one attempt rethrows the original error", async () => {
    const h = await makeHarness();
    h.provider("openai").always({}, httpError(401, "Incorrect API key provided"));
    const error = failed(await h.runToEnd({ fallbacks: "none", model: "openai/gpt-5" }));
    expect(error).toBeInstanceOf(UpstreamFailure);
    expect((error as UpstreamFailure).failure.status).toBe(401);
  });

  it("R-FB-7: a live switch to a later candidate jumps straight to it", async () => {
    const h = await makeHarness({
      profiles: { ...DEFAULT_PROFILES, "google:a": apiKey("google", "g") },
      config: chainConfig(PRIMARY, ["google/gemini-2.5-pro", FALLBACK]),
    });
    const attempt = async (context: Parameters<typeof h.attempt>[0]) => {
      if (context.provider === "openai") throw new LiveSessionModelSwitchError({ provider: "anthropic", model: "claude-sonnet-4-6" });
      return h.attempt(context);
    };
    const out = succeeded(await h.drive(h.detour.runWith({ attempt })));
    expect(out.provider).toBe("anthropic");
    expect(h.provider("google").calls).toHaveLength(0);
    expect(h.eventsOf("model_fallback_decision")[0]).toMatchObject({ nextCandidate: FALLBACK });
    // The user chose the target: that is not a fallback to announce.
    expect(out.notice).toBeUndefined();
  });

  it("R-FB-7: a live switch to a model outside the rest of the chain is a failed attempt, and the run continues", async () => {
    const h = await makeHarness();
    let calls = 0;
    const attempt = async (context: Parameters<typeof h.attempt>[0]) => {
      calls += 1;
      if (context.provider === "openai") throw new LiveSessionModelSwitchError({ provider: "mistral", model: "large" });
      return h.attempt(context);
    };
    const out = succeeded(await h.drive(h.detour.runWith({ attempt })));
    expect(calls).toBe(2);
    expect(out.provider).toBe("anthropic");
    expect(out.attempts[0]?.error).toContain("mistral/large");
    expect(await h.store.getUsageStats("openai:a")).toBeUndefined();
  });

  it("R-RA-2: every candidate cooling down with a recovery within the limit: wait for it and try once more", async () => {
    const h = await makeHarness({ profiles: { "openai:a": apiKey("openai", "k") } });
    h.provider("openai").script({}, httpError(429, "rate limited", { "retry-after": "8" }), success("after waiting"));
    const start = h.clock.now();
    const out = succeeded(await h.runToEnd({ fallbacks: "none" }));
    expect(out.result.content[0]).toEqual({ type: "text", text: "after waiting" });
    const waitMs = 8_000 + statedWaitJitterMs(8_000, new SeededRandom(SEED));
    expect(h.provider("openai").calls.map((call) => call.at)).toEqual([start, start + waitMs]);
    expect(h.eventsOf("cooldown_wait")).toMatchObject([{ waitMs, until: start + 8_000 }]);
  });

  it("R-RA-2: a recovery further away than waitForCooldownMaxSeconds (or the limit 0) fails at once", async () => {
    for (const [retryAfter, limit] of [
      ["30", 10],
      ["8", 0],
    ] as const) {
      const h = await makeHarness({
        profiles: { "openai:a": apiKey("openai", "k") },
        config: {
          agents: { defaults: { model: { primary: PRIMARY }, modelFailover: { waitForCooldownMaxSeconds: limit } } },
        },
      });
      h.provider("openai").always({}, httpError(429, "rate limited", { "retry-after": retryAfter }));
      const error = failed(await h.runToEnd({ fallbacks: "none" }));
      expect(error).toBeInstanceOf(UpstreamFailure);
      expect(h.provider("openai").calls).toHaveLength(1);
    }
  });

  it("R-EC-7: a caller abort stops the run at once and marks nothing", async () => {
    const h = await makeHarness();
    h.provider("openai").always({}, hang());
    const controller = new AbortController();
    const running = h.run({ sessionKey: "s1", signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    const error = failed(await h.drive(running));
    expect((error as Error).name).toBe("AbortError");
    expect(h.provider("openai").calls).toHaveLength(1);
    expect(h.provider("anthropic").calls).toHaveLength(0);
    expect(await h.store.getAllUsageStats()).toEqual({});
    expect(h.eventsOf("run_finished")).toMatchObject([{ outcome: "aborted" }]);
  });

  it("R-EC-7: an abort while a fallback candidate runs rolls its override back", async () => {
    const h = await makeHarness();
    h.provider("openai").always({}, httpError(503, "Service Unavailable"));
    h.provider("anthropic").always({}, hang());
    const controller = new AbortController();
    h.detour.on("attempt_started", (event) => {
      if (event.provider === "anthropic") setImmediate(() => controller.abort());
    });
    failed(await h.drive(h.run({ sessionKey: "s1", signal: controller.signal })));
    const session = await h.detour.sessions.get("s1");
    expect(session?.modelOverride).toBeUndefined();
    expect(await h.store.getUsageStats("anthropic:a")).toBeUndefined();
  });

  it("R-EC-7: an abort during the timeout retry pause stops the run without recording", async () => {
    const h = await makeHarness();
    h.provider("openai").always({}, networkError("ETIMEDOUT"));
    const controller = new AbortController();
    h.detour.on("timeout_retry_scheduled", () => controller.abort());
    const error = failed(await h.drive(h.run({ signal: controller.signal })));
    expect((error as Error).name).toBe("AbortError");
    expect(await h.store.getAllUsageStats()).toEqual({});
  });

  it("R-CD-5: failures of a provider with cooldowns false (OpenRouter by default) are not recorded", async () => {
    const h = await makeHarness({
      profiles: { "openrouter:a": apiKey("openrouter", "or"), "google:a": apiKey("google", "g") },
      config: {
        agents: { defaults: { model: { primary: "openrouter/meta-llama/llama-3.3-70b", fallbacks: ["google/gemini-2.5-pro"] } } },
        models: { providers: { google: { cooldowns: false } } },
      },
    });
    h.provider("openrouter").always({}, httpError(429, "Rate limit exceeded"));
    h.provider("google").always({}, httpError(503, "Service Unavailable"));
    failed(await h.runToEnd());
    expect(await h.store.getAllUsageStats()).toEqual({});
    expect(h.eventsOf("profile_failure_recorded")).toHaveLength(0);
    // Nothing is cooling down, so the next run calls both again.
    failed(await h.runToEnd());
    expect(h.provider("openrouter").calls).toHaveLength(2);
  });

  it("R-CD-5: format and content-filter failures are not recorded on the profile", async () => {
    const h = await makeHarness();
    h.provider("openai").script({}, httpError(400, "does not support assistant message prefill"));
    succeeded(await h.runToEnd());
    expect(await h.store.getUsageStats("openai:a")).toBeUndefined();
  });

  it("R-FB-6: an all-unusable single candidate fails with a FailoverError that carries the reset time", async () => {
    const h = await makeHarness({ profiles: { "openai:a": apiKey("openai", "k") } });
    const until = h.clock.now() + HOUR;
    await h.store.replaceUsageStats("openai:a", {
      disabledUntil: until,
      disabledReason: "auth_permanent",
      failureCounts: { auth_permanent: 1 },
    });
    const error = failed(await h.runToEnd({ fallbacks: "none" }));
    expect(error).toBeInstanceOf(FailoverError);
    expect(error).toMatchObject({ reason: "auth_permanent", allInCooldown: true, resetAt: until });
    expect((error as Error).message).toBe("Provider openai has auth_permanent issue (skipping all models)");
  });
});
