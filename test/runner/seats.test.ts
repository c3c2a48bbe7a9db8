/**
 * R-PO-8 seats through the runner: a real Detour on a memory store and a FakeClock, attempts that hold their
 * profile for a while, and a count of what is in flight on each profile at every moment.
 */
import { describe, expect, it } from "vitest";
import type { DetourConfigInput } from "../../src/config/index.js";
import { SeatsFullError } from "../../src/core/errors.js";
import type { AttemptContext } from "../../src/runner/attempt.js";
import { UpstreamFailure } from "../../src/ports/provider.js";
import { apiKey, failed, makeHarness, succeeded, type Harness } from "./harness.js";

const PROFILES = {
  "openai:a": apiKey("openai", "sk-a"),
  "openai:b": apiKey("openai", "sk-b"),
  "anthropic:a": apiKey("anthropic", "sk-ant-a"),
};

function config(options: {
  maxConcurrent?: Record<string, number>;
  gateway?: { queueTimeoutSeconds?: number; queueMax?: number; streamStallSeconds?: number };
  fallbacks?: string[];
}): DetourConfigInput {
  const profiles = Object.fromEntries(
    Object.entries(options.maxConcurrent ?? {}).map(([id, max]) => [
      id,
      { provider: id.split(":")[0] as string, mode: "api_key" as const, maxConcurrent: max },
    ]),
  );
  return {
    auth: { profiles },
    agents: {
      defaults: {
        model: { primary: "openai/gpt-5", fallbacks: options.fallbacks ?? [] },
        modelFailover: { retrySameProfileOnTimeout: 0, shortWaitSeconds: 0, waitForCooldownMaxSeconds: 0 },
      },
    },
    ...(options.gateway ? { gateway: options.gateway } : {}),
  };
}

/** An attempt that holds its profile `holdMs` and counts what is in flight on every profile meanwhile. */
function holdingAttempt(h: Harness, holdMs: number, fail?: (context: AttemptContext, inFlight: number) => unknown) {
  const inFlight = new Map<string, number>();
  const maxInFlight = new Map<string, number>();
  const calls: string[] = [];
  const attempt = async (context: AttemptContext) => {
    const id = context.profileId ?? "(keyless)";
    calls.push(id);
    const now = (inFlight.get(id) ?? 0) + 1;
    inFlight.set(id, now);
    maxInFlight.set(id, Math.max(maxInFlight.get(id) ?? 0, now));
    try {
      const failure = fail?.(context, now);
      if (failure) throw failure;
      await h.clock.sleep(holdMs, context.signal);
      return { id, text: `answer from ${id}` };
    } finally {
      inFlight.set(id, (inFlight.get(id) ?? 1) - 1);
    }
  };
  return { attempt, maxInFlight, calls };
}

