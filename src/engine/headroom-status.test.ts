import { describe, expect, it } from "vitest";
import type { HeadroomReading } from "../core/headroom/reading.js";
import { renderDashboard } from "../gateway/dashboard/render-dashboard.js";
import { MemoryStateStore } from "../state/memory/memory-store.js";
import { createDetour } from "./create-detour.js";
import { headroomStatusOf, headroomText } from "./headroom-status.js";

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const perModel: HeadroomReading = {
  window: "requests",
  family: "openai",
  model: "gpt-4o",
  remainingShare: 0.02,
  limit: 50,
  remaining: 1,
  resetAt: NOW + 60_000,
  readAt: NOW,
};
const fiveHour: HeadroomReading = {
  window: "unified-5h",
  family: "anthropic-unified",
  remainingShare: 0.4,
  resetAt: NOW + 3_600_000,
  readAt: NOW,
};

describe("R-PO-7: headroom in status output", () => {
  it("R-PO-7: status names the tightest window (with its model), the share left and the reset", () => {
    const status = headroomStatusOf([fiveHour, perModel], NOW, 0.05);
    expect(status).toEqual({
      remainingShare: 0.02,
      window: "requests",
      model: "gpt-4o",
      resetAt: NOW + 60_000,
      nearlySpent: true,
      why: "below_min_remaining",
    });
    expect(headroomText(status)).toBe("nearly spent: 2% of requests (gpt-4o) left, resets 2025-01-15T12:01:00Z");
    expect(headroomText(headroomStatusOf([fiveHour], NOW, 0.05))).toBe("40% of unified-5h left, resets 2025-01-15T13:00:00Z");
    expect(headroomStatusOf([fiveHour], NOW + 3_600_000, 0.05)).toBeUndefined();
  });

  it("R-PO-7: detour.status() carries each profile's headroom; the status page shows it", async () => {
    const store = new MemoryStateStore();
    await store.upsertProfile({ id: "anthropic:max", credential: { type: "api_key", provider: "anthropic", key: "sk-status-secret" } });
    await store.recordHeadroom("anthropic:max", [fiveHour], NOW);
    const detour = await createDetour({
      config: { agents: { defaults: { model: { primary: "anthropic/claude" } } }, state: { backend: "memory" } },
      store,
      clock: { now: () => NOW, sleep: async () => {}, setTimer: () => () => {} },
    });
    const status = await detour.status();
    const profile = status.agents[0]?.profiles.find((entry) => entry.id === "anthropic:max");
    expect(profile?.headroom).toEqual({ remainingShare: 0.4, window: "unified-5h", resetAt: NOW + 3_600_000, nearlySpent: false });
    const html = renderDashboard({
      agentId: "main",
      agentIds: ["main"],
      now: NOW,
      chains: [],
      profiles: [
        { id: "anthropic:max", provider: "anthropic", type: "api_key", usageStats: {}, headroom: headroomText(profile?.headroom) },
      ],
      refreshMs: 2000,
      nonce: "n",
    });
    expect(html).toContain("<th>Headroom</th>");
    expect(html).toContain("40% of unified-5h left, resets 2025-01-15T13:00:00Z");
    await detour.close();
  });
});
