import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  successChangesOnlyLastUsed,
  MAX_STATED_BLOCK_MS,
  clearExpired,
  isStatedResetTrusted,
  isUsable,
  markUsed,
  recordFailure,
  recordSuccess,
  resetUsageStats,
  unusableReason,
  unusableUntil,
  type RecordFailureParams,
} from "./cooldown.js";
import { FAILOVER_REASONS, REASON_POLICY, type FailoverReason } from "./reasons.js";
import type { CooldownSettings, UsageStats } from "./types.js";

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const T0 = 1_700_000_000_000;

/** The documented defaults of `auth.cooldowns` (R-CF-3). */
const SETTINGS: CooldownSettings = {
  billingBackoffHours: 5,
  billingBackoffHoursByProvider: {},
  billingMaxHours: 24,
  authPermanentBackoffMinutes: 10,
  authPermanentMaxMinutes: 60,
  failureWindowHours: 24,
  overloadedProfileRotations: 1,
  overloadedBackoffMs: 0,
  rateLimitedProfileRotations: 1,
  ladderSeconds: [30, 60, 300],
  timeoutLadderSeconds: [10, 20, 40, 80, 160, 300],
};

function fail(stats: UsageStats | undefined, reason: FailoverReason, now: number, extra: Partial<RecordFailureParams> = {}): UsageStats {
  return recordFailure(stats, { reason, provider: "openai", now, cooldowns: SETTINGS, ...extra });
}

