/**
 * The in-memory `StateStore` (SPEC §16 `memory`): the reference the SQLite and Redis backends follow. One
 * facet per file (profiles, usage stats, sessions, probes, headroom, spend); this class composes them.
 *
 * Atomicity: every method does its whole read-compute-write synchronously between two awaits, so on one
 * event loop no two updates interleave — the same guarantee the other backends get from a transaction or a
 * server-side script. Values are cloned on the way in and out so callers can never mutate stored state.
 */
import { FacetedStateStore, type StoreFacets } from "../shared/faceted-store.js";
import { type Logger, silentLogger } from "../../ports/events.js";
import { systemClock } from "../../ports/system-clock.js";
import type { StateStore } from "../../ports/state-store.js";
import { type SessionRetention, SessionPruner } from "../shared/session-retention.js";
import { MemoryHeadroom } from "./headroom.js";
import { MemoryProbes } from "./probes.js";
import { MemoryProfiles } from "./profiles.js";
import { MemorySessions } from "./sessions.js";
import { MemorySpend } from "./spend.js";
import { MemoryUsageStats } from "./usage-stats.js";

export { PROBE_THROTTLE_MAX_KEYS } from "./probes.js";

export interface MemoryStateStoreOptions {
  /** Defaults to 256 (R-FB-4). */
  probeThrottleMaxKeys?: number;
  /** Dates session writes for idle pruning (R-GW-8); defaults to the system clock. */
  now?: () => number;
  /** When given, idle sessions are pruned periodically (R-GW-8). */
  sessionRetention?: SessionRetention;
  logger?: Logger;
}

export class MemoryStateStore extends FacetedStateStore implements StateStore {
  protected readonly facets: StoreFacets;
  /** Counts the writes a decision snapshot depends on (everything but sessions, probe claims and spend). */
  #changes = 0;
  readonly #changed = (): void => {
    this.#changes += 1;
  };
  readonly #spend = new MemorySpend();
  readonly #profiles: MemoryProfiles;
  readonly #usageStats: MemoryUsageStats;
  readonly #pruner: SessionPruner | undefined;

  constructor(options: MemoryStateStoreOptions = {}) {
    super();
    const now = options.now ?? (() => systemClock.now());
    this.#profiles = new MemoryProfiles(this.#changed, (profileId) => {
      this.#usageStats.forget(profileId);
      this.#spend.forget(profileId);
    });
    this.#usageStats = new MemoryUsageStats(this.#changed, (provider, profileId) => this.#profiles.noteLastGood(provider, profileId));
    this.facets = {
      profiles: this.#profiles,
      usageStats: this.#usageStats,
      sessions: new MemorySessions(now, () => this.#pruner?.noteSessionWrite()),
      probes: new MemoryProbes(options.probeThrottleMaxKeys),
      headroom: new MemoryHeadroom(this.#changed),
      spend: this.#spend,
    };
    if (options.sessionRetention) {
      this.#pruner = new SessionPruner({
        ...options.sessionRetention,
        prune: (params) => this.pruneSessions(params),
        evict: (params) => this.evictSessions(params),
        now,
        logger: options.logger ?? silentLogger,
        label: "memory",
      });
      this.#pruner.start();
    }
  }

  // --- lifecycle ---
  /** Always answers: the state lives in this process. */
  async checkAvailable(): Promise<void> {}

  changeStamp(): number {
    return this.#changes;
  }

  async close(): Promise<void> {
    // The state lives and dies with this object; only the pruning timer is released.
    await this.#pruner?.stop();
  }
}
