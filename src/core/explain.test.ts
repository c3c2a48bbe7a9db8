import { describe, expect, it } from "vitest";
import { DISABLE_WEIGHT, explainUnavailable, soonestCooldownExpiry } from "./explain.js";
import type { FailoverReason } from "./reasons.js";
import type { UsageStats } from "./types.js";

const T0 = 1_700_000_000_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const cooldown = (reason: FailoverReason, count: number, untilOffset = 5 * MINUTE, model?: string): UsageStats => ({
  cooldownUntil: T0 + untilOffset,
  cooldownReason: reason,
  ...(model ? { cooldownModel: model } : {}),
  errorCount: count,
  failureCounts: { [reason]: count },
});
const disabled = (reason: "billing" | "auth_permanent", untilOffset = HOUR): UsageStats => ({
  disabledUntil: T0 + untilOffset,
  disabledReason: reason,
  failureCounts: { [reason]: 1 },
});
const profiles = (...stats: UsageStats[]) => stats.map((s, i) => ({ id: `p:${i}`, stats: s }));

describe("R-RN-5 explaining reason", () => {
  it("R-RN-5: each active disable weighs 1000 and outweighs counted cooldowns", () => {
    expect(DISABLE_WEIGHT).toBe(1000);
    const result = explainUnavailable(profiles(disabled("billing"), cooldown("rate_limit", 400), cooldown("rate_limit", 500)), "m", T0);
    expect(result.reason).toBe("billing");
  });

  it("R-RN-5: without disables, failure counts of active cooldowns decide", () => {
    const result = explainUnavailable(profiles(cooldown("auth", 1), cooldown("rate_limit", 3)), "m", T0);
    expect(result.reason).toBe("rate_limit");
  });

  it("R-RN-5: counts add up across profiles", () => {
    const result = explainUnavailable(profiles(cooldown("overloaded", 2), cooldown("timeout", 2), cooldown("timeout", 1)), undefined, T0);
    expect(result.reason).toBe("timeout");
  });

  it("R-RN-5: two disables outweigh one", () => {
    const result = explainUnavailable(profiles(disabled("auth_permanent"), disabled("billing"), disabled("billing")), "m", T0);
    expect(result.reason).toBe("billing");
  });

  const tieOrder: FailoverReason[] = [
    "auth_permanent",
    "auth",
    "billing",
    "format",
    "model_not_found",
    "overloaded",
    "timeout",
    "rate_limit",
  ];
  const tiePairs = tieOrder.slice(0, -1).map((winner, i) => [winner, tieOrder[i + 1] as FailoverReason] as const);

  it.each(tiePairs)("R-RN-5: a tie goes to %s over %s", (winner, loser) => {
    expect(explainUnavailable(profiles(cooldown(loser, 2), cooldown(winner, 2)), "m", T0).reason).toBe(winner);
    expect(explainUnavailable(profiles(cooldown(winner, 2), cooldown(loser, 2)), "m", T0).reason).toBe(winner);
  });

  it("R-RN-5: a tie between disables goes to auth_permanent over billing", () => {
    expect(explainUnavailable(profiles(disabled("billing"), disabled("auth_permanent")), "m", T0).reason).toBe("auth_permanent");
  });

  it("R-RN-5: ended windows do not vote, and neither do counts of reasons whose window ended", () => {
    const staleBilling: UsageStats = {
      ...cooldown("rate_limit", 1),
      disabledUntil: T0 - 1,
      disabledReason: "billing",
      failureCounts: { billing: 5, rate_limit: 1 },
    };
    const expiredAuth = { ...cooldown("auth", 9), cooldownUntil: T0 - 1 };
    expect(explainUnavailable(profiles(staleBilling, expiredAuth), "m", T0).reason).toBe("rate_limit");
  });

  it("R-RN-5: a cooldown scoped to another model does not explain this model", () => {
    const result = explainUnavailable(profiles(cooldown("auth", 1), cooldown("rate_limit", 5, 5 * MINUTE, "other")), "m", T0);
    expect(result.reason).toBe("auth");
  });

  it("R-RN-5: a provider-stated block votes like a cooldown", () => {
    const blocked: UsageStats = { blockedUntil: T0 + HOUR, blockedReason: "rate_limit", failureCounts: { rate_limit: 4 } };
    expect(explainUnavailable(profiles(blocked, cooldown("overloaded", 2)), "m", T0).reason).toBe("rate_limit");
  });

  it("R-RN-5: until is the soonest moment any profile becomes usable", () => {
    const result = explainUnavailable(profiles(disabled("billing", HOUR), cooldown("rate_limit", 1, 2 * MINUTE)), "m", T0);
    expect(result).toEqual({ reason: "billing", until: T0 + 2 * MINUTE });
  });

  it("R-RN-5: a legacy cooldown without counts still explains itself", () => {
    expect(explainUnavailable(profiles({ cooldownUntil: T0 + MINUTE, cooldownReason: "overloaded" }), "m", T0)).toEqual({
      reason: "overloaded",
      until: T0 + MINUTE,
    });
  });
});