/** Apply failures in sequence: [reason, time, extra?]. */
function failures(steps: readonly [FailoverReason, number, Partial<RecordFailureParams>?][], start?: UsageStats): UsageStats {
  return steps.reduce<UsageStats | undefined>((stats, [reason, now, extra]) => fail(stats, reason, now, extra), start) ?? {};
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

const COOLDOWN_LANE = FAILOVER_REASONS.filter((r) => REASON_POLICY[r].recordOnProfile && REASON_POLICY[r].lane === "cooldown");
const NOT_RECORDED = FAILOVER_REASONS.filter((r) => !REASON_POLICY[r].recordOnProfile);

describe("R-CD-1 failure counting", () => {
  it("R-CD-1: a failure increments errorCount and failureCounts[reason] and stamps lastFailureAt", () => {
    const stats = failures([
      ["rate_limit", T0],
      ["overloaded", T0 + 40 * SECOND],
      ["rate_limit", T0 + 120 * SECOND],
    ]);
    expect(stats.errorCount).toBe(3);
    expect(stats.failureCounts).toEqual({ rate_limit: 2, overloaded: 1 });
    expect(stats.lastFailureAt).toBe(T0 + 120 * SECOND);
  });

  it("R-CD-1: counters restart from zero when the last failure is older than failureWindowHours", () => {
    const before = failures([
      ["rate_limit", T0],
      ["billing", T0 + MINUTE],
    ]);
    const after = fail(before, "overloaded", T0 + MINUTE + 24 * HOUR + 1);
    expect(after.errorCount).toBe(1);
    expect(after.failureCounts).toEqual({ overloaded: 1 });
    // The ladder restarts too: the first step again.
    expect(after.cooldownUntil).toBe(T0 + MINUTE + 24 * HOUR + 1 + 30 * SECOND);
  });

  it("R-CD-1: a failure exactly failureWindowHours after the last one still counts on", () => {
    const stats = failures([
      ["rate_limit", T0],
      ["rate_limit", T0 + 24 * HOUR],
    ]);
    expect(stats.errorCount).toBe(2);
  });

  it("R-CD-1: counters do not restart merely because the previous cooldown expired", () => {
    const first = fail(undefined, "rate_limit", T0);
    expect(first.cooldownUntil).toBe(T0 + 30 * SECOND);
    const afterExpiry = T0 + 31 * SECOND;
    const second = fail(first, "rate_limit", afterExpiry);
    expect(second.errorCount).toBe(2);
    expect(second.cooldownUntil).toBe(afterExpiry + 60 * SECOND);
  });

  it("R-CD-1: the failure window follows the configured hours", () => {
    const config = { ...SETTINGS, failureWindowHours: 1 };
    const first = recordFailure(undefined, { reason: "overloaded", provider: "openai", now: T0, cooldowns: config });
    const second = recordFailure(first, { reason: "overloaded", provider: "openai", now: T0 + HOUR + 1, cooldowns: config });
    expect(second.errorCount).toBe(1);
  });
});

describe("R-CD-2 cooldown ladder", () => {
  it("R-CD-2: default ladder is 30 s, 60 s, 300 s and the last step repeats", () => {
    let stats: UsageStats | undefined;
    const steps: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const now = T0 + i * 10 * MINUTE;
      stats = fail(stats, "rate_limit", now);
      steps.push((stats.cooldownUntil ?? 0) - now);
    }
    expect(steps).toEqual([30, 60, 300, 300, 300].map((s) => s * SECOND));
  });

  it("R-CD-2: the ladder step is indexed by errorCount across reasons", () => {
    const stats = failures([
      ["auth", T0],
      ["overloaded", T0 + 10 * MINUTE],
    ]);
    expect(stats.cooldownUntil).toBe(T0 + 10 * MINUTE + 60 * SECOND);
  });

  it("R-CD-2: a configured ladder replaces the default", () => {
    const config = { ...SETTINGS, ladderSeconds: [5, 7] };
    const first = recordFailure(undefined, { reason: "server_error", provider: "p", now: T0, cooldowns: config });
    const second = recordFailure(first, { reason: "server_error", provider: "p", now: T0 + MINUTE, cooldowns: config });
    const third = recordFailure(second, { reason: "server_error", provider: "p", now: T0 + 2 * MINUTE, cooldowns: config });
    expect(first.cooldownUntil).toBe(T0 + 5 * SECOND);
    expect(second.cooldownUntil).toBe(T0 + MINUTE + 7 * SECOND);
    expect(third.cooldownUntil).toBe(T0 + 2 * MINUTE + 7 * SECOND);
  });

  it("R-CD-2: timeouts climb timeoutLadderSeconds indexed by failureCounts.timeout", () => {
    const earlier = failures([
      ["rate_limit", T0],
      ["overloaded", T0 + 10 * MINUTE],
      ["rate_limit", T0 + 20 * MINUTE],
    ]);
    const steps: number[] = [];
    let stats = earlier;
    for (let i = 0; i < 7; i += 1) {
      const now = T0 + (30 + i * 10) * MINUTE;
      stats = fail(stats, "timeout", now);
      steps.push((stats.cooldownUntil ?? 0) - now);
    }
    expect(steps).toEqual([10, 20, 40, 80, 160, 300, 300].map((s) => s * SECOND));
    expect(stats.errorCount).toBe(10);
  });

  it("R-CD-2: an active window is never shortened by a shorter step", () => {
    const config = { ...SETTINGS, ladderSeconds: [300, 10] };
    const first = recordFailure(undefined, { reason: "overloaded", provider: "p", now: T0, cooldowns: config });
    const second = recordFailure(first, { reason: "overloaded", provider: "p", now: T0 + 5 * SECOND, cooldowns: config });
    expect(second.cooldownUntil).toBe(T0 + 300 * SECOND);
  });

  it("R-CD-2: a new failure inside an active window may extend it", () => {
    const stats = failures([
      ["overloaded", T0],
      ["overloaded", T0 + 20 * SECOND],
    ]);
    expect(stats.cooldownUntil).toBe(T0 + 20 * SECOND + 60 * SECOND);
  });

  it("R-CD-2: cooldownReason is the latest reason even when the window is kept", () => {
    const config = { ...SETTINGS, ladderSeconds: [300, 10] };
    const first = recordFailure(undefined, { reason: "overloaded", provider: "p", now: T0, cooldowns: config });
    const second = recordFailure(first, { reason: "server_error", provider: "p", now: T0 + SECOND, cooldowns: config });
    expect(second.cooldownReason).toBe("server_error");
  });

  it.each(COOLDOWN_LANE)("R-CD-2: %s opens a cooldown window, not a disable", (reason) => {
    const stats = fail(undefined, reason, T0);
    expect(stats.cooldownUntil).toBeGreaterThan(T0);
    expect(stats.cooldownReason).toBe(reason);
    expect(stats.disabledUntil).toBeUndefined();
    expect(isUsable(stats, undefined, T0 + 1)).toBe(false);
  });

  it("R-CD-2: the lanes named by the SPEC are exactly the cooldown lane of REASON_POLICY", () => {
    expect([...COOLDOWN_LANE].sort()).toEqual(
      [
        "rate_limit",
        "overloaded",
        "unclassified",
        "empty_response",
        "no_error_details",
        "model_not_found",
        "server_error",
        "timeout",
        // R-RN-2 records auth too; it is no disable (R-CD-3 names only billing and auth_permanent).
        "auth",
      ].sort(),
    );
  });
});

