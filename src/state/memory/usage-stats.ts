/** The memory store's usage-stats facet: the core cooldown math applied between two awaits (§5). */
import {
  clearExpired as clearExpiredWindows,
  markUsed as markUsedStats,
  recordFailure as statsAfterFailure,
  recordSuccess as recordSuccessStats,
  resetUsageStats as emptyUsageStats,
} from "../../core/cooldown.js";
import type { UsageStats } from "../../core/types.js";
import type { RecordFailureParams, UsageStatsStore } from "../../ports/state-store.js";
import { clone } from "./clone.js";

export class MemoryUsageStats implements UsageStatsStore {
  readonly #usageStats = new Map<string, UsageStats>();
  readonly #changed: () => void;
  /** A success also makes its profile the provider's lastGood (R-CD-7). */
  readonly #noteLastGood: (provider: string, profileId: string) => void;

  constructor(changed: () => void, noteLastGood: (provider: string, profileId: string) => void) {
    this.#changed = changed;
    this.#noteLastGood = noteLastGood;
  }

  /** Drops a removed profile's stats. */
  forget(profileId: string): void {
    this.#usageStats.delete(profileId);
  }

  async getUsageStats(profileId: string): Promise<UsageStats | undefined> {
    const stats = this.#usageStats.get(profileId);
    return stats ? clone(stats) : undefined;
  }

  async getAllUsageStats(): Promise<Record<string, UsageStats>> {
    return Object.fromEntries([...this.#usageStats].map(([id, stats]) => [id, clone(stats)]));
  }

  async recordFailure(profileId: string, params: RecordFailureParams): Promise<UsageStats> {
    this.#changed();
    const next = statsAfterFailure(this.#usageStats.get(profileId), params);
    this.#usageStats.set(profileId, clone(next));
    return clone(next);
  }

  async recordSuccess(profileId: string, params: { provider: string; now: number }): Promise<UsageStats> {
    this.#changed();
    const next = recordSuccessStats(this.#usageStats.get(profileId), { now: params.now });
    this.#usageStats.set(profileId, clone(next));
    this.#noteLastGood(params.provider, profileId);
    return clone(next);
  }

  async markUsed(profileId: string, now: number): Promise<void> {
    this.#changed();
    this.#usageStats.set(profileId, clone(markUsedStats(this.#usageStats.get(profileId), { now })));
  }

  async clearExpired(profileId: string, now: number): Promise<UsageStats | undefined> {
    this.#changed();
    const stats = this.#usageStats.get(profileId);
    if (!stats) return undefined;
    const cleared = clearExpiredWindows(stats, now);
    this.#usageStats.set(profileId, clone(cleared));
    return clone(cleared);
  }

  async resetUsageStats(profileId: string): Promise<void> {
    this.#changed();
    if (!this.#usageStats.has(profileId)) return;
    this.#usageStats.set(profileId, emptyUsageStats());
  }

  async replaceUsageStats(profileId: string, stats: UsageStats | undefined): Promise<void> {
    this.#changed();
    if (stats === undefined) this.#usageStats.delete(profileId);
    else this.#usageStats.set(profileId, clone(stats));
  }
}
