/**
 * Scenario tests of the auth-profile runner (SPEC §6) through the library API, on a FakeClock,
 * ScriptedProviders and the memory store.
 */
import { describe, expect, it } from "vitest";
import { FailoverError } from "../../src/core/errors.js";
import { httpError, hang, networkError, success, type ScriptedOutcome } from "../../src/testing/scripted-provider.js";
import { SeededRandom } from "../../src/testing/seeded-random.js";
import { DEFAULT_PROFILES, FALLBACK, PRIMARY, SEED, apiKey, failed, makeHarness, succeeded } from "./harness.js";

const THREE_OPENAI = {
  "openai:a": apiKey("openai", "sk-test-a"),
  "openai:b": apiKey("openai", "sk-test-b"),
  "openai:c": apiKey("openai", "sk-test-c"),
  "anthropic:a": apiKey("anthropic", "sk-ant-test-a"),
};

function expectedJitterMs(): number {
  return Math.round(300 + new SeededRandom(SEED).next() * 900);
}

describe("auth-profile runner", () => {
  it("R-RN-1: the session pins the first usable profile and later runs try it first", async () => {
    const h = await makeHarness();
    const first = succeeded(await h.runToEnd({ sessionKey: "s1" }));
    expect(first.profileId).toBe("openai:a");
    const session = await h.detour.sessions.get("s1");
    expect(session).toMatchObject({ authProfileOverride: "openai:a", authProfileOverrideSource: "auto" });

    // Round robin alone would now prefer the never-used openai:b; the auto pin keeps openai:a.
    const second = succeeded(await h.runToEnd({ sessionKey: "s1" }));
    expect(second.profileId).toBe("openai:a");
    const withoutSession = succeeded(await h.runToEnd());
    expect(withoutSession.profileId).toBe("openai:b");
  });

  it("R-RN-1: order comes from auth.order and unusable profiles are skipped", async () => {
    const h = await makeHarness({
      config: {
        agents: { defaults: { model: { primary: PRIMARY, fallbacks: [FALLBACK] } } },
        auth: { order: { openai: ["openai:b", "openai:a"] } },
      },
    });
    h.provider("openai").script({ profileId: "openai:b" }, httpError(429, "rate limit"));
    succeeded(await h.runToEnd());
    expect(h.provider("openai").calls.map((call) => call.profileId)).toEqual(["openai:b", "openai:a"]);

    // openai:b is cooling down now: the next run starts with openai:a and never calls openai:b.
    succeeded(await h.runToEnd());
    expect(h.provider("openai").calls.map((call) => call.profileId)).toEqual(["openai:b", "openai:a", "openai:a"]);
  });

  it("R-RN-1: a provider without profiles runs once without a credential", async () => {
    const h = await makeHarness({ profiles: {} });
    const out = succeeded(await h.runToEnd({ model: "ollama/qwen3", fallbacks: "none" }));
    expect(out).toMatchObject({ provider: "ollama", model: "qwen3" });
    expect(out.profileId).toBeUndefined();
    expect(h.provider("ollama").calls).toHaveLength(1);
    expect(h.provider("ollama").calls[0]?.credentialType).toBeUndefined();
  });

  it("R-RN-2: a rate limit rotates to the next profile and succeeds on the same model", async () => {
    const h = await makeHarness();
    h.provider("openai").script({ profileId: "openai:a" }, httpError(429, "Too many requests"));
    const out = succeeded(await h.runToEnd({ sessionKey: "s1" }));
    expect(out).toMatchObject({ provider: "openai", model: "gpt-5", profileId: "openai:b", attempts: [] });
    expect(out.notice).toBeUndefined();
    const stats = await h.store.getUsageStats("openai:a");
    expect(stats).toMatchObject({ errorCount: 1, cooldownReason: "rate_limit", cooldownModel: "gpt-5" });
    expect(stats?.cooldownUntil).toBe(h.clock.now() + 30_000);
    expect(await h.store.getLastGood("openai")).toBe("openai:b");
  });

  it("R-RN-2: a format error stops rotating, is not recorded, and the run moves to the next model", async () => {
    const h = await makeHarness();
    h.provider("openai").always({}, httpError(400, "tool_call_id string should match pattern '^[a-z]+$'"));
    const out = succeeded(await h.runToEnd());
    expect(h.provider("openai").calls.map((call) => call.profileId)).toEqual(["openai:a"]);
    expect(out.provider).toBe("anthropic");
    expect(out.attempts[0]).toMatchObject({ reason: "format", status: 400 });
    expect(await h.store.getUsageStats("openai:a")).toBeUndefined();
  });

  it("R-RN-2: model_not_found fails the candidate without trying another profile", async () => {
    const h = await makeHarness();
    h.provider("openai").always({}, httpError(404, "The model `gpt-5` does not exist"));
    const out = succeeded(await h.runToEnd());
    expect(h.provider("openai").calls).toHaveLength(1);
    expect(out.attempts[0]?.reason).toBe("model_not_found");
    expect(await h.store.getUsageStats("openai:a")).toMatchObject({ cooldownReason: "model_not_found", cooldownModel: "gpt-5" });
  });

  it("R-RN-3: with a fallback, rate-limit rotation is capped: three profiles, two tried, both marked", async () => {
    const h = await makeHarness({ profiles: THREE_OPENAI });
    h.provider("openai").always({}, httpError(429, "rate limit reached"));
    const out = succeeded(await h.runToEnd());
    expect(h.provider("openai").calls.map((call) => call.profileId)).toEqual(["openai:a", "openai:b"]);
    expect(out.provider).toBe("anthropic");
    expect((await h.store.getUsageStats("openai:a"))?.cooldownReason).toBe("rate_limit");
    expect((await h.store.getUsageStats("openai:b"))?.cooldownReason).toBe("rate_limit");
    expect(await h.store.getUsageStats("openai:c")).toBeUndefined();
  });

  it("R-RN-3: without a fallback the caps are ignored and every usable profile is tried", async () => {
    const h = await makeHarness({ profiles: THREE_OPENAI });
    h.provider("openai").always({}, httpError(529, "Overloaded"));
    const error = failed(await h.runToEnd({ fallbacks: "none" }));
    expect(h.provider("openai").calls.map((call) => call.profileId)).toEqual(["openai:a", "openai:b", "openai:c"]);
    expect(error).toMatchObject({ name: "UpstreamFailure" });
  });

  it("R-RN-3: overloadedBackoffMs pauses after each overloaded rotation and before the escalation", async () => {
    const h = await makeHarness({
      profiles: THREE_OPENAI,
      config: {
        agents: { defaults: { model: { primary: PRIMARY, fallbacks: [FALLBACK] } } },
        auth: { cooldowns: { overloadedBackoffMs: 500 } },
      },
    });
    h.provider("openai").always({}, httpError(529, "Overloaded"));
    const start = h.clock.now();
    succeeded(await h.runToEnd());
    const calls = h.provider("openai").calls;
    expect(calls.map((call) => call.at)).toEqual([start, start + 500]);
    expect(h.provider("anthropic").calls[0]?.at).toBe(start + 1000);
    expect(h.eventsOf("overloaded_backoff")).toHaveLength(2);
  });

  it("R-RN-3: the overloaded pause is abortable", async () => {
    const h = await makeHarness({
      config: {
        agents: { defaults: { model: { primary: PRIMARY, fallbacks: [FALLBACK] } } },
        auth: { cooldowns: { overloadedBackoffMs: 5_000 } },
      },
    });
    h.provider("openai").always({}, httpError(529, "Overloaded"));
    const controller = new AbortController();
    h.detour.on("overloaded_backoff", () => controller.abort());
    const error = failed(await h.runToEnd({ signal: controller.signal }));
    expect((error as Error).name).toBe("AbortError");
    expect(h.provider("openai").calls).toHaveLength(1);
    expect(h.provider("anthropic").calls).toHaveLength(0);
  });

  /**
   * Runs with openai:a failing once with `failure` and then answering; checks both calls went to openai:a, the
   * second after the seeded jitter, and returns the harness and that pause.
   */
  async function answeredOnRetry(failure: ScriptedOutcome) {
    const h = await makeHarness();
    h.provider("openai").script({ profileId: "openai:a" }, failure, success("second time lucky"));
    const start = h.clock.now();
    const out = succeeded(await h.runToEnd());
    const delay = expectedJitterMs();
    expect(out.profileId).toBe("openai:a");
    expect(h.provider("openai").calls.map((call) => [call.profileId, call.at])).toEqual([
      ["openai:a", start],
      ["openai:a", start + delay],
    ]);
    return { h, delay };
  }

  it("R-RN-4: a timeout retries the same profile after a jittered pause, writes no cooldown, then succeeds", async () => {
    const { h, delay } = await answeredOnRetry(networkError("ETIMEDOUT"));
    expect(delay).toBeGreaterThanOrEqual(300);
    expect(delay).toBeLessThanOrEqual(1200);
    expect(h.messages()).toContain(`Profile openai:a timed out. Retry 1/1 in ${delay}ms…`);
    expect((await h.store.getUsageStats("openai:a"))?.errorCount ?? 0).toBe(0);
    expect(h.eventsOf("profile_failure_recorded")).toHaveLength(0);
  });

  it("R-RN-4: retries used up: the timeout is recorded on the timeout ladder and the profile rotated", async () => {
    const h = await makeHarness();
    h.provider("openai").always({ profileId: "openai:a" }, networkError("ETIMEDOUT"));
    const out = succeeded(await h.runToEnd());
    expect(out.profileId).toBe("openai:b");
    expect(h.provider("openai").calls.map((call) => call.profileId)).toEqual(["openai:a", "openai:a", "openai:b"]);
    const messages = h.messages();
    const retry = messages.findIndex((line) => /^Profile openai:a timed out\. Retry 1\/1 in \d+ms…$/.test(line));
    const exhausted = messages.indexOf("Profile openai:a timed out (1 retries exhausted). Trying next account...");
    const cooldown = messages.indexOf("Cooldown applied: 10000ms for timeout reason");
    expect(retry).toBeGreaterThanOrEqual(0);
    expect(exhausted).toBeGreaterThan(retry);
    expect(cooldown).toBeGreaterThan(exhausted);
    expect(await h.store.getUsageStats("openai:a")).toMatchObject({ cooldownReason: "timeout", failureCounts: { timeout: 1 } });
  });

  it("R-RN-4: a hung attempt is cut by the provider watchdog and treated as a timeout", async () => {
    const h = await makeHarness({
      config: {
        agents: { defaults: { model: { primary: PRIMARY, fallbacks: [FALLBACK] } } },
        models: { providers: { openai: { timeoutSeconds: 5 } } },
      },
    });
    h.provider("openai").script({ profileId: "openai:a" }, hang(), success("second try"));
    const start = h.clock.now();
    const out = succeeded(await h.runToEnd());
    expect(out.profileId).toBe("openai:a");
    expect(h.provider("openai").calls[1]?.at).toBe(start + 5_000 + expectedJitterMs());
  });

  it("R-RN-4: rate limits never take the retry gate, and retrySameProfileOnTimeout 0 disables it", async () => {
    const h = await makeHarness({
      config: {
        agents: {
          defaults: {
            model: { primary: PRIMARY, fallbacks: [FALLBACK] },
            // No R-RA-2 wait: this test is about one pass over the profiles.
            modelFailover: { retrySameProfileOnTimeout: 0, waitForCooldownMaxSeconds: 0 },
          },
        },
      },
    });
    h.provider("openai").script({ profileId: "openai:a" }, httpError(429, "rate limit"));
    h.provider("openai").script({ profileId: "openai:b" }, networkError("ECONNRESET"));
    failed(await h.runToEnd({ fallbacks: "none" }));
    expect(h.provider("openai").calls.map((call) => call.profileId)).toEqual(["openai:a", "openai:b"]);
    expect(h.eventsOf("timeout_retry_scheduled")).toHaveLength(0);
    expect(h.eventsOf("timeout_retries_exhausted")).toHaveLength(0);
  });

  it("R-RN-5: every profile unusable: the best-explaining reason, allInCooldown, and the exact log line", async () => {
    const h = await makeHarness();
    const now = h.clock.now();
    await h.store.replaceUsageStats("openai:a", {
      disabledUntil: now + 3_600_000,
      disabledReason: "billing",
      failureCounts: { billing: 1 },
    });
    await h.store.replaceUsageStats("openai:b", {
      cooldownUntil: now + 600_000,
      cooldownReason: "rate_limit",
      errorCount: 3,
      failureCounts: { rate_limit: 3 },
    });
    const error = failed(await h.runToEnd({ fallbacks: "none" }));
    expect(error).toBeInstanceOf(FailoverError);
    expect(error).toMatchObject({ reason: "billing", allInCooldown: true, provider: "openai", model: "gpt-5" });
    expect(h.messages()).toContain("No available auth profile for openai (all in cooldown or unavailable).");
    expect(h.provider("openai").calls).toHaveLength(0);
  });

  it("R-RN-5: a strict user pin that is cooling down fails the candidate with allInCooldown", async () => {
    const h = await makeHarness();
    await h.detour.sessions.patch("s1", { profile: "openai:a" });
    await h.store.replaceUsageStats("openai:a", {
      cooldownUntil: h.clock.now() + 60_000,
      cooldownReason: "overloaded",
      errorCount: 1,
      failureCounts: { overloaded: 1 },
    });
    const out = succeeded(await h.runToEnd({ sessionKey: "s1" }));
    expect(h.provider("openai").calls).toHaveLength(0);
    expect(out.provider).toBe("anthropic");
    expect(out.attempts[0]).toMatchObject({ provider: "openai", reason: "overloaded" });
    expect(h.messages()).toContain("No available auth profile for openai (all in cooldown or unavailable).");
  });

  it("R-RN-6: a short stated wait on the last usable profile is waited out and the same profile retried", async () => {
    const h = await makeHarness({ profiles: { "openai:a": DEFAULT_PROFILES["openai:a"]! } });
    h.provider("openai").script({}, httpError(429, "rate limited", { "retry-after": "2" }), success("after the wait"));
    const start = h.clock.now();
    const out = succeeded(await h.runToEnd());
    expect(out.provider).toBe("openai");
    // With a fallback configured, the wait is the stated time exactly (no jitter: nobody else waits for it).
    expect(h.provider("openai").calls.map((call) => call.at)).toEqual([start, start + 2_000]);
    expect(h.eventsOf("short_wait")).toMatchObject([{ profileId: "openai:a", waitMs: 2_000, reason: "rate_limit" }]);
    expect((await h.store.getUsageStats("openai:a"))?.errorCount ?? 0).toBe(0);
  });

  it("R-RN-6: with another usable profile the runner rotates instead of waiting", async () => {
    const h = await makeHarness();
    h.provider("openai").script({ profileId: "openai:a" }, httpError(429, "rate limited", { "retry-after": "2" }));
    const start = h.clock.now();
    const out = succeeded(await h.runToEnd());
    expect(out.profileId).toBe("openai:b");
    expect(h.provider("openai").calls.map((call) => call.at)).toEqual([start, start]);
    expect(h.eventsOf("short_wait")).toHaveLength(0);
  });

  const SERVER_ERROR = httpError(
    500,
    '{"error":{"type":"server_error","message":"The server had an error while processing your request."}}',
  );

  it("R-RN-4: a 500 server error retries the same profile after a jittered pause, writes no cooldown, then succeeds", async () => {
    const { h, delay } = await answeredOnRetry(SERVER_ERROR);
    expect(h.messages()).toContain(`Profile openai:a failed (500). Retry 1/1 in ${delay}ms…`);
    expect(h.eventsOf("server_error_retry_scheduled")).toMatchObject([{ profileId: "openai:a", status: 500, retry: 1, maxRetries: 1 }]);
    expect(h.eventsOf("profile_failure_recorded")).toHaveLength(0);
    expect((await h.store.getUsageStats("openai:a"))?.errorCount ?? 0).toBe(0);
  });

  it("R-RN-4: server-error retries used up: recorded on the ladder and rotated, with the specified lines", async () => {
    const h = await makeHarness();
    h.provider("openai").always({ profileId: "openai:a" }, SERVER_ERROR);
    const out = succeeded(await h.runToEnd());
    expect(out.profileId).toBe("openai:b");
    expect(h.provider("openai").calls.map((call) => call.profileId)).toEqual(["openai:a", "openai:a", "openai:b"]);
    const messages = h.messages();
    const retry = messages.findIndex((line) => /^Profile openai:a failed \(500\)\. Retry 1\/1 in \d+ms…$/.test(line));
    const exhausted = messages.indexOf("Profile openai:a failed (500) (1 retries exhausted). Trying next account...");
    const cooldown = messages.indexOf("Cooldown applied: 30000ms for server_error reason");
    expect(retry).toBeGreaterThanOrEqual(0);
    expect(exhausted).toBeGreaterThan(retry);
    expect(cooldown).toBeGreaterThan(exhausted);
    expect(await h.store.getUsageStats("openai:a")).toMatchObject({
      cooldownReason: "server_error",
      errorCount: 1,
      cooldownModel: "gpt-5",
    });
  });

  it("R-RN-4: retrySameProfileOnServerError sets the retries (0 disables) and is counted apart from timeouts", async () => {
    const config = (retries: number) => ({
      agents: {
        defaults: { model: { primary: PRIMARY, fallbacks: [FALLBACK] }, modelFailover: { retrySameProfileOnServerError: retries } },
      },
    });
    const off = await makeHarness({ config: config(0) });
    off.provider("openai").script({ profileId: "openai:a" }, SERVER_ERROR);
    expect(succeeded(await off.runToEnd()).profileId).toBe("openai:b");
    expect(off.provider("openai").calls.map((call) => call.profileId)).toEqual(["openai:a", "openai:b"]);
    expect(off.eventsOf("server_error_retry_scheduled")).toHaveLength(0);

    const twice = await makeHarness({ config: config(2) });
    // One timeout retry and two server-error retries on the same profile: the counters do not share a budget.
    twice.provider("openai").script({ profileId: "openai:a" }, networkError("ETIMEDOUT"), SERVER_ERROR, SERVER_ERROR, success("at last"));
    expect(succeeded(await twice.runToEnd()).profileId).toBe("openai:a");
    expect(twice.provider("openai").calls).toHaveLength(4);
    expect(twice.eventsOf("server_error_retry_scheduled").map((event) => event.retry)).toEqual([1, 2]);
    expect(twice.eventsOf("timeout_retry_scheduled")).toHaveLength(1);
  });

  it("R-RN-4: a 503 or 529 is overloaded and never takes the server-error retry gate", async () => {
    const h = await makeHarness();
    h.provider("openai").script({ profileId: "openai:a" }, httpError(503, "Service Unavailable"));
    expect(succeeded(await h.runToEnd()).profileId).toBe("openai:b");
    expect(h.provider("openai").calls.map((call) => call.profileId)).toEqual(["openai:a", "openai:b"]);
    expect(h.eventsOf("server_error_retry_scheduled")).toHaveLength(0);
    expect((await h.store.getUsageStats("openai:a"))?.cooldownReason).toBe("overloaded");
  });

  it("R-CD-4: a 503 on one model of a single key leaves the key serving the provider's other models", async () => {
    const h = await makeHarness({
      profiles: { "openai:a": DEFAULT_PROFILES["openai:a"]!, "anthropic:a": DEFAULT_PROFILES["anthropic:a"]! },
    });
    h.provider("openai").always({ model: "gpt-5" }, httpError(503, "Service Unavailable: the model is overloaded"));
    const stormed = succeeded(await h.runToEnd({ model: "openai/gpt-5" }));
    expect(stormed.provider).toBe("anthropic");
    expect(await h.store.getUsageStats("openai:a")).toMatchObject({ cooldownReason: "overloaded", cooldownModel: "gpt-5" });

    // The other models of the same key answer from openai at once, without a probe or a fallback.
    for (const model of ["openai/gpt-5-mini", "openai/o3"]) {
      const out = succeeded(await h.runToEnd({ model }));
      expect(out).toMatchObject({ provider: "openai", profileId: "openai:a", attempts: [] });
    }
    expect(h.provider("openai").calls.map((call) => call.model)).toEqual(["gpt-5", "gpt-5-mini", "o3"]);
  });

  it("R-CD-1: ten concurrent runs caught by one hung upstream leave the profile on the first ladder step", async () => {
    const h = await makeHarness({
      profiles: { "openai:a": DEFAULT_PROFILES["openai:a"]!, "anthropic:a": DEFAULT_PROFILES["anthropic:a"]! },
      config: {
        agents: { defaults: { model: { primary: PRIMARY, fallbacks: [FALLBACK] } } },
        models: { providers: { openai: { timeoutSeconds: 5 } } },
      },
    });
    h.provider("openai").always({}, hang());
    const runs = Array.from({ length: 10 }, () => h.run());
    const outcomes = succeeded(await h.drive(Promise.all(runs)));
    expect(outcomes.every((out) => out.provider === "anthropic")).toBe(true);
    // Every run tried the key twice (R-RN-4), all twenty attempts hung on the same outage.
    expect(h.provider("openai").calls).toHaveLength(20);
    const stats = await h.store.getUsageStats("openai:a");
    expect(stats).toMatchObject({ errorCount: 1, failureCounts: { timeout: 10 }, cooldownReason: "timeout" });
    expect((stats?.cooldownUntil ?? 0) - (stats?.lastFailureAt ?? 0)).toBe(10_000);
  });

  it("R-CD-6: a primary answering 429 + Retry-After: 1 with a healthy fallback gets ≤ 1.05 calls per request over a minute", async () => {
    const h = await makeHarness({
      profiles: { "openai:a": DEFAULT_PROFILES["openai:a"]!, "anthropic:a": DEFAULT_PROFILES["anthropic:a"]! },
    });
    h.provider("openai").always({}, httpError(429, "Rate limit reached for requests", { "retry-after": "1" }));
    const start = h.clock.now();
    const latencies: number[] = [];
    let requests = 0;
    while (h.clock.now() - start < 60_000) {
      const began = h.clock.now();
      const out = succeeded(await h.runToEnd());
      expect(out.provider).toBe("anthropic");
      latencies.push(h.clock.now() - began);
      requests += 1;
      // Two requests per second of traffic.
      await h.clock.advanceAsync(Math.max(0, 500 - (h.clock.now() - began)));
    }
    const upstream = h.provider("openai").calls.length + h.provider("anthropic").calls.length;
    expect(upstream / requests).toBeLessThanOrEqual(1.05);
    // Only the very first refusal is waited out (R-RN-6): once a stated second has run out, it is not trusted again.
    expect(h.eventsOf("short_wait")).toHaveLength(1);
    expect(latencies.filter((ms) => ms >= 1_000)).toHaveLength(1);
    expect(h.eventsOf("cooldown_wait")).toHaveLength(0);
  });
});