describe("R-CD-3 disabled lane", () => {
  it("R-CD-3: billing doubles per failure from 5 h up to the 24 h cap", () => {
    const steps: number[] = [];
    let stats: UsageStats | undefined;
    for (let i = 0; i < 5; i += 1) {
      const now = T0 + i * 2 * HOUR;
      stats = fail(stats, "billing", now);
      steps.push((stats.disabledUntil ?? 0) - now);
    }
    expect(steps).toEqual([5, 10, 20, 24, 24].map((h) => h * HOUR));
    expect(stats?.disabledReason).toBe("billing");
  });

  it("R-CD-3: billing base comes from billingBackoffHoursByProvider when set for the provider", () => {
    const config = { ...SETTINGS, billingBackoffHoursByProvider: { anthropic: 1 } };
    const first = recordFailure(undefined, { reason: "billing", provider: "anthropic", now: T0, cooldowns: config });
    const second = recordFailure(first, { reason: "billing", provider: "anthropic", now: T0 + MINUTE, cooldowns: config });
    expect(first.disabledUntil).toBe(T0 + HOUR);
    expect(second.disabledUntil).toBe(T0 + MINUTE + 2 * HOUR);
    const other = recordFailure(undefined, { reason: "billing", provider: "openai", now: T0, cooldowns: config });
    expect(other.disabledUntil).toBe(T0 + 5 * HOUR);
  });

  it("R-CD-3: billingMaxHours caps the doubling", () => {
    const config = { ...SETTINGS, billingMaxHours: 6 };
    const stats = [0, 1].reduce<UsageStats | undefined>(
      (s, i) => recordFailure(s, { reason: "billing", provider: "p", now: T0 + i * MINUTE, cooldowns: config }),
      undefined,
    );
    expect(stats?.disabledUntil).toBe(T0 + MINUTE + 6 * HOUR);
  });

  it("R-CD-3: the doubling exponent is failureCounts.billing, not errorCount", () => {
    const stats = failures([
      ["rate_limit", T0],
      ["rate_limit", T0 + MINUTE],
      ["billing", T0 + 2 * MINUTE],
    ]);
    expect(stats.disabledUntil).toBe(T0 + 2 * MINUTE + 5 * HOUR);
  });

  it("R-CD-3: auth_permanent doubles from 10 min up to the 60 min cap", () => {
    const steps: number[] = [];
    let stats: UsageStats | undefined;
    for (let i = 0; i < 5; i += 1) {
      const now = T0 + i * 2 * HOUR;
      stats = fail(stats, "auth_permanent", now);
      steps.push((stats.disabledUntil ?? 0) - now);
    }
    expect(steps).toEqual([10, 20, 40, 60, 60].map((m) => m * MINUTE));
    expect(stats?.disabledReason).toBe("auth_permanent");
  });

  it("R-CD-3: an active disable is never shortened; disabledReason is the latest reason", () => {
    const stats = failures([
      ["billing", T0],
      ["auth_permanent", T0 + MINUTE],
    ]);
    expect(stats.disabledUntil).toBe(T0 + 5 * HOUR);
    expect(stats.disabledReason).toBe("auth_permanent");
  });

  it("R-CD-3: a disable blocks every model of the profile and writes no cooldown", () => {
    const stats = fail(undefined, "billing", T0, { model: "gpt-5" });
    expect(stats.cooldownUntil).toBeUndefined();
    expect(isUsable(stats, "gpt-5", T0 + HOUR)).toBe(false);
    expect(isUsable(stats, "gpt-4.1", T0 + HOUR)).toBe(false);
    expect(isUsable(stats, undefined, T0 + HOUR)).toBe(false);
    expect(isUsable(stats, "gpt-4.1", T0 + 5 * HOUR)).toBe(true);
  });
});

