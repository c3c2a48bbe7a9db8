/**
 * Spend per profile and hour in process memory (R-GW-7): at most 24 buckets per profile (core/spend.ts), and
 * at most MAX_SPEND_PROFILES profiles — the least recently charged is forgotten first — so a long-running
 * process stays bounded whatever ids it is given.
 */
import { isCountedSpendHour, isRecordableCost, oldestSpendHour, spendHourOf } from "../../core/spend.js";
import { BoundedRecencyMap } from "./bounded-recency-map.js";

export const MAX_SPEND_PROFILES = 4096;

export class MemorySpendBuckets {
  /** profile id → hour → dollars. */
  readonly #profiles = new BoundedRecencyMap<string, Map<number, number>>(MAX_SPEND_PROFILES);

  record(profileId: string, costUsd: number, now: number): void {
    if (!isRecordableCost(costUsd)) return;
    const hours = this.#profiles.get(profileId) ?? new Map<number, number>();
    const hour = spendHourOf(now);
    hours.set(hour, (hours.get(hour) ?? 0) + costUsd);
    const oldest = oldestSpendHour(now);
    for (const kept of hours.keys()) if (kept < oldest) hours.delete(kept);
    this.#profiles.set(profileId, hours);
  }

  byProfile(now: number): Record<string, number> {
    const totals: Record<string, number> = {};
    for (const profileId of this.#profiles.keys()) {
      let total = 0;
      for (const [hour, costUsd] of this.#profiles.get(profileId) ?? []) if (isCountedSpendHour(hour, now)) total += costUsd;
      if (total > 0) totals[profileId] = total;
    }
    return totals;
  }

  forget(profileId: string): void {
    this.#profiles.delete(profileId);
  }
}
