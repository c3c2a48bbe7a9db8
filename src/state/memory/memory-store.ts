/**
 * The in-memory `StateStore` (SPEC §16 `memory`): the reference the SQLite and Redis backends follow.
 *
 * Atomicity: every method does its whole read-compute-write synchronously between two awaits, so on one
 * event loop no two updates interleave — the same guarantee the other backends get from a transaction or a
 * server-side script. Values are cloned on the way in and out so callers can never mutate stored state.
 */
import {
  clearExpired as clearExpiredWindows,
  markUsed as markUsedStats,
  recordFailure as statsAfterFailure,
  recordSuccess as recordSuccessStats,
  resetUsageStats as emptyUsageStats,
} from "../../core/cooldown.js";
import type { SessionEntry, UsageStats } from "../../core/types.js";
import type {
  RecordFailureParams,
  SessionCasResult,
  SessionFieldWrite,
  StateStore,
  StoredProfile,
} from "../../ports/state-store.js";
import { applySessionCas, withWriteTime } from "../session-writes.js";
import type { HeadroomReading } from "../../core/headroom/reading.js";
import { BoundedRecencyMap } from "./bounded-recency-map.js";
import { MemoryHeadroomReadings } from "./headroom-readings.js";
import { MemorySpendBuckets } from "./spend-buckets.js";
import { type Logger, silentLogger } from "../../ports/events.js";
import { type SessionRetention, SessionPruner } from "../session-retention.js";

/** R-FB-4: the probe throttle remembers at most this many (agent, provider) keys, oldest evicted. */
export const PROBE_THROTTLE_MAX_KEYS = 256;

function clone<T>(value: T): T {
  return structuredClone(value);
}

