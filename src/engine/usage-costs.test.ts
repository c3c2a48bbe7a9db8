import { describe, expect, it } from "vitest";
import { parseConfig } from "../config/index.js";
import type { DetourEvent } from "../ports/events.js";
import { MemoryStateStore } from "../state/memory/memory-store.js";
import { FakeClock } from "../testing/fake-clock.js";
import { createUsageRecorder } from "./usage-costs.js";

const config = parseConfig({
  models: {
    providers: { house: { api: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", models: [{ id: "m", cost: { input: 2, output: 4 } }] } },
  },
}).config;

describe("createUsageRecorder", () => {
  it("R-GW-7: prices from the config, charges the profile's spend, and has no cost for a model without prices", async () => {
    const store = new MemoryStateStore();
    const clock = new FakeClock(Date.UTC(2025, 0, 1, 10));
    const record = createUsageRecorder({ config, store: async () => store, clock, events: { emit() {} }, defaultAgentId: "main" });
    expect(
      record({ provider: "house", model: "m", profileId: "house:a", usage: { inputTokens: 500_000, outputTokens: 250_000 } }),
    ).toBeCloseTo(2, 12);
    expect(
      record({ provider: "house", model: "unknown-model", profileId: "house:a", usage: { inputTokens: 1, outputTokens: 1 } }),
    ).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await store.spendByProfile(clock.now())).toEqual({ "house:a": 2 });
  });

  it("R-SB-5: a store that refuses the spend becomes a bookkeeping event; the cost is still returned at once", async () => {
    const events: DetourEvent[] = [];
    const store = new MemoryStateStore();
    store.recordSpend = async () => {
      throw new Error("disk full");
    };
    const record = createUsageRecorder({
      config,
      store: async () => store,
      clock: new FakeClock(0),
      events: { emit: (event) => events.push(event) },
      defaultAgentId: "main",
    });
    expect(record({ provider: "house", model: "m", profileId: "house:a", usage: { inputTokens: 1_000_000, outputTokens: 0 } })).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(events).toEqual([
      { type: "state_bookkeeping_failed", agentId: "main", operation: "recordSpend", profileId: "house:a", error: "Error: disk full" },
    ]);
  });

  it("R-OB-4: usage priced for a run is announced with its run id, so the run's trace gets the tokens and the cost", () => {
    const events: DetourEvent[] = [];
    const record = createUsageRecorder({
      config,
      store: async () => new MemoryStateStore(),
      clock: new FakeClock(0),
      events: { emit: (event) => events.push(event) },
      defaultAgentId: "main",
    });
    record({ provider: "house", model: "m", profileId: "house:a", runId: "run-1", usage: { inputTokens: 1_000_000, outputTokens: 0 } });
    record({ provider: "house", model: "unknown-model", runId: "run-2", usage: { inputTokens: 3, outputTokens: 4 } });
    record({ provider: "house", model: "m", profileId: "house:a", usage: { inputTokens: 1, outputTokens: 1 } });
    expect(events).toEqual([
      {
        type: "usage_recorded",
        runId: "run-1",
        agentId: "main",
        provider: "house",
        model: "m",
        profileId: "house:a",
        inputTokens: 1_000_000,
        outputTokens: 0,
        costUsd: 2,
      },
      {
        type: "usage_recorded",
        runId: "run-2",
        agentId: "main",
        provider: "house",
        model: "unknown-model",
        profileId: null,
        inputTokens: 3,
        outputTokens: 4,
        costUsd: null,
      },
    ]);
  });
});
