/** The memory store's spend facet (R-GW-7). */
import type { SpendStore } from "../../ports/state-store.js";
import { MemorySpendBuckets } from "./spend-buckets.js";

export class MemorySpend implements SpendStore {
  readonly #spend = new MemorySpendBuckets();

  /** Drops a removed profile's buckets. */
  forget(profileId: string): void {
    this.#spend.forget(profileId);
  }

  async recordSpend(profileId: string, costUsd: number, now: number): Promise<void> {
    this.#spend.record(profileId, costUsd, now);
  }

  async spendByProfile(now: number): Promise<Record<string, number>> {
    return this.#spend.byProfile(now);
  }
}