describe("R-CD-4 model scope", () => {
  it.each(["rate_limit", "overloaded", "server_error", "timeout", "model_not_found"] as const)(
    "R-CD-4: %s with a known model opens a window scoped to that model",
    (reason) => {
      const stats = fail(undefined, reason, T0, { model: "gpt-5" });
      expect(stats.cooldownModel).toBe("gpt-5");
      expect(isUsable(stats, "gpt-5", T0 + 1)).toBe(false);
      expect(isUsable(stats, "gpt-5-mini", T0 + 1)).toBe(true);
    },
  );

  it("R-CD-4: a scoped window still blocks a caller that names no model", () => {
    const stats = fail(undefined, "rate_limit", T0, { model: "gpt-5" });
    expect(isUsable(stats, undefined, T0 + 1)).toBe(false);
  });

  it("R-CD-4: a model-scoped reason without a known model blocks the whole profile", () => {
    const stats = fail(undefined, "rate_limit", T0);
    expect(stats.cooldownModel).toBeUndefined();
    expect(isUsable(stats, "gpt-5-mini", T0 + 1)).toBe(false);
  });

  it.each(["auth", "unclassified", "empty_response", "no_error_details"] as const)(
    "R-CD-4: %s carries no model scope even with a model",
    (reason) => {
      const stats = fail(undefined, reason, T0, { model: "gpt-5" });
      expect(stats.cooldownModel).toBeUndefined();
      expect(isUsable(stats, "gpt-5-mini", T0 + 1)).toBe(false);
    },
  );

  it("R-CD-4: the same model failing again inside the window keeps the scope", () => {
    const stats = failures([
      ["rate_limit", T0, { model: "gpt-5" }],
      ["timeout", T0 + 5 * SECOND, { model: "gpt-5" }],
    ]);
    expect(stats.cooldownModel).toBe("gpt-5");
  });

  it("R-CD-4: a different model failing inside the window widens it", () => {
    const stats = failures([
      ["rate_limit", T0, { model: "gpt-5" }],
      ["rate_limit", T0 + 5 * SECOND, { model: "gpt-5-mini" }],
    ]);
    expect(stats.cooldownModel).toBeUndefined();
    expect(isUsable(stats, "gpt-4.1", T0 + 10 * SECOND)).toBe(false);
  });

  it("R-CD-4: a reason without model scope inside the window widens it", () => {
    const stats = failures([
      ["rate_limit", T0, { model: "gpt-5" }],
      ["unclassified", T0 + 5 * SECOND, { model: "gpt-5" }],
    ]);
    expect(stats.cooldownModel).toBeUndefined();
  });

  it("R-CD-4: a 503 (overloaded) on one model leaves the key usable for the provider's other models", () => {
    const stats = failures([
      ["overloaded", T0, { model: "gpt-5" }],
      ["overloaded", T0 + 5 * SECOND, { model: "gpt-5" }],
      ["server_error", T0 + 10 * SECOND, { model: "gpt-5" }],
    ]);
    expect(stats.cooldownModel).toBe("gpt-5");
    expect(isUsable(stats, "gpt-5", T0 + 11 * SECOND)).toBe(false);
    expect(isUsable(stats, "gpt-5-mini", T0 + 11 * SECOND)).toBe(true);
    expect(isUsable(stats, "o3", T0 + 11 * SECOND)).toBe(true);
  });

  it("R-CD-4: a server error of another model inside an overloaded window widens it", () => {
    const stats = failures([
      ["overloaded", T0, { model: "gpt-5" }],
      ["server_error", T0 + 5 * SECOND, { model: "o3" }],
    ]);
    expect(stats.cooldownModel).toBeUndefined();
    expect(isUsable(stats, "gpt-5-mini", T0 + 6 * SECOND)).toBe(false);
  });

  it("R-CD-4: a disable-lane failure inside a scoped cooldown widens it too", () => {
    const stats = failures([
      ["rate_limit", T0, { model: "gpt-5" }],
      ["billing", T0 + 5 * SECOND, { model: "gpt-5" }],
    ]);
    expect(stats.cooldownModel).toBeUndefined();
  });

  it("R-CD-4: a new window after the old one ended takes the new failure's scope", () => {
    const stats = failures([
      ["overloaded", T0, { model: "gpt-5" }],
      ["rate_limit", T0 + 10 * MINUTE, { model: "gpt-5-mini" }],
    ]);
    expect(stats.cooldownModel).toBe("gpt-5-mini");
    expect(isUsable(stats, "gpt-5", T0 + 10 * MINUTE + 1)).toBe(true);
  });
});

describe("R-CD-5 not recorded", () => {
  it("R-CD-5: REASON_POLICY leaves out exactly format, context_overflow, content_filter, session_expired and incompatible skips", () => {
    expect([...NOT_RECORDED].sort()).toEqual(["content_filter", "context_overflow", "format", "incompatible", "session_expired"]);
  });

  it.each(NOT_RECORDED)("R-CD-5: %s returns an unchanged copy", (reason) => {
    const before = deepFreeze(fail(undefined, "rate_limit", T0, { model: "m" }));
    const after = fail(before, reason, T0 + SECOND, { model: "other", resetAt: T0 + HOUR });
    expect(after).toEqual(before);
    expect(after).not.toBe(before);
  });

  it("R-CD-5: a not-recorded reason on a profile with no stats returns empty stats", () => {
    expect(fail(undefined, "format", T0)).toEqual({});
  });
});