describe("R-FB-6 soonest cooldown expiry", () => {
  const chain = [
    { provider: "openai", model: "gpt-5" },
    { provider: "anthropic", model: "claude-sonnet-4-6" },
  ];

  it("R-FB-6: the soonest expiry across the chain's providers is reported", () => {
    const result = soonestCooldownExpiry({
      chain,
      now: T0,
      profiles: [
        { id: "openai:a", provider: "openai", stats: cooldown("overloaded", 1, 10 * MINUTE) },
        { id: "anthropic:a", provider: "anthropic", stats: cooldown("overloaded", 1, 3 * MINUTE) },
        { id: "anthropic:b", provider: "anthropic", stats: disabled("billing", HOUR) },
      ],
    });
    expect(result).toBe(T0 + 3 * MINUTE);
  });

  it("R-FB-6: cooldowns scoped to models outside the chain are ignored", () => {
    const result = soonestCooldownExpiry({
      chain,
      now: T0,
      profiles: [
        { id: "openai:a", provider: "openai", stats: cooldown("rate_limit", 1, MINUTE, "gpt-4.1") },
        { id: "openai:b", provider: "openai", stats: cooldown("overloaded", 1, 20 * MINUTE) },
      ],
    });
    expect(result).toBe(T0 + 20 * MINUTE);
  });

  it("R-FB-6: a rate limit scoped to a chain model reports the latest expiry still blocking that model", () => {
    const result = soonestCooldownExpiry({
      chain: [{ provider: "openai", model: "gpt-5" }],
      now: T0,
      profiles: [
        { id: "openai:a", provider: "openai", stats: cooldown("rate_limit", 1, MINUTE, "gpt-5") },
        { id: "openai:b", provider: "openai", stats: cooldown("rate_limit", 1, 4 * MINUTE, "gpt-5") },
      ],
    });
    expect(result).toBe(T0 + 4 * MINUTE);
  });

  it("R-FB-6: an unrelated earlier window still wins over the latest model rate limit", () => {
    const result = soonestCooldownExpiry({
      chain: [{ provider: "openai", model: "gpt-5" }],
      now: T0,
      profiles: [
        { id: "openai:a", provider: "openai", stats: cooldown("rate_limit", 1, 4 * MINUTE, "gpt-5") },
        { id: "openai:b", provider: "openai", stats: cooldown("overloaded", 1, 2 * MINUTE) },
      ],
    });
    expect(result).toBe(T0 + 2 * MINUTE);
  });

  it("R-FB-6: profiles of providers outside the chain and ended windows are ignored", () => {
    expect(
      soonestCooldownExpiry({
        chain,
        now: T0,
        profiles: [
          { id: "google:a", provider: "google", stats: cooldown("overloaded", 1, MINUTE) },
          { id: "openai:a", provider: "openai", stats: cooldown("overloaded", 1, -MINUTE) },
          { id: "openai:b", provider: "openai" },
        ],
      }),
    ).toBeUndefined();
  });

  it("R-FB-6: a profile blocked by several windows recovers when the last one ends", () => {
    const stats: UsageStats = { ...cooldown("overloaded", 1, MINUTE), blockedUntil: T0 + 30 * MINUTE, blockedReason: "rate_limit" };
    expect(soonestCooldownExpiry({ chain, now: T0, profiles: [{ id: "openai:a", provider: "openai", stats }] })).toBe(T0 + 30 * MINUTE);
  });
});
