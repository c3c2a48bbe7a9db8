/**
 * The runner's side of streams that finish (R-ST-4, R-ST-5), driven through `detour.runWith` on a FakeClock:
 * an attempt that commits stays pending while its stream is read, the run settles when it resolves, and a
 * committed attempt that fails is continued on the next profile within the budget.
 */
import { describe, expect, it } from "vitest";
import { UpstreamFailure } from "../../src/ports/provider.js";
import { apiKey, makeHarness } from "./harness.js";

/** Two OpenAI profiles and no fallback; attempts are the test's own, given to runWith. */
const setup = () =>
  makeHarness({
    config: {
      models: { providers: { openai: { api: "openai-chat", timeoutSeconds: 5 } } },
      agents: { defaults: { model: { primary: "openai/gpt-a" } } },
      auth: { order: { openai: ["openai:a", "openai:b"] } },
      state: { backend: "memory" },
    },
    profiles: { "openai:a": apiKey("openai", "sk-test-openai:a-0123456789"), "openai:b": apiKey("openai", "sk-test-openai:b-0123456789") },
    providers: [],
  });

const cut = () =>
  new UpstreamFailure("openai/gpt-a: stream closed before it finished", { provider: "openai", code: "ECONNRESET", message: "cut" });

describe("streams settle when they end", () => {
  it("R-ST-5: a committed attempt outlives the attempt watchdog, and success is recorded only when its stream ends", async () => {
    const { detour, clock, store, events } = await setup();
    let finishStream: () => void = () => {};
    let committedHeaders: unknown;
    const run = detour.runWith({
      attempt: async (context) => {
        committedHeaders = await context.commit();
        await new Promise<void>((resolve) => (finishStream = resolve));
        return "answer";
      },
    });
    await clock.advanceAsync(0);
    expect(committedHeaders).toMatchObject({ provider: "openai", model: "gpt-a", profileId: "openai:a", attempts: [] });
    // Past the provider's 5 s watchdog: a live stream is not cut by it.
    await clock.advanceAsync(60_000);
    expect(events.some((event) => event.type === "run_finished")).toBe(false);
    expect((await store.getUsageStats("openai:a"))?.lastUsed).toBeUndefined();
    finishStream();
    const outcome = await run;
    expect(outcome).toMatchObject({ result: "answer", profileId: "openai:a" });
    expect(outcome.continuations).toBeUndefined();
    expect(events.find((event) => event.type === "run_finished")).toMatchObject({ outcome: "succeeded" });
    expect((await store.getUsageStats("openai:a"))?.lastUsed).toBeDefined();
  });

  it("R-ST-4: a committed attempt that fails is continued on the next profile, which sees context.continuation", async () => {
    const { detour, clock, store, events } = await setup();
    const seen: { profileId?: string; continuation?: number }[] = [];
    const outcome = await detour.runWith({
      continuations: { max: 2, canContinue: () => true },
      attempt: async (context) => {
        seen.push({
          ...(context.profileId ? { profileId: context.profileId } : {}),
          ...(context.continuation ? { continuation: context.continuation } : {}),
        });
        await context.commit();
        if (context.profileId === "openai:a") throw cut();
        return "rest";
      },
    });
    await clock.advanceAsync(0);
    expect(seen).toEqual([{ profileId: "openai:a" }, { profileId: "openai:b", continuation: 1 }]);
    expect(outcome).toMatchObject({ result: "rest", profileId: "openai:b", continuations: 1 });
    expect((await store.getUsageStats("openai:a"))?.errorCount).toBe(1);
    expect(events.find((event) => event.type === "run_finished")).toMatchObject({ outcome: "succeeded", continuations: 1 });
    const finished = events.filter((event) => event.type === "attempt_finished");
    expect(finished).toMatchObject([
      { profileId: "openai:a", outcome: "failed", committed: true },
      { profileId: "openai:b", outcome: "succeeded", committed: true, continuation: 1 },
    ]);
  });

  it("R-ST-5: without a continuation budget the committed failure ends the run as failed, recorded on the profile", async () => {
    const { detour, store, events } = await setup();
    let calls = 0;
    const failure = cut();
    await expect(
      detour.runWith({
        attempt: async (context) => {
          calls += 1;
          await context.commit();
          throw failure;
        },
      }),
    ).rejects.toBe(failure);
    expect(calls).toBe(1);
    expect((await store.getUsageStats("openai:a"))?.errorCount).toBe(1);
    expect(events.find((event) => event.type === "run_finished")).toMatchObject({ outcome: "failed" });
    const decision = events.filter((event) => event.type === "model_fallback_decision").at(-1);
    expect(decision).toMatchObject({ decision: "candidate_failed", fallbackStepFinalOutcome: "chain_exhausted" });
  });

  it("R-ST-4: the caller saying it cannot continue (a cut tool call) ends the run without another attempt", async () => {
    const { detour } = await setup();
    let calls = 0;
    await expect(
      detour.runWith({
        continuations: { max: 2, canContinue: () => false },
        attempt: async (context) => {
          calls += 1;
          await context.commit();
          throw cut();
        },
      }),
    ).rejects.toBeInstanceOf(UpstreamFailure);
    expect(calls).toBe(1);
  });
});