describe("R-CD-6 provider-stated resets", () => {
  it("R-CD-6: a stated reset replaces the ladder with blockedUntil and blockedReason; errorCount still counts", () => {
    const stats = fail(undefined, "rate_limit", T0, { resetAt: T0 + 2 * HOUR });
    expect(stats.blockedUntil).toBe(T0 + 2 * HOUR);
    expect(stats.blockedReason).toBe("rate_limit");
    expect(stats.cooldownUntil).toBeUndefined();
    expect(stats.errorCount).toBe(1);
    expect(stats.failureCounts).toEqual({ rate_limit: 1 });
  });

  it("R-CD-6: blockedModel is recorded when the limit is per model", () => {
    const stats = fail(undefined, "rate_limit", T0, { model: "gpt-5", resetAt: T0 + HOUR });
    expect(stats.blockedModel).toBe("gpt-5");
    expect(isUsable(stats, "gpt-5", T0 + MINUTE)).toBe(false);
    expect(isUsable(stats, "gpt-5-mini", T0 + MINUTE)).toBe(true);
  });

  it("R-CD-6: a reason without model scope blocks the whole profile", () => {
    const stats = fail(undefined, "unclassified", T0, { model: "gpt-5", resetAt: T0 + HOUR });
    expect(stats.blockedModel).toBeUndefined();
    expect(isUsable(stats, "gpt-5-mini", T0 + MINUTE)).toBe(false);
  });

  it("R-CD-6: a stated reset is capped at seven days ahead", () => {
    const stats = fail(undefined, "rate_limit", T0, { resetAt: T0 + 30 * 24 * HOUR });
    expect(stats.blockedUntil).toBe(T0 + MAX_STATED_BLOCK_MS);
    expect(MAX_STATED_BLOCK_MS).toBe(7 * 24 * HOUR);
  });

  it("R-CD-6: a later failure with an earlier stated reset never shortens the block", () => {
    const stats = failures([
      ["rate_limit", T0, { resetAt: T0 + 3 * HOUR }],
      ["rate_limit", T0 + MINUTE, { resetAt: T0 + HOUR }],
    ]);
    expect(stats.blockedUntil).toBe(T0 + 3 * HOUR);
  });

  it("R-CD-6: a later stated reset extends the block", () => {
    const stats = failures([
      ["rate_limit", T0, { resetAt: T0 + HOUR }],
      ["rate_limit", T0 + MINUTE, { resetAt: T0 + 5 * HOUR }],
    ]);
    expect(stats.blockedUntil).toBe(T0 + 5 * HOUR);
  });

  it("R-CD-6: a later failure without a stated reset keeps the block and uses the ladder", () => {
    const stats = failures([
      ["rate_limit", T0, { resetAt: T0 + HOUR }],
      ["overloaded", T0 + MINUTE],
    ]);
    expect(stats.blockedUntil).toBe(T0 + HOUR);
    expect(stats.cooldownUntil).toBe(T0 + MINUTE + 60 * SECOND);
  });

  it("R-CD-6: a different model inside a scoped block widens it", () => {
    const stats = failures([
      ["rate_limit", T0, { model: "gpt-5", resetAt: T0 + HOUR }],
      ["rate_limit", T0 + MINUTE, { model: "gpt-5-mini", resetAt: T0 + HOUR }],
    ]);
    expect(stats.blockedModel).toBeUndefined();
  });

  it("R-CD-6: once the stated time passes the profile is usable again with nothing else done", () => {
    const stats = fail(undefined, "rate_limit", T0, { resetAt: T0 + HOUR });
    expect(isUsable(stats, undefined, T0 + HOUR - 1)).toBe(false);
    expect(isUsable(stats, undefined, T0 + HOUR)).toBe(true);
  });

  it("R-CD-6: a stated reset in the past falls back to the ladder", () => {
    const stats = fail(undefined, "rate_limit", T0, { resetAt: T0 - SECOND });
    expect(stats.blockedUntil).toBeUndefined();
    expect(stats.cooldownUntil).toBe(T0 + 30 * SECOND);
  });
});

describe("R-CD-1 one incident, one step", () => {
  it("R-CD-1: ten concurrent timeouts of one hung upstream leave the profile on the first ladder step", () => {
    // All ten attempts started at T0 and were cut by the watchdog 5 s later, one after another.
    let stats: UsageStats | undefined;
    for (let i = 0; i < 10; i += 1) stats = fail(stats, "timeout", T0 + 5 * SECOND + i, { attemptStartedAt: T0, model: "gpt-5" });
    expect(stats?.errorCount).toBe(1);
    expect(stats?.failureCounts).toEqual({ timeout: 10 });
    expect(stats?.lastFailureAt).toBe(T0 + 5 * SECOND);
    expect(stats?.cooldownUntil).toBe(T0 + 5 * SECOND + 10 * SECOND);
  });

  it("R-CD-1: without the one-incident rule the same ten failures would climb to the top of the ladder", () => {
    let stats: UsageStats | undefined;
    for (let i = 0; i < 10; i += 1) stats = fail(stats, "timeout", T0 + 5 * SECOND + i);
    expect(stats?.errorCount).toBe(10);
    expect((stats?.cooldownUntil ?? 0) - (T0 + 5 * SECOND + 9)).toBe(300 * SECOND);
  });

  it("R-CD-1: a same-incident failure neither extends the window nor changes its reason", () => {
    const opened = fail(undefined, "rate_limit", T0, { attemptStartedAt: T0 - SECOND });
    const late = fail(opened, "overloaded", T0 + 20 * SECOND, { attemptStartedAt: T0 - 2 * SECOND });
    expect(late.cooldownUntil).toBe(T0 + 30 * SECOND);
    expect(late.cooldownReason).toBe("rate_limit");
    expect(late.errorCount).toBe(1);
    expect(late.failureCounts).toEqual({ rate_limit: 1, overloaded: 1 });
  });

  it("R-CD-1: an attempt that started after the window opened is a new incident and climbs", () => {
    const opened = fail(undefined, "rate_limit", T0, { attemptStartedAt: T0 - SECOND });
    const next = fail(opened, "rate_limit", T0 + 20 * SECOND, { attemptStartedAt: T0 + 10 * SECOND });
    expect(next.errorCount).toBe(2);
    expect(next.cooldownUntil).toBe(T0 + 20 * SECOND + 60 * SECOND);
  });

  it("R-CD-1: once the window has ended, an old attempt's failure opens a new one", () => {
    const opened = fail(undefined, "rate_limit", T0, { attemptStartedAt: T0 - SECOND });
    const after = fail(opened, "rate_limit", T0 + 31 * SECOND, { attemptStartedAt: T0 - SECOND });
    expect(after.errorCount).toBe(2);
    expect(after.cooldownUntil).toBe(T0 + 31 * SECOND + 60 * SECOND);
  });

  it("R-CD-1: a same-incident failure of another model still widens a model-scoped window (R-CD-4)", () => {
    const opened = fail(undefined, "overloaded", T0, { model: "gpt-5", attemptStartedAt: T0 - SECOND });
    const other = fail(opened, "overloaded", T0 + SECOND, { model: "o3", attemptStartedAt: T0 - SECOND });
    expect(other.cooldownModel).toBeUndefined();
    expect(other.cooldownUntil).toBe(T0 + 30 * SECOND);
    expect(other.errorCount).toBe(1);
  });

  it("R-CD-1: a billing failure during a cooldown is not the cooldown's incident: it still disables", () => {
    const opened = fail(undefined, "rate_limit", T0, { attemptStartedAt: T0 - SECOND });
    const billing = fail(opened, "billing", T0 + SECOND, { attemptStartedAt: T0 - SECOND });
    expect(billing.disabledUntil).toBe(T0 + SECOND + 5 * HOUR);
  });

  it("R-CD-1: the next timeout incident takes the second step, not the eleventh", () => {
    let stats: UsageStats | undefined;
    for (let i = 0; i < 10; i += 1) stats = fail(stats, "timeout", T0 + 5 * SECOND + i, { attemptStartedAt: T0 });
    const later = T0 + MINUTE;
    const next = fail(stats, "timeout", later, { attemptStartedAt: later - 5 * SECOND });
    expect(next.errorCount).toBe(2);
    expect(next.cooldownUntil).toBe(later + 20 * SECOND);
  });
});

