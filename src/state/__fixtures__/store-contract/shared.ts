/** Contract part for backends shared by several processes or replicas (R-SB-1…R-SB-3). */
import { beforeEach, describe, expect, it } from "vitest";
import type { UsageStats } from "../../../core/types.js";
import type { StateStore } from "../../../ports/state-store.js";
import { type ContractContext, HOUR, SECOND, NOW, oauth, failure } from "./fixtures.js";

export function sharedStateContract(context: ContractContext): void {
  describe("shared by several processes or replicas", () => {
    let store: StateStore;
    beforeEach(() => {
      store = context.store();
    });
    const sibling = () => context.sibling();
    it("R-SB-1: a second handle sees profiles, order, lastGood, stats, sessions and probe claims", async () => {
      const other = await sibling();
      await store.upsertProfile({ id: "anthropic:ada@example.com", credential: oauth });
      await store.setStoredOrder("anthropic", ["anthropic:ada@example.com"]);
      await store.recordSuccess("anthropic:ada@example.com", { provider: "anthropic", now: NOW });
      await store.recordFailure("openai:a", failure("rate_limit"));
      await store.patchSession("s1", { modelOverride: "gpt-4o" });
      expect(await store.tryClaimProbe("main:openai", NOW, 30 * SECOND)).toBe(true);
      expect((await other.getProfile("anthropic:ada@example.com"))?.credential).toEqual(oauth);
      expect(await other.getStoredOrder("anthropic")).toEqual(["anthropic:ada@example.com"]);
      expect(await other.getLastGood("anthropic")).toBe("anthropic:ada@example.com");
      expect(await other.getUsageStats("openai:a")).toEqual(await store.getUsageStats("openai:a"));
      expect(await other.getSession("s1")).toEqual({ sessionKey: "s1", modelOverride: "gpt-4o" });
      expect(await other.tryClaimProbe("main:openai", NOW + 1, 30 * SECOND)).toBe(false);
    });

    it("R-SB-1: a handle that already read sees another handle's later writes on its next read", async () => {
      const other = await sibling();
      await store.upsertProfile({ id: "openai:a", credential: { type: "api_key", provider: "openai", key: "sk-1" } });
      await store.setStoredOrder("openai", ["openai:a"]);
      await store.recordSuccess("openai:a", { provider: "openai", now: NOW });
      // Everything a run reads is read (and may be cached) by `other` before the writes below.
      await other.listProfiles();
      await other.getStoredOrder("openai");
      await other.getAllUsageStats();
      await other.getLastGood("openai");
      await other.getSession("s1");
      await store.upsertProfile({ id: "openai:b", credential: { type: "api_key", provider: "openai", key: "sk-2" } });
      await store.setStoredOrder("openai", ["openai:b", "openai:a"]);
      await store.recordFailure("openai:a", failure("billing"));
      await store.recordSuccess("openai:b", { provider: "openai", now: NOW + 1 });
      await store.patchSession("s1", { authProfileOverride: "openai:b", authProfileOverrideSource: "user" });
      expect((await other.listProfiles()).map((profile) => profile.id).sort()).toEqual(["openai:a", "openai:b"]);
      expect(await other.getStoredOrder("openai")).toEqual(["openai:b", "openai:a"]);
      expect((await other.getAllUsageStats())["openai:a"]?.disabledReason).toBe("billing");
      expect(await other.getLastGood("openai")).toBe("openai:b");
      expect((await other.getSession("s1"))?.authProfileOverride).toBe("openai:b");
    });

    it("R-SB-2: failures recorded through two handles at the same moment both count", async () => {
      const other = await sibling();
      await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          (index % 2 === 0 ? store : other).recordFailure("openai:a", failure("overloaded", { now: NOW + index })),
        ),
      );
      expect((await other.getUsageStats("openai:a"))?.errorCount).toBe(20);
    });

    it("R-SB-2: a success racing another handle's failure ends as one of the two orders, never a mix", async () => {
      const other = await sibling();
      const withoutLastUsed = (stats: UsageStats | undefined) => {
        const { lastUsed: _lastUsed, ...rest } = stats ?? {};
        return rest;
      };
      for (let round = 0; round < 20; round += 1) {
        const now = NOW + round * HOUR;
        // Healthy, and seen healthy by `store`: what a success fast path starts from.
        await store.recordSuccess("openai:a", { provider: "openai", now });
        await store.getUsageStats("openai:a");
        const [succeeded, failed] = await Promise.all([
          store.recordSuccess("openai:a", { provider: "openai", now: now + 2 * SECOND }),
          other.recordFailure("openai:a", failure("overloaded", { now: now + SECOND })),
        ]);
        expect(succeeded.errorCount).toBe(0);
        expect(failed.errorCount).toBe(1);
        const stored = await other.getUsageStats("openai:a");
        // Failure last: the failure's result stands. Success last: every failure and window is forgotten.
        const last = stored?.errorCount === 0 ? succeeded : failed;
        expect(withoutLastUsed(stored)).toEqual(withoutLastUsed(last));
        expect(await store.getLastGood("openai")).toBe("openai:a");
      }
      // A later success through the handle that raced always sees the failure and forgets it.
      await other.recordFailure("openai:a", failure("overloaded", { now: NOW + 30 * HOUR }));
      const healed = await store.recordSuccess("openai:a", { provider: "openai", now: NOW + 30 * HOUR + SECOND });
      expect(healed.errorCount).toBe(0);
      expect(withoutLastUsed(await other.getUsageStats("openai:a"))).toEqual(withoutLastUsed(healed));
    });

    it("R-CD-1: one incident seen through two handles at once is still one ladder step", async () => {
      const other = await sibling();
      await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          (index % 2 === 0 ? store : other).recordFailure(
            "openai:a",
            failure("overloaded", { now: NOW + SECOND + index, attemptStartedAt: NOW }),
          ),
        ),
      );
      const stats = await other.getUsageStats("openai:a");
      expect(stats?.errorCount).toBe(1);
      expect(stats?.failureCounts?.overloaded).toBe(10);
      expect(stats?.cooldownUntil).toBe((stats?.lastFailureAt ?? 0) + 30 * SECOND);
    });

    it("R-SB-2: a session compare-and-set through two handles loses no concurrent change", async () => {
      const other = await sibling();
      await store.patchSession("s1", { modelOverride: "gpt-4o", authProfileOverride: "openai:a" });
      const [first, second] = await Promise.all([
        store.compareAndSetSession("s1", [{ field: "modelOverride", expected: "gpt-4o", value: "from-store" }]),
        other.compareAndSetSession("s1", [
          { field: "modelOverride", expected: "gpt-4o", value: "from-other" },
          { field: "authProfileOverride", expected: "openai:a", value: "openai:b" },
        ]),
      ]);
      expect(first.applied.length + second.applied.filter((field) => field === "modelOverride").length).toBe(1);
      const entry = await store.getSession("s1");
      expect(entry?.authProfileOverride).toBe("openai:b");
      expect(["from-store", "from-other"]).toContain(entry?.modelOverride);
    });

    it("R-SB-3: acknowledged updates survive closing and reopening", async () => {
      await store.recordFailure("openai:a", failure("billing"));
      await store.recordSuccess("openai:b", { provider: "openai", now: NOW });
      await store.markUsed("openai:b", NOW + 7);
      await store.patchSession("s1", { authProfileOverride: "openai:b", authProfileOverrideSource: "user" });
      await store.close();
      const reopened = await sibling();
      expect((await reopened.getUsageStats("openai:a"))?.disabledReason).toBe("billing");
      expect((await reopened.getUsageStats("openai:b"))?.lastUsed).toBe(NOW + 7);
      expect(await reopened.getSession("s1")).toEqual({
        sessionKey: "s1",
        authProfileOverride: "openai:b",
        authProfileOverrideSource: "user",
      });
    });
  });
}
