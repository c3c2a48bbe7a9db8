import { afterEach, describe, expect, it, vi } from "vitest";
import { silentLogger } from "../../ports/events.js";
import { MemoryStateStore } from "../memory/memory-store.js";
import { SessionPruner } from "./session-retention.js";

describe("session sweeps", () => {
  it("R-GW-8 a sweep evicts the least recently used sessions beyond sessions.maxCount, a batch at a time", async () => {
    let now = 1_000;
    const store = new MemoryStateStore({ now: () => now });
    for (let index = 0; index < 7; index += 1) {
      now += 1;
      await store.patchSession(`s${index}`, { modelOverride: "openai/gpt-a" });
    }
    const pruner = new SessionPruner({
      idleTtlDays: 30,
      maxCount: 3,
      batchSize: 2,
      prune: (params) => store.pruneSessions(params),
      evict: (params) => store.evictSessions(params),
      now: () => now,
      logger: silentLogger,
      label: "memory",
    });
    // A full batch (2) tells the caller to sweep again soon; the last sweep finds less than a batch.
    expect(await pruner.sweep()).toBe(2);
    expect(await pruner.sweep()).toBe(2);
    expect(await pruner.sweep()).toBe(0);
    expect((await store.listSessions()).map((entry) => entry.sessionKey).sort()).toEqual(["s4", "s5", "s6"]);
    await store.close();
  });

  afterEach(() => vi.useRealTimers());

  it("R-GW-8 a batch of session writes brings the next sweep forward: new session keys cannot outgrow sessions.maxCount for an hour", async () => {
    vi.useFakeTimers();
    let now = 1_000;
    const store = new MemoryStateStore({ now: () => now, sessionRetention: { idleTtlDays: 30, maxCount: 50, batchSize: 20 } });
    await vi.advanceTimersByTimeAsync(0);
    for (let index = 0; index < 200; index += 1) {
      now += 1;
      await store.patchSession(`client-${index}`, { modelOverride: "openai/gpt-a" });
    }
    // Within seconds, not at the hourly sweep: each sweep evicts a batch and the next follows a second later.
    await vi.advanceTimersByTimeAsync(15_000);
    expect(await store.countSessions()).toBe(50);
    const kept = (await store.listSessions()).map((entry) => entry.sessionKey);
    expect(kept).toContain("client-199");
    expect(kept).not.toContain("client-149");
    await store.close();
  });
});
