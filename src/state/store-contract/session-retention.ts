/** Contract part: idle sessions are pruned, bounded per call (R-GW-8), and the store reports it answers (R-SB-5). */
import { setTimeout as sleep } from "node:timers/promises";
import { beforeEach, describe, expect, it } from "vitest";
import type { StateStore } from "../../ports/state-store.js";
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

    it("R-SB-5: checkAvailable resolves while the backend answers", async () => {
      await expect(store.checkAvailable()).resolves.toBeUndefined();
    });
  });
}