describe("R-CD-6 trust-once", () => {
  const RESET = (now: number) => ({ resetAt: now + SECOND });

  it("R-CD-6: the first stated reset is trusted; the refusal right after it ran out gets the ladder step", () => {
    const first = fail(undefined, "rate_limit", T0, RESET(T0));
    expect(first.blockedUntil).toBe(T0 + SECOND);
    expect(first.cooldownUntil).toBeUndefined();
    const again = T0 + SECOND + 10;
    const second = fail(clearExpired(first, again), "rate_limit", again, RESET(again));
    expect(second.blockedUntil).toBe(again + SECOND);
    // errorCount 2 → the second ladder step, 60 s, is longer than the stated second.
    expect(second.cooldownUntil).toBe(again + 60 * SECOND);
    expect(unusableUntil(second, undefined, again)).toBe(again + 60 * SECOND);
  });

  it("R-CD-6: a newly stated time longer than the ladder step wins", () => {
    const first = fail(undefined, "rate_limit", T0, RESET(T0));
    const again = T0 + 2 * SECOND;
    const second = fail(first, "rate_limit", again, { resetAt: again + 10 * MINUTE });
    expect(second.blockedUntil).toBe(again + 10 * MINUTE);
    expect(unusableUntil(second, undefined, again)).toBe(again + 10 * MINUTE);
  });

  it("R-CD-6: a failure long after the last one (beyond the next ladder step) trusts the stated reset again", () => {
    const first = fail(undefined, "rate_limit", T0, RESET(T0));
    const much = T0 + 10 * MINUTE;
    const second = fail(clearExpired(first, much), "rate_limit", much, RESET(much));
    expect(second.blockedUntil).toBe(much + SECOND);
    expect(second.cooldownUntil).toBeUndefined();
  });

  it("R-CD-6: inside a stated window a new stated reset is trusted as before", () => {
    const first = fail(undefined, "rate_limit", T0, { resetAt: T0 + MINUTE });
    const second = fail(first, "rate_limit", T0 + SECOND, { resetAt: T0 + 2 * MINUTE });
    expect(second.blockedUntil).toBe(T0 + 2 * MINUTE);
    expect(second.cooldownUntil).toBeUndefined();
  });

  it("R-CD-6: a failure right after a waited-out stated reset (R-RN-6) is not trusted even on fresh stats", () => {
    const waited = fail(undefined, "rate_limit", T0, { ...RESET(T0), afterStatedWait: true });
    expect(waited.blockedUntil).toBe(T0 + SECOND);
    expect(waited.cooldownUntil).toBe(T0 + 30 * SECOND);
    expect(isStatedResetTrusted(undefined, { reason: "rate_limit", now: T0, cooldowns: SETTINGS })).toBe(true);
  });

  it("R-CD-6: isStatedResetTrusted says whether the next stated reset would be trusted", () => {
    const first = fail(undefined, "rate_limit", T0, RESET(T0));
    const ask = (now: number, reason: FailoverReason = "rate_limit") =>
      isStatedResetTrusted(clearExpired(first, now), { reason, now, cooldowns: SETTINGS });
    expect(ask(T0 + SECOND / 2)).toBe(true); // still inside the stated window
    expect(ask(T0 + 2 * SECOND)).toBe(false); // ran out, refused again
    expect(ask(T0 + 2 * SECOND, "overloaded")).toBe(true); // another reason
    expect(ask(T0 + 2 * MINUTE)).toBe(true); // long after
  });

  it("R-CD-6: a provider answering 429 + Retry-After: 1 every second is held back for minutes, not seconds", () => {
    let stats: UsageStats | undefined;
    let now = T0;
    let calls = 0;
    while (now < T0 + 10 * MINUTE) {
      if (stats === undefined || isUsable(stats, "gpt-5", now)) {
        calls += 1;
        stats = fail(stats ? clearExpired(stats, now) : undefined, "rate_limit", now, { model: "gpt-5", ...RESET(now) });
      }
      now += SECOND;
    }
    // Trusting every stated second would call it ~300 times; trust-once follows the ladder: 0 s, 1 s, +60 s, +300 s…
    expect(calls).toBeLessThanOrEqual(5);
  });
});

