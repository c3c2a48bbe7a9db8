import { describe, expect, it } from "vitest";
import { profileState } from "./profile-states.js";

const NOW = 1_000_000;
const profile = (usageStats: object) => ({ id: "openai:alpha", provider: "openai", usageStats });

describe("profileState", () => {
  it("R-CL-2: a profile without an active window is ready", () => {
    expect(profileState(profile({}), NOW)).toEqual({ id: "openai:alpha", provider: "openai", lane: "ready", errorCount: 0 });
    expect(profileState(profile({ cooldownUntil: NOW, cooldownReason: "rate_limit", errorCount: 2 }), NOW)).toMatchObject({
      lane: "ready",
      errorCount: 2,
    });
  });

  it.each([
    ["disabled", { disabledUntil: NOW + 5 * 3_600_000, disabledReason: "billing" }, "billing", 5 * 3_600_000],
    ["blocked", { blockedUntil: NOW + 30_000, blockedReason: "rate_limit" }, "rate_limit", 30_000],
    ["cooldown", { cooldownUntil: NOW + 60_000, cooldownReason: "overloaded" }, "overloaded", 60_000],
  ])("R-CL-2: shows the %s lane with its reason and timer", (lane, stats, reason, remainingMs) => {
    expect(profileState(profile(stats), NOW)).toMatchObject({ lane, reason, remainingMs, until: NOW + remainingMs });
  });

  it("R-CL-2: the most severe active lane wins (disabled > blocked > cooldown)", () => {
    const stats = {
      cooldownUntil: NOW + 90_000,
      cooldownReason: "overloaded",
      blockedUntil: NOW + 30_000,
      blockedReason: "rate_limit",
      disabledUntil: NOW + 10_000,
      disabledReason: "billing",
    };
    expect(profileState(profile(stats), NOW).lane).toBe("disabled");
    expect(profileState(profile(stats), NOW + 10_000).lane).toBe("blocked");
    expect(profileState(profile(stats), NOW + 30_000).lane).toBe("cooldown");
    expect(profileState(profile(stats), NOW + 90_000).lane).toBe("ready");
  });

  it("keeps the model of a model-scoped window", () => {
    expect(profileState(profile({ cooldownUntil: NOW + 1, cooldownReason: "rate_limit", cooldownModel: "gpt-4o-mini" }), NOW).model).toBe(
      "gpt-4o-mini",
    );
  });

  it("R-PO-7: carries the profile's reported headroom with its time to reset, and drops it once the window has reset", () => {
    const headroom = { remainingShare: 0.03, window: "requests", resetAt: NOW + 59_000, nearlySpent: true };
    expect(profileState({ ...profile({}), headroom }, NOW)).toMatchObject({ lane: "ready", headroom: { ...headroom, resetsInMs: 59_000 } });
    expect(profileState({ ...profile({}), headroom }, NOW + 59_000).headroom).toBeUndefined();
  });
});
