/** Contract part: session merges and per-field compare-and-set (R-SO-1…R-SO-3, R-SB-2), probe throttle (R-FB-4). */
import { beforeEach, describe, expect, it } from "vitest";
import type { SessionEntry } from "../../../core/types.js";
import type { StateStore } from "../../../ports/state-store.js";
import { type ContractContext, SECOND, NOW } from "./fixtures.js";
import { sessionGroupsContract } from "./session-groups.js";
import { sessionRetentionContract } from "./session-retention.js";

export function sessionsContract(context: ContractContext): void {
  describe("sessions", () => {
    let store: StateStore;
    beforeEach(() => {
      store = context.store();
    });
    it("R-SO-1: patchSession creates, merges and deletes fields with undefined", async () => {
      expect(await store.getSession("s1")).toBeUndefined();
      const created = await store.patchSession("s1", {
        providerOverride: "anthropic",
        modelOverride: "claude-sonnet-4-6",
        modelOverrideSource: "user",
        compactionCount: 2,
      });
      expect(created).toEqual({
        sessionKey: "s1",
        providerOverride: "anthropic",
        modelOverride: "claude-sonnet-4-6",
        modelOverrideSource: "user",
        compactionCount: 2,
      });
      const merged = await store.patchSession("s1", {
        modelOverrideSource: undefined,
        authProfileOverride: "anthropic:ada@example.com",
        pendingLiveSwitch: true,
        fallbackProbeAnchorAt: NOW,
      });
      expect(merged).toEqual({
        sessionKey: "s1",
        providerOverride: "anthropic",
        modelOverride: "claude-sonnet-4-6",
        compactionCount: 2,
        authProfileOverride: "anthropic:ada@example.com",
        pendingLiveSwitch: true,
        fallbackProbeAnchorAt: NOW,
      });
      expect(await store.getSession("s1")).toEqual(merged);
    });

    it("R-SO-2: compare-and-set writes the fields whose expectation holds and leaves the others", async () => {
      await store.patchSession("s1", { modelOverride: "gpt-4o", providerOverride: "openai", pendingLiveSwitch: true });
      const result = await store.compareAndSetSession("s1", [
        { field: "modelOverride", expected: "gpt-4o", value: "claude-sonnet-4-6" },
        { field: "pendingLiveSwitch", expected: false, value: undefined },
        { field: "providerOverride", expected: "openai", value: "anthropic" },
        { field: "compactionCount", expected: undefined, value: 1 },
      ]);
      expect(result.applied.sort()).toEqual(["compactionCount", "modelOverride", "providerOverride"]);
      expect(result.conflicted).toEqual(["pendingLiveSwitch"]);
      const expected: SessionEntry = {
        sessionKey: "s1",
        modelOverride: "claude-sonnet-4-6",
        providerOverride: "anthropic",
        pendingLiveSwitch: true,
        compactionCount: 1,
      };
      expect(result.entry).toEqual(expected);
      expect(await store.getSession("s1")).toEqual(expected);
    });

    it("R-SO-2: a rollback leaves alone a field someone changed meanwhile (manual /model)", async () => {
      await store.patchSession("s1", { modelOverride: "claude-sonnet-4-6", modelOverrideSource: "auto" });
      // Another writer (the user) switches model while the runner's fallback attempt runs.
      await store.patchSession("s1", { modelOverride: "gpt-5", modelOverrideSource: "user" });
      const rollback = await store.compareAndSetSession("s1", [
        { field: "modelOverride", expected: "claude-sonnet-4-6", value: undefined },
        { field: "modelOverrideSource", expected: "auto", value: undefined },
      ]);
      expect(rollback.applied).toEqual([]);
      expect(rollback.conflicted.sort()).toEqual(["modelOverride", "modelOverrideSource"]);
      expect(await store.getSession("s1")).toEqual({
        sessionKey: "s1",
        modelOverride: "gpt-5",
        modelOverrideSource: "user",
      });
    });

    it("R-PO-5 the pins parked per provider round-trip and are compared and set with the auth pin, as one group", async () => {
      // A session written before parked pins existed: its pin alone.
      await store.patchSession("s-pins", {
        authProfileOverride: "openai:a",
        authProfileOverrideSource: "auto",
        authProfileOverrideCompactionCount: 0,
      });
      const old = (await store.getSession("s-pins")) as SessionEntry;
      expect(old.authProfilePinsByProvider).toBeUndefined();
      const parked = { openai: { profileId: "openai:a", source: "auto" as const, compactionCount: 0 } };
      const swapped = await store.compareAndSetSession("s-pins", [
        { field: "authProfileOverride", expected: "openai:a", value: "anthropic:x" },
        { field: "authProfileOverrideSource", expected: "auto", value: "auto" },
        { field: "authProfileOverrideCompactionCount", expected: 0, value: 0 },
        { field: "authProfilePinsByProvider", expected: undefined, value: parked },
      ]);
      expect(swapped.conflicted).toEqual([]);
      const read = (await store.getSession("s-pins")) as SessionEntry;
      expect(read.authProfileOverride).toBe("anthropic:x");
      expect(read.authProfilePinsByProvider).toEqual(parked);

      // A writer that read another map loses the whole group; the one that read this map wins it.
      const stale = await store.compareAndSetSession("s-pins", [
        { field: "authProfileOverride", expected: "anthropic:x", value: "openai:a" },
        { field: "authProfilePinsByProvider", expected: { openai: { profileId: "openai:b", source: "auto" } }, value: undefined },
      ]);
      expect(stale.applied).toEqual([]);
      expect((await store.getSession("s-pins"))?.authProfileOverride).toBe("anthropic:x");
      const back = await store.compareAndSetSession("s-pins", [
        { field: "authProfileOverride", expected: "anthropic:x", value: "openai:a" },
        {
          field: "authProfilePinsByProvider",
          expected: read.authProfilePinsByProvider,
          value: { anthropic: { profileId: "anthropic:x", source: "auto" } },
        },
      ]);
      expect(back.conflicted).toEqual([]);
      expect((await store.getSession("s-pins"))?.authProfilePinsByProvider).toEqual({
        anthropic: { profileId: "anthropic:x", source: "auto" },
      });
    });

    it("R-SO-2: numbers and booleans compare by value", async () => {
      await store.patchSession("s1", { authProfileOverrideCompactionCount: 3, pendingLiveSwitch: false });
      const result = await store.compareAndSetSession("s1", [
        { field: "authProfileOverrideCompactionCount", expected: 3, value: 4 },
        { field: "pendingLiveSwitch", expected: true, value: undefined },
      ]);
      expect(result.applied).toEqual(["authProfileOverrideCompactionCount"]);
      expect(result.conflicted).toEqual(["pendingLiveSwitch"]);
      expect(await store.getSession("s1")).toEqual({
        sessionKey: "s1",
        authProfileOverrideCompactionCount: 4,
        pendingLiveSwitch: false,
      });
    });

    it("R-SO-2: a compare-and-set on a missing session creates it only when a write applies", async () => {
      const conflicted = await store.compareAndSetSession("s-none", [{ field: "modelOverride", expected: "gpt-4o", value: undefined }]);
      expect(conflicted).toEqual({ applied: [], conflicted: ["modelOverride"], entry: { sessionKey: "s-none" } });
      expect(await store.getSession("s-none")).toBeUndefined();
      const created = await store.compareAndSetSession("s-new", [{ field: "modelOverride", expected: undefined, value: "gpt-4o" }]);
      expect(created.applied).toEqual(["modelOverride"]);
      expect(await store.getSession("s-new")).toEqual({ sessionKey: "s-new", modelOverride: "gpt-4o" });
    });

    it("R-SO-2: compare-and-set refuses to rewrite sessionKey", async () => {
      await expect(store.compareAndSetSession("s1", [{ field: "sessionKey", expected: undefined, value: "other" }])).rejects.toThrow(
        TypeError,
      );
    });

    it("R-SB-2: of two concurrent compare-and-sets expecting the same value, exactly one applies", async () => {
      await store.patchSession("s1", { modelOverride: "gpt-4o" });
      const results = await Promise.all(
        ["a", "b", "c", "d"].map((suffix) =>
          store.compareAndSetSession("s1", [{ field: "modelOverride", expected: "gpt-4o", value: `m-${suffix}` }]),
        ),
      );
      expect(results.filter((result) => result.applied.length === 1)).toHaveLength(1);
      const winner = results.find((result) => result.applied.length === 1);
      expect(await store.getSession("s1")).toEqual(winner?.entry);
    });

    it("R-SO-3: sessions are listed and deleted", async () => {
      await store.patchSession("s1", { modelOverride: "a" });
      await store.patchSession("s2", { modelOverride: "b" });
      expect((await store.listSessions()).map((entry) => entry.sessionKey).sort()).toEqual(["s1", "s2"]);
      expect(await store.deleteSession("s1")).toBe(true);
      expect(await store.deleteSession("s1")).toBe(false);
      expect(await store.getSession("s1")).toBeUndefined();
      expect(await store.listSessions()).toEqual([{ sessionKey: "s2", modelOverride: "b", updatedAt: expect.any(Number) }]);
    });

    it("R-GW-8: listed sessions say when they were last written (updatedAt), a write moving it forward", async () => {
      const before = Date.now();
      await store.patchSession("s1", { modelOverride: "a" });
      await store.compareAndSetSession("s2", [{ field: "modelOverride", expected: undefined, value: "b" }]);
      const first = new Map((await store.listSessions()).map((entry) => [entry.sessionKey, entry.updatedAt]));
      expect(first.get("s1")).toBeGreaterThanOrEqual(before);
      expect(first.get("s2")).toBeGreaterThanOrEqual(first.get("s1")!);
      await new Promise((done) => setTimeout(done, 5));
      await store.patchSession("s1", { modelOverride: "a2" });
      const second = new Map((await store.listSessions()).map((entry) => [entry.sessionKey, entry.updatedAt]));
      expect(second.get("s1")).toBeGreaterThan(first.get("s1")!);
      expect(second.get("s2")).toBe(first.get("s2"));
    });
  });

  sessionGroupsContract(context);
  sessionRetentionContract(context);

  describe("probe throttle", () => {
    let store: StateStore;
    beforeEach(() => {
      store = context.store();
    });
    it("R-FB-4: one probe per key per interval, counted from the last claim", async () => {
      expect(await store.getLastProbeAt("main:openai")).toBeUndefined();
      expect(await store.tryClaimProbe("main:openai", NOW, 30 * SECOND)).toBe(true);
      expect(await store.getLastProbeAt("main:openai")).toBe(NOW);
      expect(await store.tryClaimProbe("main:openai", NOW + 29 * SECOND, 30 * SECOND)).toBe(false);
      expect(await store.getLastProbeAt("main:openai")).toBe(NOW);
      expect(await store.tryClaimProbe("main:anthropic", NOW + 1, 30 * SECOND)).toBe(true);
      expect(await store.tryClaimProbe("main:openai", NOW + 30 * SECOND, 30 * SECOND)).toBe(true);
      expect(await store.getLastProbeAt("main:openai")).toBe(NOW + 30 * SECOND);
    });

    it("R-FB-4: of concurrent claims for one key, exactly one wins", async () => {
      const claims = await Promise.all(Array.from({ length: 8 }, () => store.tryClaimProbe("main:google", NOW, 30 * SECOND)));
      expect(claims.filter(Boolean)).toHaveLength(1);
    });
  });
}