describe("R-CD-7 success and reuse", () => {
  it("R-CD-7: successChangesOnlyLastUsed says exactly when a success would change nothing but lastUsed", () => {
    const withoutLastUsed = (stats: UsageStats | undefined) => JSON.stringify({ ...stats, lastUsed: undefined });
    const samples: (UsageStats | undefined)[] = [
      undefined,
      {},
      { lastUsed: 5 },
      { lastUsed: 5, errorCount: 0, failureCounts: {} },
      { errorCount: 0, failureCounts: {}, lastFailureAt: 3 },
      { errorCount: 0, failureCounts: { rate_limit: 1 } },
      { errorCount: 1, failureCounts: {} },
      { errorCount: 0, failureCounts: {}, cooldownUntil: 10, cooldownReason: "rate_limit" },
      { errorCount: 0, failureCounts: {}, disabledUntil: 10, disabledReason: "billing" },
      { errorCount: 0, failureCounts: {}, blockedUntil: 10, blockedReason: "rate_limit", blockedModel: "m" },
      { errorCount: 0, failureCounts: {}, cooldownModel: "m" },
    ];
    for (const stats of samples) {
      const onlyLastUsed = withoutLastUsed(recordSuccess(stats, { now: 99 })) === withoutLastUsed(stats);
      expect(successChangesOnlyLastUsed(stats), JSON.stringify(stats)).toBe(onlyLastUsed);
    }
  });

  it("R-CD-7: success sets lastUsed, zeroes the counters and clears every window", () => {
    const failed = deepFreeze(
      failures([
        ["rate_limit", T0, { model: "m" }],
        ["billing", T0 + SECOND],
        ["overloaded", T0 + 2 * SECOND, { resetAt: T0 + HOUR }],
      ]),
    );
    const stats = recordSuccess(failed, { now: T0 + 3 * SECOND });
    expect(stats).toEqual({ lastUsed: T0 + 3 * SECOND, errorCount: 0, failureCounts: {}, lastFailureAt: T0 + 2 * SECOND });
    expect(isUsable(stats, "m", T0 + 3 * SECOND)).toBe(true);
  });

  it("R-CD-7: markUsed only moves lastUsed", () => {
    const failed = deepFreeze(fail({ lastUsed: T0 - HOUR }, "rate_limit", T0));
    const stats = markUsed(failed, { now: T0 + SECOND });
    expect(stats).toEqual({ ...failed, lastUsed: T0 + SECOND });
  });
});

describe("R-CD-8 manual reset", () => {
  it("R-CD-8: resetUsageStats leaves no window, so a 24 h billing disable ends at once", () => {
    const disabled = fail(undefined, "billing", T0);
    expect(isUsable(disabled, undefined, T0 + MINUTE)).toBe(false);
    const reset = resetUsageStats();
    expect(reset).toEqual({});
    expect(isUsable(reset, undefined, T0 + MINUTE)).toBe(true);
    expect(resetUsageStats()).not.toBe(reset);
  });
});

describe("R-PO-4 clearing expired windows", () => {
  it("R-PO-4: expired windows are cleared with their reason and model fields; counters are kept", () => {
    const stats = deepFreeze(
      failures([
        ["rate_limit", T0, { model: "m" }],
        ["auth_permanent", T0 + SECOND],
        ["overloaded", T0 + 2 * SECOND, { resetAt: T0 + 5 * MINUTE }],
      ]),
    );
    const cleared = clearExpired(stats, T0 + 2 * HOUR);
    expect(cleared).toEqual({ errorCount: 3, failureCounts: stats.failureCounts, lastFailureAt: T0 + 2 * SECOND });
  });

  it("R-PO-4: only the ended windows go; active ones stay", () => {
    const stats = failures([
      ["rate_limit", T0, { model: "m" }],
      ["billing", T0 + SECOND],
    ]);
    const cleared = clearExpired(stats, T0 + HOUR);
    expect(cleared.cooldownUntil).toBeUndefined();
    expect(cleared.cooldownModel).toBeUndefined();
    expect(cleared.cooldownReason).toBeUndefined();
    expect(cleared.disabledUntil).toBe(T0 + SECOND + 5 * HOUR);
    expect(cleared.disabledReason).toBe("billing");
  });

  it("R-PO-4: nothing expired returns the same object; a change returns a fresh one", () => {
    const stats = deepFreeze(fail(undefined, "rate_limit", T0));
    expect(clearExpired(stats, T0 + SECOND)).toBe(stats);
    expect(clearExpired(stats, T0 + HOUR)).not.toBe(stats);
  });

  it("R-PO-4: a window ends exactly at its deadline", () => {
    const stats = fail(undefined, "rate_limit", T0);
    expect(clearExpired(stats, T0 + 30 * SECOND).cooldownUntil).toBeUndefined();
  });
});