function applyPatch(entry: SessionEntry, patch: Partial<Omit<SessionEntry, "sessionKey">>): SessionEntry {
  const next: Record<string, unknown> = { ...entry };
  for (const [field, value] of Object.entries(patch)) {
    if (field === "sessionKey") continue;
    if (value === undefined) delete next[field];
    else next[field] = clone(value);
  }
  return next as unknown as SessionEntry;
}

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
  readonly #profiles = new Map<string, StoredProfile>();
  readonly #storedOrder = new Map<string, string[]>();
  readonly #lastGood = new Map<string, string>();
  readonly #usageStats = new Map<string, UsageStats>();
  readonly #sessions = new Map<string, SessionEntry>();
  /** When each session was last written (R-GW-8). */
  readonly #sessionTouched = new Map<string, number>();
  readonly #probeClaims: BoundedRecencyMap<string, number>;
  readonly #now: () => number;
  readonly #pruner: SessionPruner | undefined;
  /** Counts the writes a decision snapshot depends on (everything but sessions and probe claims). */
  #changes = 0;

  constructor(options: MemoryStateStoreOptions = {}) {
    this.#probeClaims = new BoundedRecencyMap(options.probeThrottleMaxKeys ?? PROBE_THROTTLE_MAX_KEYS);
    this.#now = options.now ?? Date.now;
    if (options.sessionRetention) {
      this.#pruner = new SessionPruner({
        ...options.sessionRetention,
        prune: (params) => this.pruneSessions(params),
        evict: (params) => this.evictSessions(params),
        now: this.#now,
        logger: options.logger ?? silentLogger,
        label: "memory",
      });
      this.#pruner.start();
    }
  }

  // --- profiles and secrets ---

  async listProfiles(): Promise<StoredProfile[]> {
    return [...this.#profiles.values()].map(clone);
  }

  async getProfile(id: string): Promise<StoredProfile | undefined> {
    const profile = this.#profiles.get(id);
    return profile ? clone(profile) : undefined;
  }

  async upsertProfile(profile: StoredProfile): Promise<void> {
    this.#changes += 1;
    this.#profiles.set(profile.id, clone(profile));
  }

  async removeProfile(id: string): Promise<boolean> {
    this.#changes += 1;
    const existed = this.#profiles.delete(id);
    this.#usageStats.delete(id);
    this.#spend.forget(id);
    for (const [provider, order] of this.#storedOrder) {
      if (order.includes(id)) this.#storedOrder.set(provider, order.filter((entry) => entry !== id));
    }
    for (const [provider, profileId] of this.#lastGood) {
      if (profileId === id) this.#lastGood.delete(provider);
    }
    return existed;
  }

  // --- order and lastGood ---

  async getStoredOrder(provider: string): Promise<string[] | undefined> {
    const order = this.#storedOrder.get(provider);
    return order ? [...order] : undefined;
  }

  async setStoredOrder(provider: string, order: string[] | undefined): Promise<void> {
    this.#changes += 1;
    if (order === undefined) this.#storedOrder.delete(provider);
    else this.#storedOrder.set(provider, [...order]);
  }

  async getLastGood(provider: string): Promise<string | undefined> {
    return this.#lastGood.get(provider);
  }

  async getAllLastGood(): Promise<Record<string, string>> {
    return Object.fromEntries(this.#lastGood);
  }

  async setLastGood(provider: string, profileId: string | undefined): Promise<void> {
    this.#changes += 1;
    if (profileId === undefined) this.#lastGood.delete(provider);
    else this.#lastGood.set(provider, profileId);
  }

  // --- usage stats ---

  async getUsageStats(profileId: string): Promise<UsageStats | undefined> {
    const stats = this.#usageStats.get(profileId);
    return stats ? clone(stats) : undefined;
  }

  async getAllUsageStats(): Promise<Record<string, UsageStats>> {
    return Object.fromEntries([...this.#usageStats].map(([id, stats]) => [id, clone(stats)]));
  }

  async recordFailure(profileId: string, params: RecordFailureParams): Promise<UsageStats> {
    this.#changes += 1;
    const next = statsAfterFailure(this.#usageStats.get(profileId), params);
    this.#usageStats.set(profileId, clone(next));
    return clone(next);
  }

  async recordSuccess(profileId: string, params: { provider: string; now: number }): Promise<UsageStats> {
    this.#changes += 1;
    const next = recordSuccessStats(this.#usageStats.get(profileId), { now: params.now });
    this.#usageStats.set(profileId, clone(next));
    this.#lastGood.set(params.provider, profileId);
    return clone(next);
  }

  async markUsed(profileId: string, now: number): Promise<void> {
    this.#changes += 1;
    this.#usageStats.set(profileId, clone(markUsedStats(this.#usageStats.get(profileId), { now })));
  }

  async clearExpired(profileId: string, now: number): Promise<UsageStats | undefined> {
    this.#changes += 1;
    const stats = this.#usageStats.get(profileId);
    if (!stats) return undefined;
    const cleared = clearExpiredWindows(stats, now);
    this.#usageStats.set(profileId, clone(cleared));
    return clone(cleared);
  }

  async resetUsageStats(profileId: string): Promise<void> {
    this.#changes += 1;
    if (!this.#usageStats.has(profileId)) return;
    this.#usageStats.set(profileId, emptyUsageStats());
  }

  async replaceUsageStats(profileId: string, stats: UsageStats | undefined): Promise<void> {
    this.#changes += 1;
    if (stats === undefined) this.#usageStats.delete(profileId);
    else this.#usageStats.set(profileId, clone(stats));
  }

  // --- sessions ---

  async getSession(sessionKey: string): Promise<SessionEntry | undefined> {
    const entry = this.#sessions.get(sessionKey);
    return entry ? clone(entry) : undefined;
  }

  async listSessions(): Promise<SessionEntry[]> {
    return [...this.#sessions.values()].map((entry) => withWriteTime(clone(entry), this.#sessionTouched.get(entry.sessionKey)));
  }

  async patchSession(
    sessionKey: string,
    patch: Partial<Omit<SessionEntry, "sessionKey">>,
  ): Promise<SessionEntry> {
    const next = applyPatch(this.#sessions.get(sessionKey) ?? { sessionKey }, patch);
    this.#sessions.set(sessionKey, next);
    this.#touch(sessionKey);
    return clone(next);
  }

  async compareAndSetSession(sessionKey: string, writes: SessionFieldWrite[]): Promise<SessionCasResult> {
    const existing = this.#sessions.get(sessionKey);
    const result = applySessionCas(existing ?? { sessionKey }, writes, clone);
    // A CAS that applied nothing must not create a session that did not exist.
    if (result.applied.length > 0) {
      this.#sessions.set(sessionKey, result.entry);
      this.#touch(sessionKey);
    }
    return { ...result, entry: clone(result.entry) };
  }

  /** Re-inserted, so the map stays in write order and pruning meets the oldest first. */
  #touch(sessionKey: string): void {
    this.#sessionTouched.delete(sessionKey);
    this.#sessionTouched.set(sessionKey, this.#now());
    this.#pruner?.noteSessionWrite();
  }

  async deleteSession(sessionKey: string): Promise<boolean> {
    this.#sessionTouched.delete(sessionKey);
    return this.#sessions.delete(sessionKey);
  }

  async evictSessions(params: { maxCount: number; limit?: number }): Promise<string[]> {
    const excess = Math.min(this.#sessionTouched.size - params.maxCount, params.limit ?? Number.POSITIVE_INFINITY);
    if (excess <= 0) return [];
    // A touch deletes and re-inserts its key, so the map is in write order: the first keys are the least recent.
    const removed: string[] = [];
    for (const sessionKey of this.#sessionTouched.keys()) {
      if (removed.length >= excess) break;
      removed.push(sessionKey);
    }
    for (const sessionKey of removed) {
      this.#sessionTouched.delete(sessionKey);
      this.#sessions.delete(sessionKey);
    }
    return removed;
  }

  async countSessions(): Promise<number> {
    return this.#sessionTouched.size;
  }

  async pruneSessions(params: { idleSince: number; limit?: number }): Promise<string[]> {
    const limit = params.limit ?? Number.POSITIVE_INFINITY;
    const removed: string[] = [];
    for (const [sessionKey, touched] of this.#sessionTouched) {
      if (removed.length >= limit) break;
      if (touched >= params.idleSince) continue;
      this.#sessionTouched.delete(sessionKey);
      this.#sessions.delete(sessionKey);
      removed.push(sessionKey);
    }
    return removed;
  }

  /** Always answers: the state lives in this process. */
  async checkAvailable(): Promise<void> {}

  // --- probe throttle ---

  async tryClaimProbe(key: string, now: number, intervalMs: number): Promise<boolean> {
    const last = this.#probeClaims.get(key);
    if (last !== undefined && now - last < intervalMs) return false;
    this.#probeClaims.set(key, now);
    return true;
  }

  async getLastProbeAt(key: string): Promise<number | undefined> {
    return this.#probeClaims.get(key);
  }

  // --- headroom readings (R-PO-7) ---

  readonly #headroom = new MemoryHeadroomReadings();

  async recordHeadroom(profileId: string, readings: readonly HeadroomReading[], now: number): Promise<void> {
    this.#changes += 1;
    this.#headroom.record(profileId, readings, now);
  }

  async headroomReadings(profileIds: readonly string[], now: number): Promise<Record<string, HeadroomReading[]>> {
    return this.#headroom.read(profileIds, now);
  }

  // --- spend (R-GW-7) ---

  readonly #spend = new MemorySpendBuckets();

  async recordSpend(profileId: string, costUsd: number, now: number): Promise<void> {
    this.#spend.record(profileId, costUsd, now);
  }

  async spendByProfile(now: number): Promise<Record<string, number>> {
    return this.#spend.byProfile(now);
  }

  changeStamp(): number {
    return this.#changes;
  }

  async close(): Promise<void> {
    // The state lives and dies with this object; only the pruning timer is released.
    await this.#pruner?.stop();
  }
}
