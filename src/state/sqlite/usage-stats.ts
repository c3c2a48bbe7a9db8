/**
 * The SQLite store's usage-stats facet (§5): every read-modify-write is one `BEGIN IMMEDIATE` transaction
 * around the pure core math; a healthy profile's success only batches a newer `lastUsed` (R-SB-2).
 */
import {
  clearExpired as clearExpiredStats,
  recordFailure as statsAfterFailure,
  recordSuccess as recordSuccessStats,
  resetUsageStats as emptyUsageStats,
  successChangesOnlyLastUsed,
} from "../../core/cooldown.js";
import type { UsageStats } from "../../core/types.js";
import type { RecordFailureParams, UsageStatsStore } from "../../ports/state-store.js";
import type { LastUsedBatch } from "./last-used-batch.js";
import { copyStats } from "./read-cache.js";
import type { SqliteConnection } from "./sqlite-connection.js";
import type { StatsRow } from "./statements.js";

function statsFromRow(row: StatsRow): UsageStats {
  const stats = JSON.parse(row.stats) as UsageStats;
  if (row.last_used !== null) stats.lastUsed = row.last_used;
  return stats;
}

function withoutLastUsed(stats: UsageStats): string {
  const { lastUsed: _lastUsed, ...rest } = stats;
  return JSON.stringify(rest);
}

export class SqliteUsageStats implements UsageStatsStore {
  readonly #file: SqliteConnection;
  readonly #lastUsed: LastUsedBatch;
  /** `lastUsed` updates batched without a commit: each still changes what a decision reads (changeStamp). */
  #batchedLastUsed = 0;

  constructor(file: SqliteConnection, lastUsed: LastUsedBatch) {
    this.#file = file;
    this.#lastUsed = lastUsed;
  }

  /** How many `lastUsed` updates were batched so far (for the store's change stamp). */
  get batchedWrites(): number {
    return this.#batchedLastUsed;
  }

  /** A copy of stored stats with this process's not-yet-flushed `lastUsed` laid over it. */
  #withPendingLastUsed(profileId: string, stats: UsageStats | undefined): UsageStats | undefined {
    const pending = this.#lastUsed.pendingFor(profileId);
    if (pending === undefined) return stats && copyStats(stats);
    if (!stats) return { lastUsed: pending };
    const copy = copyStats(stats);
    if (copy.lastUsed === undefined || copy.lastUsed < pending) copy.lastUsed = pending;
    return copy;
  }

  /** Straight from the file: used inside transactions, where only the locked state counts. */
  #readStats(profileId: string): UsageStats | undefined {
    const row = this.#file.sql.getStats.get(profileId);
    return this.#withPendingLastUsed(profileId, row ? statsFromRow(row) : undefined);
  }

  #allStatsCached(): Map<string, UsageStats> {
    const cache = this.#file.cache.fresh();
    cache.allStats ??= new Map(this.#file.sql.listStats.all().map((row) => [row.profile_id, statsFromRow(row)]));
    return cache.allStats;
  }

  #statsCached(profileId: string): UsageStats | undefined {
    const cache = this.#file.cache.fresh();
    if (cache.allStats) return this.#withPendingLastUsed(profileId, cache.allStats.get(profileId));
    if (!cache.stats.has(profileId)) {
      const row = this.#file.sql.getStats.get(profileId);
      cache.stats.set(profileId, row ? statsFromRow(row) : undefined);
    }
    return this.#withPendingLastUsed(profileId, cache.stats.get(profileId));
  }

  #writeStats(profileId: string, stats: UsageStats): void {
    this.#file.sql.upsertStats.run(profileId, withoutLastUsed(stats), stats.lastUsed ?? null);
  }

  async getUsageStats(profileId: string): Promise<UsageStats | undefined> {
    return this.#statsCached(profileId);
  }

  async getAllUsageStats(): Promise<Record<string, UsageStats>> {
    const stored = this.#allStatsCached();
    const all: Record<string, UsageStats> = {};
    for (const [profileId, stats] of stored) all[profileId] = this.#withPendingLastUsed(profileId, stats) ?? stats;
    for (const [profileId, lastUsed] of this.#lastUsed.pendingEntries()) {
      if (!stored.has(profileId)) all[profileId] = { lastUsed };
    }
    return all;
  }

  async recordFailure(profileId: string, params: RecordFailureParams): Promise<UsageStats> {
    return this.#file.immediate(() => {
      const next = statsAfterFailure(this.#readStats(profileId), params);
      this.#writeStats(profileId, next);
      return next;
    });
  }

  async recordSuccess(profileId: string, params: { provider: string; now: number }): Promise<UsageStats> {
    // Fast path (R-SB-2): a healthy profile that is already lastGood only gets a newer lastUsed, which is
    // batched. If another process records a failure meanwhile, the batch cannot undo it (own column).
    const current = this.#statsCached(profileId);
    if (successChangesOnlyLastUsed(current) && this.#file.lastGoodCached().get(params.provider) === profileId) {
      const next = recordSuccessStats(current, { now: params.now });
      if (next.lastUsed !== undefined) this.#addLastUsed(profileId, next.lastUsed);
      return next;
    }
    return this.#file.immediate(() => {
      const written = recordSuccessStats(this.#readStats(profileId), { now: params.now });
      this.#writeStats(profileId, written);
      this.#file.sql.upsertLastGood.run(params.provider, profileId);
      return written;
    });
  }

  async markUsed(profileId: string, now: number): Promise<void> {
    this.#addLastUsed(profileId, now);
  }

  #addLastUsed(profileId: string, lastUsed: number): void {
    this.#batchedLastUsed += 1;
    this.#lastUsed.add(profileId, lastUsed);
  }

  async clearExpired(profileId: string, now: number): Promise<UsageStats | undefined> {
    return this.#file.immediate(() => {
      const current = this.#readStats(profileId);
      if (!current) return undefined;
      const next = clearExpiredStats(current, now);
      if (JSON.stringify(next) !== JSON.stringify(current)) this.#writeStats(profileId, next);
      return next;
    });
  }

  async resetUsageStats(profileId: string): Promise<void> {
    await this.#file.immediate(() => {
      if (this.#readStats(profileId) === undefined) return;
      this.#lastUsed.forget(profileId);
      this.#writeStats(profileId, emptyUsageStats());
    });
  }

  async replaceUsageStats(profileId: string, stats: UsageStats | undefined): Promise<void> {
    this.#lastUsed.forget(profileId);
    await this.#file.write(() => {
      if (stats === undefined) this.#file.sql.deleteStats.run(profileId);
      else this.#writeStats(profileId, stats);
    });
  }
}