describe("reading windows", () => {
  it("R-CD-2: unusableUntil is the end of the last blocking window and unusableReason its reason", () => {
    const stats = failures([
      ["rate_limit", T0, { model: "m" }],
      ["auth_permanent", T0 + SECOND],
    ]);
    expect(unusableUntil(stats, "m", T0 + 2 * SECOND)).toBe(T0 + SECOND + 10 * MINUTE);
    expect(unusableReason(stats, "m", T0 + 2 * SECOND)).toBe("auth_permanent");
    expect(unusableUntil(stats, "m", T0 + HOUR)).toBeUndefined();
    expect(unusableReason(stats, "m", T0 + HOUR)).toBeUndefined();
  });

  it("R-CD-4: unusableUntil ignores a window scoped to another model", () => {
    const stats = fail(undefined, "rate_limit", T0, { model: "m" });
    expect(unusableUntil(stats, "other", T0 + 1)).toBeUndefined();
    expect(unusableUntil(stats, "m", T0 + 1)).toBe(T0 + 30 * SECOND);
  });

  it("R-CD-3: legacy rows without reasons read as billing (disable) and unknown (cooldown)", () => {
    expect(unusableReason({ disabledUntil: T0 + HOUR }, undefined, T0)).toBe("billing");
    expect(unusableReason({ cooldownUntil: T0 + HOUR }, undefined, T0)).toBe("unclassified");
  });
});

describe("purity", () => {
  it("R-CD-1: recordFailure never mutates its input", () => {
    const stats = deepFreeze(failures([["rate_limit", T0, { model: "m" }]]));
    const snapshot = structuredClone(stats);
    for (const reason of FAILOVER_REASONS) {
      fail(stats, reason, T0 + SECOND, { model: "x", resetAt: T0 + HOUR });
      fail(stats, reason, T0 + SECOND);
    }
    expect(stats).toEqual(snapshot);
  });
});

const DEADLINES = ["cooldownUntil", "disabledUntil", "blockedUntil"] as const;

describe("property", () => {
  it("R-CD-2: a cooldown/disable/block deadline never moves earlier under any sequence of failures", () => {
    const step = fc.record({
      reason: fc.constantFrom(...FAILOVER_REASONS),
      model: fc.option(fc.constantFrom("a", "b", "c"), { nil: undefined }),
      provider: fc.constantFrom("openai", "anthropic"),
      advanceMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 10 * MINUTE }), fc.integer({ min: 0, max: 48 * HOUR })),
      resetOffsetMs: fc.option(fc.integer({ min: -HOUR, max: 30 * 24 * HOUR }), { nil: undefined }),
    });
    const config = fc.record({
      ladderSeconds: fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 4 }),
      timeoutLadderSeconds: fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 6 }),
      billingBackoffHours: fc.integer({ min: 1, max: 48 }),
      billingMaxHours: fc.integer({ min: 1, max: 48 }),
      authPermanentBackoffMinutes: fc.integer({ min: 1, max: 120 }),
      authPermanentMaxMinutes: fc.integer({ min: 1, max: 120 }),
      failureWindowHours: fc.integer({ min: 1, max: 48 }),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), config, (steps, overrides) => {
        const settings: CooldownSettings = { ...SETTINGS, ...overrides, billingBackoffHoursByProvider: { anthropic: 2 } };
        let now = T0;
        let stats: UsageStats | undefined;
        for (const s of steps) {
          now += s.advanceMs;
          const before: UsageStats = stats ?? {};
          const after = recordFailure(stats === undefined ? undefined : deepFreeze(stats), {
            reason: s.reason,
            provider: s.provider,
            now,
            cooldowns: settings,
            ...(s.model === undefined ? {} : { model: s.model }),
            ...(s.resetOffsetMs === undefined ? {} : { resetAt: now + s.resetOffsetMs }),
          });
          for (const key of DEADLINES) {
            const previous = before[key];
            if (previous !== undefined) expect(after[key]).toBeGreaterThanOrEqual(previous);
          }
          stats = after;
        }
      }),
      { numRuns: 300 },
    );
  });
});
