/** Contract part: headroom readings (R-PO-7) — latest per slot, stale ignored, bounded, shared by replicas. */
import { beforeEach, describe, expect, it } from "vitest";
import { MAX_HEADROOM_MODELS_PER_PROFILE, type HeadroomReading } from "../../../core/headroom/reading.js";
import type { StateStore } from "../../../ports/state-store.js";
import type { ContractCapabilities } from "./index.js";
import { type ContractContext, MINUTE, NOW, SECOND } from "./fixtures.js";

function reading(overrides: Partial<HeadroomReading> = {}): HeadroomReading {
  return {
    window: "requests",
    family: "openai",
    model: "gpt-4o",
    remainingShare: 0.5,
    limit: 10,
    remaining: 5,
    resetAt: NOW + MINUTE,
    readAt: NOW,
    ...overrides,
  };
}

export function headroomContract(context: ContractContext, capabilities: ContractCapabilities): void {
  describe("headroom readings", () => {
    let store: StateStore;
    beforeEach(() => {
      store = context.store();
    });

    it("R-PO-7: keeps the latest reading per profile, model and window and returns it unchanged", async () => {
      const unified = reading({ window: "unified-5h", family: "anthropic-unified", model: undefined, status: "allowed" });
      delete unified.limit;
      delete unified.remaining;
      await store.recordHeadroom("openai:a", [reading(), unified], NOW);
      await store.recordHeadroom("openai:a", [reading({ remaining: 2, remainingShare: 0.2, readAt: NOW + SECOND })], NOW + SECOND);
      await store.recordHeadroom("openai:b", [reading({ model: "gpt-4o-mini" })], NOW);
      const found = await store.headroomReadings(["openai:a", "openai:b", "openai:none"], NOW + 2 * SECOND);
      expect(Object.keys(found).sort()).toEqual(["openai:a", "openai:b"]);
      const a = [...(found["openai:a"] ?? [])].sort((x, y) => x.window.localeCompare(y.window));
      expect(a).toEqual([reading({ remaining: 2, remainingShare: 0.2, readAt: NOW + SECOND }), unified]);
      expect(found["openai:b"]).toEqual([reading({ model: "gpt-4o-mini" })]);
    });

    it("R-PO-7: a reading past its reset is never returned, and an older reading never replaces a newer one", async () => {
      await store.recordHeadroom("openai:a", [reading({ resetAt: NOW + 10 * SECOND })], NOW);
      expect(await store.headroomReadings(["openai:a"], NOW + 10 * SECOND)).toEqual({});
      await store.recordHeadroom("openai:b", [reading({ resetAt: NOW - SECOND })], NOW);
      expect(await store.headroomReadings(["openai:b"], NOW)).toEqual({});
      await store.recordHeadroom("openai:a", [reading({ readAt: NOW + 5 * SECOND, remaining: 1 })], NOW + 5 * SECOND);
      await store.recordHeadroom("openai:a", [reading({ readAt: NOW + SECOND, remaining: 9 })], NOW + 5 * SECOND);
      expect((await store.headroomReadings(["openai:a"], NOW + 6 * SECOND))["openai:a"]?.[0]?.remaining).toBe(1);
    });

    it("R-PO-7: model scopes per profile are capped, however many models requests name", async () => {
      const models = Array.from({ length: MAX_HEADROOM_MODELS_PER_PROFILE + 9 }, (_, index) => `model-${index}`);
      for (const [index, model] of models.entries()) {
        await store.recordHeadroom("openai:a", [reading({ model, readAt: NOW + index })], NOW + index);
      }
      const kept = (await store.headroomReadings(["openai:a"], NOW + models.length))["openai:a"] ?? [];
      expect(kept).toHaveLength(MAX_HEADROOM_MODELS_PER_PROFILE);
      // The most recently read models are the ones kept.
      expect(kept.map((entry) => entry.model).sort()).toEqual(models.slice(-MAX_HEADROOM_MODELS_PER_PROFILE).sort());
    });

    if (capabilities.sharedState) {
      it("R-PO-7: a reading recorded through one handle steers the other (replicas share readings)", async () => {
        const other = await context.sibling();
        expect(await other.headroomReadings(["openai:a"], NOW)).toEqual({});
        await store.recordHeadroom("openai:a", [reading({ remaining: 0, remainingShare: 0 })], NOW);
        expect((await other.headroomReadings(["openai:a"], NOW + SECOND))["openai:a"]).toEqual([
          reading({ remaining: 0, remainingShare: 0 }),
        ]);
      });
    }
  });
}
