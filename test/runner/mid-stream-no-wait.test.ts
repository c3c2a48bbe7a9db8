/**
 * R-GW-10 on the runner, through `detour.runWith` on a FakeClock: once a stream of the run was committed (the
 * client is reading the answer), a continuation waits for nothing — no cooldown wait, no short wait on a stated
 * reset, no same-profile retry delay, no overload backoff. Nothing here advances the clock: a run that slept
 * would never settle.
 */
import { describe, expect, it } from "vitest";
import type { Detour } from "../../src/engine/create-detour.js";
import { UpstreamFailure } from "../../src/ports/provider.js";
import { apiKey, makeHarness } from "./harness.js";

/** Two OpenAI profiles, and `fallbacks` on a backup provider; attempts are the test's own, given to runWith. */
const setup = (fallbacks: string[] = []) =>
  makeHarness({
    config: {
      models: {
        providers: {
          openai: { api: "openai-chat", timeoutSeconds: 5 },
          backup: { api: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", timeoutSeconds: 5 },
        },
      },
      agents: {
        defaults: {
          model: { primary: "openai/gpt-a", fallbacks },
          // Every wait on: each would be taken if the client were not already reading the answer.
          modelFailover: { waitForCooldownMaxSeconds: 10, shortWaitSeconds: 5, retrySameProfileOnTimeout: 2 },
        },
      },
      auth: { order: { openai: ["openai:a", "openai:b"], backup: ["backup:a"] } },
      state: { backend: "memory" },
    },
    profiles: {
      "openai:a": apiKey("openai", "sk-test-openai:a-0123456789"),
      "openai:b": apiKey("openai", "sk-test-openai:b-0123456789"),
      "backup:a": apiKey("backup", "sk-test-backup-0123456789"),
    },
    providers: [],
  });

const cut = () =>
  new UpstreamFailure("openai/gpt-a: stream closed before it finished", { provider: "openai", code: "ECONNRESET", message: "cut" });
const timedOut = () =>
  new UpstreamFailure("openai/gpt-a: no first token", { provider: "openai", code: "ETIMEDOUT", message: "no first token" });
const rateLimited = () =>
  new UpstreamFailure("openai/gpt-a: 429", {
    provider: "openai",
    status: 429,
    message: "Rate limit reached",
    headers: { "retry-after": "2" },
  });
const overloaded = () => new UpstreamFailure("openai/gpt-a: 529", { provider: "openai", status: 529, message: "Overloaded" });

/** How the run settled with the clock standing still: "pending" when it slept (it would never settle). */
async function settledWithoutTime<T>(run: Promise<T>): Promise<{ value: T } | { error: unknown } | "pending"> {
  let settled: { value: T } | { error: unknown } | undefined;
  run.then(
    (value) => (settled = { value }),
    (error: unknown) => (settled = { error }),
  );
  for (let turn = 0; turn < 500 && settled === undefined; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  return settled ?? "pending";
}

const WAITS = ["cooldown_wait", "short_wait", "timeout_retry_scheduled", "server_error_retry_scheduled", "overloaded_backoff"];

/** Runs with the first attempt committed and cut; later attempts fail before their commit with `failure`. */
async function cutThen(detour: Detour, failure: (profileId: string | undefined) => Error | undefined) {
  const seen: string[] = [];
  const run = detour.runWith({
    continuations: { max: 2, canContinue: () => true },
    attempt: async (context) => {
      seen.push(context.profileId ?? "");
      if (context.continuation === undefined) {
        await context.commit();
        throw cut();
      }
      const error = failure(context.profileId);
      if (error) throw error;
      await context.commit();
      return "rest";
    },
  });
  return { run, seen };
}

describe("R-GW-10: a continuation waits for nothing", () => {
  for (const [name, failure] of [
    ["a stated 2 s reset (short wait)", rateLimited],
    ["a first-token timeout (same-profile retry)", timedOut],
    ["an overload (backoff before the next profile)", overloaded],
  ] as const) {
    it(`R-GW-10: after the cut, ${name} on the only other profile ends the run at once, with no wait and no cooldown wait`, async () => {
      const { detour, events } = await setup();
      const { run, seen } = await cutThen(detour, () => failure());
      // No clock advance: the run settles only if nothing slept.
      expect(await settledWithoutTime(run)).toMatchObject({ error: expect.any(UpstreamFailure) });
      expect(seen).toEqual(["openai:a", "openai:b"]);
      expect(events.filter((event) => WAITS.includes(event.type))).toEqual([]);
      expect(events.find((event) => event.type === "run_finished")).toMatchObject({ outcome: "failed" });
    });
  }

  it("R-GW-10: after the cut, a failing continuation moves on to the next usable candidate at once", async () => {
    const { detour, events } = await setup(["backup/gpt-b"]);
    const { run, seen } = await cutThen(detour, (profileId) => (profileId === "openai:b" ? rateLimited() : undefined));
    expect(await settledWithoutTime(run)).toMatchObject({ value: { result: "rest", profileId: "backup:a", continuations: 1 } });
    expect(seen).toEqual(["openai:a", "openai:b", "backup:a"]);
    expect(events.filter((event) => WAITS.includes(event.type))).toEqual([]);
  });

  it("R-GW-10: before any commit the same failure still gets its same-profile retry (R-RN-4 unchanged)", async () => {
    const { detour, clock, events } = await setup();
    const seen: string[] = [];
    const run = detour.runWith({
      attempt: async (context) => {
        seen.push(context.profileId ?? "");
        if (seen.length === 1) throw timedOut();
        return "answer";
      },
    });
    await clock.advanceAsync(10_000);
    await expect(run).resolves.toMatchObject({ result: "answer" });
    expect(seen).toEqual(["openai:a", "openai:a"]);
    expect(events.filter((event) => event.type === "timeout_retry_scheduled")).toHaveLength(1);
  });
});
