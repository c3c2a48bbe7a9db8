/**
 * The Redis store's usage-stats facet as the store exposes it: each operation routed to Redis (the CAS paths of
 * remote-usage-stats.ts) or, during an outage, to the local view with a journal entry for the resynchronisation.
 */
import type { UsageStats } from "../../core/types.js";
import type { RecordFailureParams, UsageStatsStore } from "../../ports/state-store.js";
import type { Route } from "./route.js";
import type { RemoteUsageStats } from "./remote-usage-stats.js";

export class RedisUsageStats implements UsageStatsStore {
  readonly #run: Route<RemoteUsageStats>;

  constructor(run: Route<RemoteUsageStats>) {
    this.#run = run;
  }

  getUsageStats(profileId: string): Promise<UsageStats | undefined> {
    return this.#run(
      (r) => r.getUsageStats(profileId),
      (v) => v.getUsageStats(profileId),
      {
        mirror: (view, stats) => view.replaceUsageStats(profileId, stats),
      },
    );
  }

  getAllUsageStats(): Promise<Record<string, UsageStats>> {
    return this.#run(
      (r) => r.getAllUsageStats(),
      (v) => v.getAllUsageStats(),
      {
        mirror: async (view, all) => {
          for (const id of Object.keys(await view.getAllUsageStats())) await view.replaceUsageStats(id, all[id]);
          for (const [id, stats] of Object.entries(all)) await view.replaceUsageStats(id, stats);
        },
      },
    );
  }

  recordFailure(profileId: string, params: RecordFailureParams): Promise<UsageStats> {
    return this.#run(
      (r, abandoned) => r.recordFailure(profileId, params, abandoned),
      (v) => v.recordFailure(profileId, params),
      {
        mirror: (view, stats) => view.replaceUsageStats(profileId, stats),
        replay: (r) => r.recordFailure(profileId, params),
      },
    );
  }

  recordSuccess(profileId: string, params: { provider: string; now: number }): Promise<UsageStats> {
    return this.#run(
      (r, abandoned) => r.recordSuccess(profileId, params, abandoned),
      (v) => v.recordSuccess(profileId, params),
      {
        mirror: async (view, stats) => {
          await view.replaceUsageStats(profileId, stats);
          await view.setLastGood(params.provider, profileId);
        },
        replay: (r) => r.recordSuccess(profileId, params),
      },
    );
  }

  markUsed(profileId: string, now: number): Promise<void> {
    return this.#run(
      (r) => r.markUsed(profileId, now),
      (v) => v.markUsed(profileId, now),
      {
        mirror: (view) => view.markUsed(profileId, now),
        replay: (r) => r.markUsed(profileId, now),
      },
    );
  }

  clearExpired(profileId: string, now: number): Promise<UsageStats | undefined> {
    // Not journaled: clearing ended windows is recomputed from the shared stats on the next read.
    return this.#run(
      (r, abandoned) => r.clearExpired(profileId, now, abandoned),
      (v) => v.clearExpired(profileId, now),
      {
        mirror: (view, stats) => view.replaceUsageStats(profileId, stats),
      },
    );
  }

  resetUsageStats(profileId: string): Promise<void> {
    return this.#run(
      (r, abandoned) => r.resetUsageStats(profileId, abandoned),
      (v) => v.resetUsageStats(profileId),
      {
        mirror: (view) => view.resetUsageStats(profileId),
        replay: (r) => r.resetUsageStats(profileId),
        durability: "required",
      },
    );
  }

  replaceUsageStats(profileId: string, stats: UsageStats | undefined): Promise<void> {
    return this.#run(
      (r) => r.replaceUsageStats(profileId, stats),
      (v) => v.replaceUsageStats(profileId, stats),
      {
        mirror: (view) => view.replaceUsageStats(profileId, stats),
        replay: (r) => r.replaceUsageStats(profileId, stats),
        durability: "required",
      },
    );
  }
}
