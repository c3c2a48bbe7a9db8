import { describe, expect, it } from "vitest";
import { MemoryStateStore } from "../state/memory/memory-store.js";
import { PROBE_THROTTLE_INTERVAL_MS, ProbeThrottle, RunProbeSlots } from "./probes.js";

describe("probes", () => {
  it("R-FB-4: one probe per (agent, provider) every 30 s", async () => {
    const store = new MemoryStateStore();
    const main = new ProbeThrottle(store, "main");
    const ops = new ProbeThrottle(store, "ops");
    expect(await main.isOpen("openai", 0)).toBe(true);
    expect(await main.claim("openai", 0)).toBe(true);
    expect(await main.isOpen("openai", PROBE_THROTTLE_INTERVAL_MS - 1)).toBe(false);
    expect(await main.claim("openai", PROBE_THROTTLE_INTERVAL_MS - 1)).toBe(false);
    expect(await main.claim("anthropic", 1)).toBe(true);
    expect(await ops.claim("openai", 1)).toBe(true);
    expect(await main.claim("openai", PROBE_THROTTLE_INTERVAL_MS)).toBe(true);
  });

  it("R-FB-3: the transient probe slot is per provider and per run", () => {
    const slots = new RunProbeSlots();
    expect(slots.isUsed("openai")).toBe(false);
    slots.use("openai");
    expect(slots.isUsed("openai")).toBe(true);
    expect(slots.isUsed("anthropic")).toBe(false);
    expect(new RunProbeSlots().isUsed("openai")).toBe(false);
  });
});
