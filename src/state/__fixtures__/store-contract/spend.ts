/** Contract part: spend per profile (R-GW-7) — hourly buckets, the last 24 hours counted, shared by replicas. */
import { beforeEach, describe, expect, it } from "vitest";
import { SPEND_BUCKETS_KEPT } from "../../../core/spend.js";
import type { StateStore } from "../../../ports/state-store.js";
import type { ContractCapabilities } from "./index.js";
import { type ContractContext, HOUR, MINUTE, NOW } from "./fixtures.js";

export function spendContract(context: ContractContext, capabilities: ContractCapabilities): void {
  describe("spend", () => {
    let store: StateStore;
    beforeEach(() => {
      store = context.store();
    });

    it("R-GW-7: adds what each answer cost per profile, within the hour and across hours", async () => {
      expect(await store.spendByProfile(NOW)).toEqual({});
      await store.recordSpend("openai:a", 0.25, NOW);
      await store.recordSpend("openai:a", 0.5, NOW + 10 * MINUTE);
      await store.recordSpend("openai:a", 1, NOW + 2 * HOUR);
      await store.recordSpend("anthropic:b", 0.125, NOW + HOUR);
      const spend = await store.spendByProfile(NOW + 2 * HOUR);
      expect(Object.keys(spend).sort()).toEqual(["anthropic:b", "openai:a"]);
      expect(spend["openai:a"]).toBeCloseTo(1.75, 9);
      expect(spend["anthropic:b"]).toBeCloseTo(0.125, 9);
    });

    it("R-GW-7: only the last 24 hour buckets count, and nothing that is not a positive cost is kept", async () => {
      await store.recordSpend("openai:a", 2, NOW);
      await store.recordSpend("openai:a", 3, NOW + HOUR);
      await store.recordSpend("openai:a", 0, NOW + HOUR);
      await store.recordSpend("openai:a", -5, NOW + HOUR);
      await store.recordSpend("openai:a", Number.NaN, NOW + HOUR);
      await store.recordSpend("openai:zero", 0, NOW + HOUR);
      // The bucket of NOW is the 24th counted one until the hour of NOW + 24 h begins.
      const lastCounted = NOW + (SPEND_BUCKETS_KEPT - 1) * HOUR + 59 * MINUTE;
      expect((await store.spendByProfile(lastCounted))["openai:a"]).toBeCloseTo(5, 9);
      expect((await store.spendByProfile(NOW + SPEND_BUCKETS_KEPT * HOUR))["openai:a"]).toBeCloseTo(3, 9);
      expect(await store.spendByProfile(NOW + (SPEND_BUCKETS_KEPT + 1) * HOUR)).toEqual({});
      expect((await store.spendByProfile(NOW + HOUR))["openai:zero"]).toBeUndefined();
    });

    it("R-GW-7: a profile keeps at most 24 buckets however long it is charged", async () => {
      for (let hour = 0; hour < 3 * SPEND_BUCKETS_KEPT; hour += 1) await store.recordSpend("openai:a", 1, NOW + hour * HOUR);
      const now = NOW + (3 * SPEND_BUCKETS_KEPT - 1) * HOUR;
      expect((await store.spendByProfile(now))["openai:a"]).toBeCloseTo(SPEND_BUCKETS_KEPT, 9);
    });

    if (capabilities.sharedState) {
      it("R-GW-7: spend charged through two handles at once all counts (replicas share it)", async () => {
        const other = await context.sibling();
        await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? store : other).recordSpend("openai:a", 0.5, NOW)));
        expect((await other.spendByProfile(NOW))["openai:a"]).toBeCloseTo(10, 9);
        expect((await store.spendByProfile(NOW))["openai:a"]).toBeCloseTo(10, 9);
      });
    }
  });
}
