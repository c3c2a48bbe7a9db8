/** Contract part: usage stats, every R-CD rule observable through the store (R-AP-4, §5, R-PO-4, R-SB-2). */
import { beforeEach, describe, expect, it } from "vitest";
import type { UsageStats } from "../../../core/types.js";
import type { StateStore } from "../../../ports/state-store.js";
import { type ContractContext, SECOND, MINUTE, HOUR, NOW, failure, expectNoActiveState } from "./fixtures.js";

export function usageStatsContract(context: ContractContext): void {
  describe("usage stats", () => {
    let store: StateStore;
    beforeEach(() => {
      store = context.store();
    });
    it("R-AP-4: the stats a failure writes are exactly the stats read back, in the shared JSON shape", async () => {
      const written = await store.recordFailure("openai:a", failure("rate_limit", { model: "gpt-4o" }));
      expect(written).toEqual({
        errorCount: 1,
        failureCounts: { rate_limit: 1 },
        lastFailureAt: NOW,
        cooldownUntil: NOW + 30 * SECOND,
        cooldownReason: "rate_limit",
        cooldownModel: "gpt-4o",
      });
      expect(await store.getUsageStats("openai:a")).toEqual(written);
      expect(await store.getAllUsageStats()).toEqual({ "openai:a": written });
      expect(await store.getUsageStats("openai:never")).toBeUndefined();
    });

    it("R-CD-1: failures count up inside the failure window and restart after it", async () => {
      await store.recordFailure("openai:a", failure("rate_limit"));
      await store.recordFailure("openai:a", failure("overloaded", { now: NOW + HOUR }));
      let stats = await store.getUsageStats("openai:a");
      expect(stats?.errorCount).toBe(2);
      expect(stats?.failureCounts).toEqual({ rate_limit: 1, overloaded: 1 });
      expect(stats?.lastFailureAt).toBe(NOW + HOUR);
      const later = NOW + HOUR + 24 * HOUR + 1;
      await store.recordFailure("openai:a", failure("server_error", { now: later }));
      stats = await store.getUsageStats("openai:a");
      expect(stats?.errorCount).toBe(1);
      expect(stats?.failureCounts).toEqual({ server_error: 1 });
    });

    it("R-CD-1: counters keep climbing after a cooldown expired (no restart merely because it ended)", async () => {
      await store.recordFailure("openai:a", failure("rate_limit"));
      const afterCooldown = NOW + 31 * SECOND;
      const stats = await store.recordFailure("openai:a", failure("rate_limit", { now: afterCooldown }));
      expect(stats.errorCount).toBe(2);
      expect(stats.cooldownUntil).toBe(afterCooldown + 60 * SECOND);
    });

    it("R-CD-2: the cooldown ladder climbs 30 s, 60 s, 300 s and repeats its last step", async () => {
      const until: number[] = [];
      for (let step = 0; step < 4; step += 1) {
        const now = NOW + step * 10 * MINUTE;
        const stats = await store.recordFailure("openai:a", failure("overloaded", { now }));
        until.push((stats.cooldownUntil ?? 0) - now);
      }
      expect(until).toEqual([30 * SECOND, 60 * SECOND, 300 * SECOND, 300 * SECOND]);
    });

    it("R-CD-2: an active cooldown is never shortened, and timeouts climb their own ladder", async () => {
      await store.recordFailure("openai:a", failure("overloaded"));
      await store.recordFailure("openai:a", failure("overloaded", { now: NOW + 1 }));
      const long = await store.recordFailure("openai:a", failure("overloaded", { now: NOW + 2 }));
      expect(long.cooldownUntil).toBe(NOW + 2 + 300 * SECOND);
      const timeout = await store.recordFailure("openai:a", failure("timeout", { now: NOW + 3 }));
      expect(timeout.cooldownUntil).toBe(NOW + 2 + 300 * SECOND);
      expect(timeout.cooldownReason).toBe("timeout");
      const fresh = await store.recordFailure("openai:t", failure("timeout"));
      expect(fresh.cooldownUntil).toBe(NOW + 10 * SECOND);
    });

    it("R-CD-3: billing disables, doubling per failure up to the cap, with a per-provider base", async () => {
      const hours: number[] = [];
      for (let count = 0; count < 4; count += 1) {
        const stats = await store.recordFailure("openai:a", failure("billing", { now: NOW + count }));
        hours.push(((stats.disabledUntil ?? 0) - (NOW + count)) / HOUR);
        expect(stats.disabledReason).toBe("billing");
      }
      expect(hours).toEqual([5, 10, 20, 24]);
      const routed = await store.recordFailure("openrouter:a", failure("billing", { provider: "openrouter" }));
      expect(routed.disabledUntil).toBe(NOW + HOUR);
    });

    it("R-CD-3: auth_permanent disables with its own minutes ladder and cap", async () => {
      const minutes: number[] = [];
      for (let count = 0; count < 4; count += 1) {
        const stats = await store.recordFailure("openai:a", failure("auth_permanent", { now: NOW + count }));
        minutes.push(((stats.disabledUntil ?? 0) - (NOW + count)) / MINUTE);
        expect(stats.disabledReason).toBe("auth_permanent");
      }
      expect(minutes).toEqual([10, 20, 40, 60]);
    });

    it("R-CD-4: a new model-scoped window remembers its model; another model's failure widens it", async () => {
      const scoped = await store.recordFailure("openai:a", failure("rate_limit", { model: "gpt-4o" }));
      expect(scoped.cooldownModel).toBe("gpt-4o");
      const same = await store.recordFailure("openai:a", failure("rate_limit", { model: "gpt-4o", now: NOW + 1 }));
      expect(same.cooldownModel).toBe("gpt-4o");
      const widened = await store.recordFailure("openai:a", failure("rate_limit", { model: "gpt-5", now: NOW + 2 }));
      expect(widened.cooldownModel).toBeUndefined();
      const unscoped = await store.recordFailure("openai:b", failure("unclassified", { model: "gpt-4o" }));
      expect(unscoped.cooldownModel).toBeUndefined();
      // R-CD-4: overloaded (503/529) and server errors are model-scoped too.
      const overloaded = await store.recordFailure("openai:c", failure("overloaded", { model: "gpt-4o" }));
      expect(overloaded.cooldownModel).toBe("gpt-4o");
    });

    it("R-CD-5: format, context_overflow, content_filter and session_expired are not recorded", async () => {
      await store.recordFailure("openai:a", failure("rate_limit"));
      const before = await store.getUsageStats("openai:a");
      for (const reason of ["format", "context_overflow", "content_filter", "session_expired"] as const) {
        const returned = await store.recordFailure("openai:a", failure(reason, { now: NOW + 5 }));
        expect(returned).toEqual(before);
      }
      expect(await store.getUsageStats("openai:a")).toEqual(before);
    });

    it("R-CD-6: a provider-stated reset blocks until that time, capped at 7 days, never shortened", async () => {
      const stated = await store.recordFailure("openai:a", failure("rate_limit", { model: "gpt-4o", resetAt: NOW + 2 * HOUR }));
      expect(stated.blockedUntil).toBe(NOW + 2 * HOUR);
      expect(stated.blockedReason).toBe("rate_limit");
      expect(stated.blockedModel).toBe("gpt-4o");
      expect(stated.errorCount).toBe(1);
      const earlier = await store.recordFailure("openai:a", failure("rate_limit", { model: "gpt-4o", now: NOW + 1, resetAt: NOW + HOUR }));
      expect(earlier.blockedUntil).toBe(NOW + 2 * HOUR);
      expect(earlier.errorCount).toBe(2);
      const far = await store.recordFailure("openai:b", failure("rate_limit", { resetAt: NOW + 30 * 24 * HOUR }));
      expect(far.blockedUntil).toBe(NOW + 7 * 24 * HOUR);
    });

    it("R-CD-7: success clears counters and every window, sets lastUsed and lastGood", async () => {
      await store.recordFailure("openai:a", failure("rate_limit", { resetAt: NOW + HOUR }));
      await store.recordFailure("openai:a", failure("billing", { now: NOW + 1 }));
      await store.recordFailure("openai:a", failure("overloaded", { now: NOW + 2 }));
      const stats = await store.recordSuccess("openai:a", { provider: "openai", now: NOW + 3 });
      expectNoActiveState(stats);
      expect(stats.lastUsed).toBe(NOW + 3);
      const read = await store.getUsageStats("openai:a");
      expectNoActiveState(read);
      expect(read?.lastUsed).toBe(NOW + 3);
      expect(await store.getLastGood("openai")).toBe("openai:a");
    });

    it("R-CD-7: repeated successes keep moving lastUsed", async () => {
      for (let turn = 0; turn < 3; turn += 1) {
        await store.recordSuccess("openai:a", { provider: "openai", now: NOW + turn * MINUTE });
      }
      expect((await store.getUsageStats("openai:a"))?.lastUsed).toBe(NOW + 2 * MINUTE);
      expect((await store.getAllUsageStats())["openai:a"]?.lastUsed).toBe(NOW + 2 * MINUTE);
    });

    it("R-CD-7: markUsed only moves lastUsed and never touches a window", async () => {
      await store.markUsed("openai:fresh", NOW);
      expect(await store.getUsageStats("openai:fresh")).toEqual({ lastUsed: NOW });
      const failed = await store.recordFailure("openai:a", failure("rate_limit", { model: "gpt-4o" }));
      await store.markUsed("openai:a", NOW + 5);
      expect(await store.getUsageStats("openai:a")).toEqual({ ...failed, lastUsed: NOW + 5 });
      expect((await store.getAllUsageStats())["openai:a"]).toEqual({ ...failed, lastUsed: NOW + 5 });
    });

    it("R-CD-7: a failure recorded after a batched success is kept (the success path never loses a window)", async () => {
      await store.recordSuccess("openai:a", { provider: "openai", now: NOW });
      await store.recordSuccess("openai:a", { provider: "openai", now: NOW + 1 });
      await store.markUsed("openai:a", NOW + 2);
      const failed = await store.recordFailure("openai:a", failure("rate_limit", { now: NOW + 3 }));
      await store.markUsed("openai:a", NOW + 4);
      const read = await store.getUsageStats("openai:a");
      expect(read?.cooldownUntil).toBe(failed.cooldownUntil);
      expect(read?.errorCount).toBe(1);
      expect(read?.lastUsed).toBe(NOW + 4);
    });

    it("R-CD-8: resetting a profile clears every window and counter at once", async () => {
      await store.recordFailure("openai:a", failure("billing"));
      await store.recordFailure("openai:a", failure("rate_limit", { resetAt: NOW + HOUR }));
      await store.resetUsageStats("openai:a");
      const reset = await store.getUsageStats("openai:a");
      expectNoActiveState(reset);
      expect(reset?.lastFailureAt).toBeUndefined();
      await store.resetUsageStats("openai:never");
      expect(await store.getUsageStats("openai:never")).toBeUndefined();
    });

    it("R-PO-4: clearExpired drops ended windows with their reason/model fields and keeps the counters", async () => {
      expect(await store.clearExpired("openai:none", NOW)).toBeUndefined();
      await store.recordFailure("openai:a", failure("rate_limit", { model: "gpt-4o" }));
      await store.recordFailure("openai:a", failure("billing", { now: NOW + 1 }));
      const stillActive = await store.clearExpired("openai:a", NOW + 10 * SECOND);
      expect(stillActive?.cooldownUntil).toBe(NOW + 30 * SECOND);
      expect(stillActive?.cooldownReason).toBe("rate_limit");
      const cleared = await store.clearExpired("openai:a", NOW + 2 * MINUTE);
      expect(cleared?.cooldownUntil).toBeUndefined();
      expect(cleared?.cooldownReason).toBeUndefined();
      expect(cleared?.cooldownModel).toBeUndefined();
      expect(cleared?.disabledReason).toBe("billing");
      expect(cleared?.errorCount).toBe(2);
      expect(cleared?.failureCounts).toEqual({ rate_limit: 1, billing: 1 });
      expect(await store.getUsageStats("openai:a")).toEqual(cleared);
    });

    it("R-AP-6: replaceUsageStats writes stats verbatim and deletes them with undefined", async () => {
      const imported: UsageStats = {
        lastUsed: NOW - HOUR,
        errorCount: 3,
        failureCounts: { billing: 2, rate_limit: 1 },
        lastFailureAt: NOW - MINUTE,
        disabledUntil: NOW + HOUR,
        disabledReason: "billing",
        blockedUntil: NOW + 2 * HOUR,
        blockedReason: "rate_limit",
        blockedModel: "gpt-4o",
      };
      await store.replaceUsageStats("openai:a", imported);
      expect(await store.getUsageStats("openai:a")).toEqual(imported);
      const next = await store.recordFailure("openai:a", failure("billing", { now: NOW }));
      expect(next.failureCounts?.billing).toBe(3);
      await store.replaceUsageStats("openai:a", undefined);
      expect(await store.getUsageStats("openai:a")).toBeUndefined();
    });

    it("R-CD-1: concurrent failures of attempts that started before the window opened are one incident, one step", async () => {
      // Ten requests caught by one hung upstream: all started at NOW, all cut by the watchdog 5 s later.
      await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          store.recordFailure("openai:a", failure("timeout", { model: "gpt-4o", now: NOW + 5 * SECOND + index, attemptStartedAt: NOW })),
        ),
      );
      const stats = await store.getUsageStats("openai:a");
      expect(stats?.errorCount).toBe(1);
      expect(stats?.failureCounts).toEqual({ timeout: 10 });
      const opened = stats?.lastFailureAt ?? 0;
      expect(opened).toBeGreaterThanOrEqual(NOW + 5 * SECOND);
      expect(opened).toBeLessThanOrEqual(NOW + 5 * SECOND + 9);
      // The first step of the timeout ladder (10 s), not the top.
      expect(stats?.cooldownUntil).toBe(opened + 10 * SECOND);
      // An attempt that started after the window opened is a new incident and climbs.
      const next = await store.recordFailure(
        "openai:a",
        failure("timeout", { model: "gpt-4o", now: opened + 8 * SECOND, attemptStartedAt: opened + 3 * SECOND }),
      );
      expect(next.errorCount).toBe(2);
      expect(next.cooldownUntil).toBe(opened + 8 * SECOND + 20 * SECOND);
    });

    it("R-CD-6: a stated reset that ran out is trusted once; the refusal right after it gets the ladder step", async () => {
      await store.recordFailure("openai:a", failure("rate_limit", { resetAt: NOW + SECOND }));
      await store.clearExpired("openai:a", NOW + 2 * SECOND);
      const again = await store.recordFailure("openai:a", failure("rate_limit", { now: NOW + 2 * SECOND, resetAt: NOW + 3 * SECOND }));
      expect(again.blockedUntil).toBe(NOW + 3 * SECOND);
      expect(again.cooldownUntil).toBe(NOW + 2 * SECOND + 60 * SECOND);
      const waited = await store.recordFailure("openai:b", failure("rate_limit", { resetAt: NOW + SECOND, afterStatedWait: true }));
      expect(waited.cooldownUntil).toBe(NOW + 30 * SECOND);
    });

    it("R-SB-2: concurrent failures on one profile all count", async () => {
      await Promise.all(
        Array.from({ length: 40 }, (_, index) => store.recordFailure("openai:a", failure("overloaded", { now: NOW + index }))),
      );
      const stats = await store.getUsageStats("openai:a");
      expect(stats?.errorCount).toBe(40);
      expect(stats?.failureCounts?.overloaded).toBe(40);
    });
  });
}
