/**
 * The usage-stats facet (R-AP-4, §5). Every update applies the pure core math (`core/cooldown.ts`) inside
 * one transaction / server-side script, atomic with respect to other processes sharing the store.
 */
import type { RecordFailureParams } from "../../core/cooldown.js";
import type { UsageStats } from "../../core/types.js";

/** One shape for a failure, from the runner through the store to the cooldown math. */
export type { RecordFailureParams } from "../../core/cooldown.js";

export interface UsageStatsStore {
  getUsageStats(profileId: string): Promise<UsageStats | undefined>;
  getAllUsageStats(): Promise<Record<string, UsageStats>>;
  /** Atomically applies `core/cooldown.recordFailure` and returns the stats it wrote. */
  recordFailure(profileId: string, params: RecordFailureParams): Promise<UsageStats>;
  /** Atomically applies `core/cooldown.recordSuccess` and sets `lastGood[provider]` (R-CD-7). */
  recordSuccess(profileId: string, params: { provider: string; now: number }): Promise<UsageStats>;
  /** Updates only `lastUsed` (R-CD-7 `markUsed`). May be batched; never loses a window. */
  markUsed(profileId: string, now: number): Promise<void>;
  /** Atomically clears windows that have ended (R-PO-4); returns the stats after clearing. */
  clearExpired(profileId: string, now: number): Promise<UsageStats | undefined>;
  /** Clears every window and counter of a profile (R-CD-8). */
  resetUsageStats(profileId: string): Promise<void>;
  /**
   * Writes a profile's stats verbatim (`undefined` deletes them), bypassing the cooldown math. Only for the
   * legacy import (R-AP-6) and for re-seeding a Redis that lost its data (R-SB-3); the runner never calls it.
   */
  replaceUsageStats(profileId: string, stats: UsageStats | undefined): Promise<void>;
}
