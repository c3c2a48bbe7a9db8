/**
 * The in-memory `StateStore` (SPEC §16 `memory`): the reference the SQLite and Redis backends follow. One
 * facet per file (profiles, usage stats, sessions, probes, headroom, spend); this class composes them.
 *
 * Atomicity: every method does its whole read-compute-write synchronously between two awaits, so on one
 * event loop no two updates interleave — the same guarantee the other backends get from a transaction or a
 * server-side script. Values are cloned on the way in and out so callers can never mutate stored state.
 */
import type { HeadroomReading } from "../../core/headroom/reading.js";
import type { SessionEntry, UsageStats } from "../../core/types.js";
import { type Logger, silentLogger } from "../../ports/events.js";
import { systemClock } from "../../ports/system-clock.js";
import type {
  RecordFailureParams,
  SessionCasResult,
  SessionFieldWrite,
  StateStore,
  StoredProfile,
} from "../../ports/state-store.js";
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

export class MemoryStateStore implements StateStore {
  /** Counts the writes a decision snapshot depends on (everything but sessions, probe claims and spend). */
  #changes = 0;
  readonly #changed = (): void => {
    this.#changes += 1;
  };
  readonly #spend = new MemorySpend();
  readonly #profiles: MemoryProfiles;
  readonly #usageStats: MemoryUsageStats;
  readonly #sessions: MemorySessions;
  readonly #probes: MemoryProbes;
  readonly #headroom = new MemoryHeadroom(this.#changed);
  readonly #pruner: SessionPruner | undefined;

  constructor(options: MemoryStateStoreOptions = {}) {
    const now = options.now ?? (() => systemClock.now());
    this.#profiles = new MemoryProfiles(this.#changed, (profileId) => {
      this.#usageStats.forget(profileId);
      this.#spend.forget(profileId);
    });
    this.#usageStats = new MemoryUsageStats(this.#changed, (provider, profileId) =>
      this.#profiles.noteLastGood(provider, profileId),
    );
    this.#sessions = new MemorySessions(now, () => this.#pruner?.noteSessionWrite());
    this.#probes = new MemoryProbes(options.probeThrottleMaxKeys);
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

  // --- profiles, orders and lastGood ---
  listProfiles(): Promise<StoredProfile[]> {
    return this.#profiles.listProfiles();
  }
  getProfile(id: string): Promise<StoredProfile | undefined> {
    return this.#profiles.getProfile(id);
  }
  upsertProfile(profile: StoredProfile): Promise<void> {
    return this.#profiles.upsertProfile(profile);
  }
  removeProfile(id: string): Promise<boolean> {
    return this.#profiles.removeProfile(id);
  }
  getStoredOrder(provider: string): Promise<string[] | undefined> {
    return this.#profiles.getStoredOrder(provider);
  }
  setStoredOrder(provider: string, order: string[] | undefined): Promise<void> {
    return this.#profiles.setStoredOrder(provider, order);
  }
  getLastGood(provider: string): Promise<string | undefined> {
    return this.#profiles.getLastGood(provider);
  }
  getAllLastGood(): Promise<Record<string, string>> {
    return this.#profiles.getAllLastGood();
  }
  setLastGood(provider: string, profileId: string | undefined): Promise<void> {
    return this.#profiles.setLastGood(provider, profileId);
  }

  // --- usage stats ---
  getUsageStats(profileId: string): Promise<UsageStats | undefined> {
    return this.#usageStats.getUsageStats(profileId);
  }
  getAllUsageStats(): Promise<Record<string, UsageStats>> {
    return this.#usageStats.getAllUsageStats();
  }
  recordFailure(profileId: string, params: RecordFailureParams): Promise<UsageStats> {
    return this.#usageStats.recordFailure(profileId, params);
  }
  recordSuccess(profileId: string, params: { provider: string; now: number }): Promise<UsageStats> {
    return this.#usageStats.recordSuccess(profileId, params);
  }
  markUsed(profileId: string, now: number): Promise<void> {
    return this.#usageStats.markUsed(profileId, now);
  }
  clearExpired(profileId: string, now: number): Promise<UsageStats | undefined> {
    return this.#usageStats.clearExpired(profileId, now);
  }
  resetUsageStats(profileId: string): Promise<void> {
    return this.#usageStats.resetUsageStats(profileId);
  }
  replaceUsageStats(profileId: string, stats: UsageStats | undefined): Promise<void> {
    return this.#usageStats.replaceUsageStats(profileId, stats);
  }

  // --- sessions ---
  getSession(sessionKey: string): Promise<SessionEntry | undefined> {
    return this.#sessions.getSession(sessionKey);
  }
  listSessions(): Promise<SessionEntry[]> {
    return this.#sessions.listSessions();
  }
  patchSession(sessionKey: string, patch: Partial<Omit<SessionEntry, "sessionKey">>): Promise<SessionEntry> {
    return this.#sessions.patchSession(sessionKey, patch);
  }
  compareAndSetSession(sessionKey: string, writes: SessionFieldWrite[]): Promise<SessionCasResult> {
    return this.#sessions.compareAndSetSession(sessionKey, writes);
  }
  deleteSession(sessionKey: string): Promise<boolean> {
    return this.#sessions.deleteSession(sessionKey);
  }
  pruneSessions(params: { idleSince: number; limit?: number }): Promise<string[]> {
    return this.#sessions.pruneSessions(params);
  }
  evictSessions(params: { maxCount: number; limit?: number }): Promise<string[]> {
    return this.#sessions.evictSessions(params);
  }
  countSessions(): Promise<number> {
    return this.#sessions.countSessions();
  }

  // --- probe throttle, headroom readings (R-PO-7), spend (R-GW-7) ---
  tryClaimProbe(key: string, now: number, intervalMs: number): Promise<boolean> {
    return this.#probes.tryClaimProbe(key, now, intervalMs);
  }
  getLastProbeAt(key: string): Promise<number | undefined> {
    return this.#probes.getLastProbeAt(key);
  }
  recordHeadroom(profileId: string, readings: readonly HeadroomReading[], now: number): Promise<void> {
    return this.#headroom.recordHeadroom(profileId, readings, now);
  }
  headroomReadings(profileIds: readonly string[], now: number): Promise<Record<string, HeadroomReading[]>> {
    return this.#headroom.headroomReadings(profileIds, now);
  }
  recordSpend(profileId: string, costUsd: number, now: number): Promise<void> {
    return this.#spend.recordSpend(profileId, costUsd, now);
  }
  spendByProfile(now: number): Promise<Record<string, number>> {
    return this.#spend.spendByProfile(now);
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
