import { describe, expect, it } from "vitest";
import { silentLogger } from "../ports/events.js";
import { MemoryStateStore } from "./memory/memory-store.js";
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
});
