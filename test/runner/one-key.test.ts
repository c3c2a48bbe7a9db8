/**
 * One key and no fallback (R-FB-9, R-RA-2, R-RN-6, R-CD-6): Detour never answers fewer requests than the
 * provider itself would. Through the library API on a FakeClock, a SeededRandom and the memory store.
 */
import { describe, expect, it } from "vitest";
import { UpstreamFailure } from "../../src/ports/provider.js";
import { MAX_STATED_WAIT_JITTER_MS } from "../../src/runner/retry-decisions.js";
import { httpError, success } from "../../src/testing/scripted-provider.js";
import { FALLBACK, PRIMARY, apiKey, failed, makeHarness, succeeded } from "./harness.js";

const RATE_LIMITED_1S = httpError(429, "Rate limit reached for requests", { "retry-after": "1" });

function oneKey(modelFailover: Record<string, unknown> = {}, defaults: Record<string, unknown> = {}) {
  return makeHarness({
    profiles: { "openai:a": apiKey("openai", "k") },
    config: { agents: { defaults: { model: { primary: PRIMARY }, modelFailover, ...defaults } } },
  });
}

describe("one key, no fallback", () => {
  it("R-FB-9: a stated Retry-After: 1 that trust-once lengthened to a ladder step is a guess once the second has passed: attempted, logged last_resort", async () => {
    // No same-request waits here: only the cooldown bookkeeping between requests is under test.
    const h = await oneKey({ shortWaitSeconds: 0, waitForCooldownMaxSeconds: 0 });
    h.provider("openai").script({}, RATE_LIMITED_1S, RATE_LIMITED_1S, RATE_LIMITED_1S, success("answered"));
    failed(await h.runToEnd());
    await h.clock.advanceAsync(1_500);
    // Refused again right after its stated second ran out: trust-once lengthens the window to the ladder step.
    failed(await h.runToEnd());
    const stats = await h.store.getUsageStats("openai:a");
    expect((stats?.blockedUntil ?? 0) - h.clock.now()).toBe(1_000);
    // The second failure counted: the ladder's second step (30 s, 60 s, 300 s).
    expect((stats?.cooldownUntil ?? 0) - h.clock.now()).toBe(60_000);

    // While the provider's own second lasts, nobody is called (a live stated reset is a fact, not a guess).
    failed(await h.runToEnd());
    expect(h.provider("openai").calls).toHaveLength(2);

    // Past it only the lengthening is left: the primary's throttled probe, then the last resort.
    await h.clock.advanceAsync(1_500);
    failed(await h.runToEnd());
    expect(h.provider("openai").calls).toHaveLength(3);
    await h.clock.advanceAsync(1_500);
    const out = succeeded(await h.runToEnd());
    expect(out.result.content[0]).toEqual({ type: "text", text: "answered" });
    expect(h.provider("openai").calls).toHaveLength(4);
    const decisions = h.eventsOf("model_fallback_decision").map((event) => event.decision);
    expect(decisions.slice(-3)).toEqual(["skip_candidate", "last_resort", "candidate_succeeded"]);
  });

  it("R-RA-2: a request arriving during the provider's stated second waits for it, jittered, and is answered — not refused", async () => {
    const h = await oneKey();
    const start = h.clock.now();
    // Another request was just told "Retry-After: 1" and trust-once lengthened it: 1 s stated, 30 s guessed.
    await h.store.replaceUsageStats("openai:a", {
      blockedUntil: start + 1_000,
      blockedReason: "rate_limit",
      cooldownUntil: start + 30_000,
      cooldownReason: "rate_limit",
      errorCount: 2,
      failureCounts: { rate_limit: 2 },
      lastFailureAt: start,
    });
    h.provider("openai").script({}, success("after the stated second"));
    const out = succeeded(await h.runToEnd());
    expect(out.result.content[0]).toEqual({ type: "text", text: "after the stated second" });
    const [wait] = h.eventsOf("cooldown_wait");
    expect(wait?.until).toBe(start + 1_000);
    expect(wait?.waitMs).toBeGreaterThanOrEqual(1_000);
    expect(wait?.waitMs).toBeLessThanOrEqual(1_000 + MAX_STATED_WAIT_JITTER_MS);
    expect(h.provider("openai").calls.map((call) => call.at)).toEqual([start + (wait?.waitMs ?? 0)]);
  });

  it("R-RA-2: requests that waited for the same stated second do not all land in the same millisecond", async () => {
    const h = await oneKey();
    const landings = new Set<number>();
    h.provider("openai").always({}, success("ok"));
    for (let request = 0; request < 10; request += 1) {
      const began = h.clock.now();
      await h.store.replaceUsageStats("openai:a", { blockedUntil: began + 1_000, blockedReason: "rate_limit", lastFailureAt: began });
      succeeded(await h.runToEnd());
      landings.add((h.provider("openai").calls.at(-1)?.at ?? 0) - began);
    }
    expect(landings.size).toBeGreaterThan(5);
  });

  it("R-RN-6: with no fallback a stated second is waited out and retried even after trust-once stopped trusting it; then R-RA-2 once more", async () => {
    const h = await oneKey();
    h.provider("openai").script({}, RATE_LIMITED_1S, RATE_LIMITED_1S, RATE_LIMITED_1S, RATE_LIMITED_1S, RATE_LIMITED_1S, success("fifth"));
    // First request: the call, its short wait and retry, the R-RA-2 wait and the last resort: three calls, all refused.
    const error = failed(await h.runToEnd());
    expect(error).toBeInstanceOf(UpstreamFailure);
    expect((error as UpstreamFailure).failure.status).toBe(429);
    expect(h.provider("openai").calls).toHaveLength(3);
    // Second request, right away: the stated second is live, so it waits, then retries after a short wait.
    const out = succeeded(await h.runToEnd());
    expect(out.result.content[0]).toEqual({ type: "text", text: "fifth" });
    expect(h.provider("openai").calls).toHaveLength(6);
    // Every call came at least a stated second after the refusal before it.
    const at = h.provider("openai").calls.map((call) => call.at);
    for (let index = 1; index < at.length; index += 1) expect((at[index] ?? 0) - (at[index - 1] ?? 0)).toBeGreaterThanOrEqual(1_000);
    expect(h.eventsOf("short_wait")).toHaveLength(2);
  });

  it("R-RN-6: the stated block is on record before the short wait, so concurrent requests see it at once", async () => {
    const h = await oneKey();
    h.provider("openai").script({}, RATE_LIMITED_1S, success("after the wait"));
    succeeded(await h.runToEnd());
    const types = h.events.map((event) => event.type);
    const recorded = types.indexOf("profile_failure_recorded");
    expect(recorded).toBeGreaterThanOrEqual(0);
    expect(recorded).toBeLessThan(types.indexOf("short_wait"));
    const [event] = h.eventsOf("profile_failure_recorded");
    expect(event?.stats).toMatchObject({ blockedReason: "rate_limit" });
    // The retry was a fresh attempt and answered: nothing stays on the profile.
    expect((await h.store.getUsageStats("openai:a"))?.blockedUntil).toBeUndefined();
  });

  it("R-RA-2: a wait that would end after the run's deadline is not waited: the refusal comes at once", async () => {
    const h = await oneKey({}, { timeoutSeconds: 1 });
    const start = h.clock.now();
    await h.store.replaceUsageStats("openai:a", { blockedUntil: start + 1_000, blockedReason: "rate_limit", lastFailureAt: start });
    failed(await h.runToEnd());
    expect(h.clock.now()).toBe(start);
    expect(h.provider("openai").calls).toHaveLength(0);
    expect(h.eventsOf("cooldown_wait")).toHaveLength(0);
  });

  it("R-CD-6: with a fallback the same provider is not waited for: the fallback answers at once", async () => {
    const h = await makeHarness({
      profiles: { "openai:a": apiKey("openai", "k"), "anthropic:a": apiKey("anthropic", "a") },
      config: { agents: { defaults: { model: { primary: PRIMARY, fallbacks: [FALLBACK] } } } },
    });
    const start = h.clock.now();
    await h.store.replaceUsageStats("openai:a", { blockedUntil: start + 1_000, blockedReason: "rate_limit", lastFailureAt: start });
    const out = succeeded(await h.runToEnd());
    expect(out.provider).toBe("anthropic");
    expect(h.clock.now()).toBe(start);
    expect(h.eventsOf("cooldown_wait")).toHaveLength(0);
  });
});
