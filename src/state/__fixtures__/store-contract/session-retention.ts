/** Contract part: idle sessions are pruned, bounded per call (R-GW-8), and the store reports it answers (R-SB-5). */
import { setTimeout as sleep } from "node:timers/promises";
import { beforeEach, describe, expect, it } from "vitest";
import type { StateStore } from "../../../ports/state-store.js";
import type { ContractContext } from "./fixtures.js";

/** A moment strictly after every write so far and strictly before every later one. */
async function boundary(): Promise<number> {
  await sleep(3);
  const at = Date.now();
  await sleep(3);
  return at;
}

export function sessionRetentionContract(context: ContractContext): void {
  describe("session retention", () => {
    let store: StateStore;
    beforeEach(() => {
      store = context.store();
    });

    it("R-GW-8: pruneSessions removes the sessions not written since the cutoff and keeps the others", async () => {
      await store.patchSession("old-1", { modelOverride: "a" });
      await store.compareAndSetSession("old-2", [{ field: "modelOverride", expected: undefined, value: "b" }]);
      await store.patchSession("refreshed", { modelOverride: "c" });
      const cutoff = await boundary();
      await store.patchSession("refreshed", { modelOverride: "c2" });
      await store.patchSession("new", { modelOverride: "d" });
      expect((await store.pruneSessions({ idleSince: cutoff })).sort()).toEqual(["old-1", "old-2"]);
      expect((await store.listSessions()).map((entry) => entry.sessionKey).sort()).toEqual(["new", "refreshed"]);
      expect(await store.pruneSessions({ idleSince: cutoff })).toEqual([]);
    });

    it("R-GW-8: a compare-and-set that applied nothing does not refresh a session", async () => {
      await store.patchSession("s1", { modelOverride: "a" });
      const cutoff = await boundary();
      const result = await store.compareAndSetSession("s1", [{ field: "modelOverride", expected: "other", value: "b" }]);
      expect(result.applied).toEqual([]);
      expect(await store.pruneSessions({ idleSince: cutoff })).toEqual(["s1"]);
    });

    it("R-GW-8: pruning is bounded by its limit, oldest first", async () => {
      for (const key of ["k1", "k2", "k3"]) {
        await store.patchSession(key, { modelOverride: key });
        await sleep(2);
      }
      const cutoff = await boundary();
      expect(await store.pruneSessions({ idleSince: cutoff, limit: 2 })).toEqual(["k1", "k2"]);
      expect(await store.pruneSessions({ idleSince: cutoff, limit: 0 })).toEqual([]);
      expect((await store.listSessions()).map((entry) => entry.sessionKey)).toEqual(["k3"]);
    });

    it("R-GW-8: a deleted session is gone from pruning too", async () => {
      await store.patchSession("s1", { modelOverride: "a" });
      expect(await store.deleteSession("s1")).toBe(true);
      const cutoff = await boundary();
      expect(await store.pruneSessions({ idleSince: cutoff })).toEqual([]);
    });

    it("R-GW-8: evicting past sessions.maxCount keeps exactly the most recently used sessions", async () => {
      const keys = Array.from({ length: 12 }, (_, index) => `s${index}`);
      for (const key of keys) {
        await store.patchSession(key, { modelOverride: key });
        await sleep(2);
      }
      // s0 is used again: now the most recent, so s1 and s2 are the least recently used.
      await store.compareAndSetSession("s0", [{ field: "modelOverride", expected: "s0", value: "s0-again" }]);
      expect(await store.countSessions()).toBe(12);
      expect(await store.evictSessions({ maxCount: 10 })).toEqual(["s1", "s2"]);
      expect(await store.countSessions()).toBe(10);
      expect((await store.listSessions()).map((entry) => entry.sessionKey).sort()).toEqual(["s0", ...keys.slice(3)].sort());
      expect(await store.getSession("s1")).toBeUndefined();
      expect(await store.evictSessions({ maxCount: 10 })).toEqual([]);
    });

    it("R-GW-8: eviction is bounded by its limit, least recently used first", async () => {
      for (const key of ["k1", "k2", "k3", "k4"]) {
        await store.patchSession(key, { modelOverride: key });
        await sleep(2);
      }
      expect(await store.evictSessions({ maxCount: 1, limit: 2 })).toEqual(["k1", "k2"]);
      expect(await store.evictSessions({ maxCount: 1, limit: 0 })).toEqual([]);
      expect(await store.evictSessions({ maxCount: 1 })).toEqual(["k3"]);
      expect((await store.listSessions()).map((entry) => entry.sessionKey)).toEqual(["k4"]);
      expect(await store.countSessions()).toBe(1);
    });

    it("R-SB-5: checkAvailable resolves while the backend answers", async () => {
      await expect(store.checkAvailable()).resolves.toBeUndefined();
    });
  });
}