describe("seats in the runner", () => {
  it("R-PO-8 attempts on a profile never exceed maxConcurrent: a full profile is passed over, then the rest wait in line", async () => {
    const h = await makeHarness({ profiles: PROFILES, config: config({ maxConcurrent: { "openai:a": 1, "openai:b": 1 } }) });
    const { attempt, maxInFlight } = holdingAttempt(h, 1000);
    const runs = Array.from({ length: 5 }, () => h.detour.runWith({ attempt }));
    const outcomes = succeeded(await h.drive(Promise.all(runs)));
    expect(outcomes).toHaveLength(5);
    expect(maxInFlight.get("openai:a")).toBe(1);
    expect(maxInFlight.get("openai:b")).toBe(1);
    const passedOver = h.eventsOf("profile_passed_over");
    expect(passedOver.length).toBeGreaterThan(0);
    expect(passedOver.every((event) => event.reason === "concurrency_limited")).toBe(true);
    expect(h.eventsOf("seat_queue_wait").length).toBeGreaterThanOrEqual(3);
    const skips = h.eventsOf("model_fallback_decision").filter((event) => event.decision === "skip_candidate");
    expect(skips.every((event) => event.reason === "concurrency_limited")).toBe(true);
    // Nothing was recorded against the accounts: a full profile is not a failing one.
    expect((await h.store.getUsageStats("openai:a"))?.errorCount ?? 0).toBe(0);
    // Every seat is back and the line is empty.
    const status = await h.detour.status();
    expect(status.queueLength).toBe(0);
    const seats = Object.fromEntries(status.agents[0]!.profiles.map((profile) => [profile.id, profile.seats]));
    expect(seats["openai:a"]).toEqual({ inFlight: 0, limit: 1, queued: 0 });
  });

  it("R-PO-8 in-flight and queue length per profile show in status while requests wait", async () => {
    const h = await makeHarness({ profiles: PROFILES, config: config({ maxConcurrent: { "openai:a": 1, "openai:b": 1 } }) });
    const { attempt } = holdingAttempt(h, 1000);
    const runs = Array.from({ length: 3 }, () => h.detour.runWith({ attempt }));
    for (let step = 0; step < 20; step += 1) await new Promise((resolve) => setImmediate(resolve));
    const status = await h.detour.status();
    expect(status.queueLength).toBe(1);
    const seats = Object.fromEntries(status.agents[0]!.profiles.map((profile) => [profile.id, profile.seats]));
    expect(seats["openai:a"]).toEqual({ inFlight: 1, limit: 1, queued: 1 });
    expect(seats["openai:b"]).toEqual({ inFlight: 1, limit: 1, queued: 1 });
    expect(seats["anthropic:a"]).toBeUndefined();
    succeeded(await h.drive(Promise.all(runs)));
  });

  it("R-PO-8 a full primary sends the request to a fallback candidate with a free seat, without waiting", async () => {
    const h = await makeHarness({
      profiles: PROFILES,
      config: config({ maxConcurrent: { "openai:a": 1, "openai:b": 1 }, fallbacks: ["anthropic/claude-sonnet-4-6"] }),
    });
    const { attempt, calls } = holdingAttempt(h, 1000);
    const outcomes = succeeded(await h.drive(Promise.all(Array.from({ length: 3 }, () => h.detour.runWith({ attempt })))));
    expect(outcomes.map((outcome) => outcome.provider).sort()).toEqual(["anthropic", "openai", "openai"]);
    expect(calls.filter((id) => id === "anthropic:a")).toHaveLength(1);
    expect(h.eventsOf("seat_queue_wait")).toHaveLength(0);
  });

  it("R-PO-8 a request still waiting at gateway.queueTimeoutSeconds ends with SeatsFullError (429, Retry-After), not a moment before", async () => {
    const h = await makeHarness({
      profiles: { "openai:a": apiKey("openai", "sk-a") },
      config: config({ maxConcurrent: { "openai:a": 1 }, gateway: { queueTimeoutSeconds: 5 } }),
    });
    const { attempt } = holdingAttempt(h, 60_000);
    const holder = h.detour.runWith({ attempt });
    const startedAt = h.clock.now();
    const waiter = h.detour.runWith({ attempt });
    let settledAt: number | undefined;
    waiter.then(
      () => (settledAt = h.clock.now()),
      () => (settledAt = h.clock.now()),
    );
    const error = failed(await h.drive(waiter));
    expect(error).toBeInstanceOf(SeatsFullError);
    expect((error as SeatsFullError).code).toBe("DETOUR_SEATS_FULL");
    expect((error as SeatsFullError).why).toBe("timed_out");
    expect((error as SeatsFullError).profileIds).toEqual(["openai:a"]);
    expect((error as SeatsFullError).retryAfterMs).toBeGreaterThan(0);
    expect(settledAt! - startedAt).toBeGreaterThanOrEqual(5000);
    expect(settledAt! - startedAt).toBeLessThan(5300);
    succeeded(await h.drive(holder, 5000));
  });

  it("R-PO-8 with gateway.queueMax reached a request is turned away at once", async () => {
    const h = await makeHarness({
      profiles: { "openai:a": apiKey("openai", "sk-a") },
      config: config({ maxConcurrent: { "openai:a": 1 }, gateway: { queueMax: 1 } }),
    });
    const { attempt } = holdingAttempt(h, 10_000);
    const holder = h.detour.runWith({ attempt });
    const waiting = h.detour.runWith({ attempt });
    for (let step = 0; step < 20; step += 1) await new Promise((resolve) => setImmediate(resolve));
    const startedAt = h.clock.now();
    const error = failed(await h.drive(h.detour.runWith({ attempt })));
    expect((error as SeatsFullError).why).toBe("queue_full");
    expect(h.clock.now()).toBe(startedAt);
    succeeded(await h.drive(Promise.all([holder, waiting]), 5000));
  });

  it("R-PO-8 a caller that gives up leaves the line at once", async () => {
    const h = await makeHarness({
      profiles: { "openai:a": apiKey("openai", "sk-a") },
      config: config({ maxConcurrent: { "openai:a": 1 } }),
    });
    const { attempt } = holdingAttempt(h, 10_000);
    const holder = h.detour.runWith({ attempt });
    const controller = new AbortController();
    const waiter = h.detour.runWith({ attempt, signal: controller.signal });
    for (let step = 0; step < 20; step += 1) await new Promise((resolve) => setImmediate(resolve));
    expect((await h.detour.status()).queueLength).toBe(1);
    controller.abort();
    const outcome = await waiter.then(
      () => "answered",
      (error: unknown) => (error as Error).name,
    );
    expect(outcome).toBe("AbortError");
    expect((await h.detour.status()).queueLength).toBe(0);
    succeeded(await h.drive(holder, 5000));
  });

  it("R-PO-8 a strict user pin on a full profile waits for its seat instead of moving to another profile", async () => {
    const h = await makeHarness({ profiles: PROFILES, config: config({ maxConcurrent: { "openai:a": 1, "openai:b": 1 } }) });
    await h.detour.sessions.patch("pinned", { profile: "openai:a" });
    const { attempt, calls } = holdingAttempt(h, 1000);
    const outcomes = succeeded(
      await h.drive(
        Promise.all([h.detour.runWith({ attempt, sessionKey: "pinned" }), h.detour.runWith({ attempt, sessionKey: "pinned" })]),
      ),
    );
    expect(outcomes.map((outcome) => outcome.profileId)).toEqual(["openai:a", "openai:a"]);
    expect(calls).toEqual(["openai:a", "openai:a"]);
  });

  it("R-PO-8 a session's auto pin holds only while its profile has a free seat: a second turn at once runs on another profile", async () => {
    const h = await makeHarness({ profiles: PROFILES, config: config({ maxConcurrent: { "openai:a": 1, "openai:b": 1 } }) });
    const { attempt } = holdingAttempt(h, 1000);
    // The first turn pins the session to the profile it ran on.
    const first = succeeded(await h.drive(h.detour.runWith({ attempt, sessionKey: "agent-1" })));
    const pinned = first.profileId as string;
    expect((await h.detour.sessions.get("agent-1"))?.authProfileOverride).toBe(pinned);
    const [one, two] = succeeded(
      await h.drive(
        Promise.all([h.detour.runWith({ attempt, sessionKey: "agent-1" }), h.detour.runWith({ attempt, sessionKey: "agent-1" })]),
      ),
    );
    expect([one.profileId, two.profileId].sort()).toEqual(["openai:a", "openai:b"]);
    expect(h.eventsOf("seat_queue_wait")).toHaveLength(0);
    expect(h.eventsOf("profile_passed_over")).toContainEqual(expect.objectContaining({ profileId: pinned, reason: "concurrency_limited" }));
  });

  it("R-PO-8 a continuation and a retry take a seat like any attempt, and every seat is back at the end", async () => {
    const h = await makeHarness({ profiles: PROFILES, config: config({ maxConcurrent: { "openai:a": 1, "openai:b": 1 } }) });
    let first = true;
    const { attempt, maxInFlight } = holdingAttempt(h, 500, () => {
      if (!first) return undefined;
      first = false;
      return new UpstreamFailure("boom", { status: 500, message: "internal error" });
    });
    succeeded(await h.drive(Promise.all(Array.from({ length: 4 }, () => h.detour.runWith({ attempt })))));
    expect(maxInFlight.get("openai:a")).toBe(1);
    expect(maxInFlight.get("openai:b")).toBe(1);
    const status = await h.detour.status();
    for (const profile of status.agents[0]!.profiles.filter((p) => p.provider === "openai")) expect(profile.seats?.inFlight).toBe(0);
  });

  describe("a continuation that finds every seat full", () => {
    const cut = () => new UpstreamFailure("openai/gpt-5: stream closed before it finished", { provider: "openai", code: "ECONNRESET" });

    /** Another run holds openai:a `holdMs`; a streamed run commits on openai:b and is cut at 1 s. */
    async function cutWhileFull(holdMs: number) {
      const h = await makeHarness({
        profiles: { "openai:a": apiKey("openai", "sk-a"), "openai:b": apiKey("openai", "sk-b") },
        config: config({ maxConcurrent: { "openai:a": 1, "openai:b": 1 }, gateway: { queueTimeoutSeconds: 60, streamStallSeconds: 10 } }),
      });
      const blocker = h.detour.runWith({
        attempt: async (context) => {
          await h.clock.sleep(holdMs, context.signal);
          return context.profileId;
        },
      });
      await new Promise((resolve) => setImmediate(resolve));
      const seen: { profileId: string | undefined; at: number }[] = [];
      const start = h.clock.now();
      const streamed = h.detour.runWith({
        continuations: { max: 2, canContinue: () => true },
        attempt: async (context) => {
          seen.push({ profileId: context.profileId, at: h.clock.now() - start });
          await context.commit();
          if (context.continuation === undefined) {
            await h.clock.sleep(1_000, context.signal);
            throw cut();
          }
          return "the rest";
        },
      });
      return { h, blocker, streamed, seen, start };
    }

    it("R-PO-8 waits in line no longer than the stream's stall budget, then ends the stream instead of holding the client for queueTimeoutSeconds", async () => {
      const { h, blocker, streamed, seen, start } = await cutWhileFull(100_000);
      const error = failed(await h.drive(streamed));
      expect(error).toBeInstanceOf(SeatsFullError);
      // Cut at 1 s, then at most streamStallSeconds (10 s) in line — not gateway.queueTimeoutSeconds (60 s).
      expect(h.clock.now() - start).toBe(11_000);
      expect(seen).toEqual([{ profileId: "openai:b", at: 0 }]);
      const waits = h.eventsOf("seat_queue_wait");
      expect(waits).toHaveLength(1);
      expect(waits[0]?.deadline).toBe(start + 11_000);
      expect(h.eventsOf("run_finished").find((event) => event.runId === waits[0]?.runId)).toMatchObject({ outcome: "failed" });
      succeeded(await h.drive(blocker));
    });

    it("R-PO-8 takes the seat that frees within the stall budget and finishes the answer", async () => {
      const { h, blocker, streamed, seen } = await cutWhileFull(6_000);
      const outcome = succeeded(await h.drive(streamed));
      expect(outcome).toMatchObject({ result: "the rest", profileId: "openai:a", continuations: 1 });
      expect(seen).toEqual([
        { profileId: "openai:b", at: 0 },
        { profileId: "openai:a", at: 6_000 },
      ]);
      succeeded(await h.drive(blocker));
    });
  });

  it("R-PO-8 a 429 naming a concurrency limit lowers the profile's seats to what was in flight, instead of a cooldown", async () => {
    const h = await makeHarness({ profiles: { "openai:a": apiKey("openai", "sk-a") }, config: config({}) });
    const { attempt, maxInFlight } = holdingAttempt(h, 1000, (_context, inFlight) =>
      inFlight > 2 ? new UpstreamFailure("429", { status: 429, message: "Too many concurrent requests for this account" }) : undefined,
    );
    const outcomes = succeeded(await h.drive(Promise.all(Array.from({ length: 4 }, () => h.detour.runWith({ attempt })))));
    expect(outcomes).toHaveLength(4);
    const learned = h.eventsOf("seat_cap_learned");
    expect(learned[0]).toMatchObject({ profileId: "openai:a", cap: 2 });
    const stats = await h.store.getUsageStats("openai:a");
    expect(stats?.cooldownUntil).toBeUndefined();
    expect(stats?.errorCount ?? 0).toBe(0);
    // Only the one refused attempt went over; after it the profile was held to 2.
    expect(maxInFlight.get("openai:a")).toBe(3);
    const status = await h.detour.status();
    expect(status.agents[0]!.profiles[0]!.seats?.limit).toBe(2);
  });

  it("R-PO-8 a rate limit that is not about concurrency still cools the profile down", async () => {
    const h = await makeHarness({ profiles: { "openai:a": apiKey("openai", "sk-a") }, config: config({}) });
    const { attempt } = holdingAttempt(h, 1000, (_context, inFlight) =>
      inFlight > 1 ? new UpstreamFailure("429", { status: 429, message: "Rate limit reached for requests per minute" }) : undefined,
    );
    await h.drive(Promise.allSettled([h.detour.runWith({ attempt }), h.detour.runWith({ attempt })]));
    expect(h.eventsOf("seat_cap_learned")).toHaveLength(0);
    expect(h.eventsOf("profile_failure_recorded").map((event) => event.reason)).toEqual(["rate_limit"]);
  });
});
