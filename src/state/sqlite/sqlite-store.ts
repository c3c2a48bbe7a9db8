/**
 * The default state backend (SPEC §16): one SQLite file per agent, shared safely by several processes on
 * one host. Every read-modify-write runs in a `BEGIN IMMEDIATE` transaction that applies the pure core
 * math (`core/cooldown.ts`); the usage-stats rules themselves live only there.
 *
 * One facet per file (profiles, usage stats, sessions, probes, headroom, spend) over one shared
 * connection (sqlite-connection.ts); this class opens the file and composes them.
 */
import type Database from "better-sqlite3";
import type { HeadroomReading } from "../../core/headroom/reading.js";
import type { SessionEntry, UsageStats } from "../../core/types.js";
import { type Logger, silentLogger } from "../../ports/events.js";
import type {
  RecordFailureParams,
  SessionCasResult,
  SessionFieldWrite,
  StateStore,
  StoredProfile,
  WriteOptions,
} from "../../ports/state-store.js";
import { systemClock } from "../../ports/system-clock.js";
import type { SecretBox } from "../secrets.js";
import { type SessionRetention, SessionPruner } from "../shared/session-retention.js";
import { SqliteHeadroom } from "./headroom.js";
import { LastUsedBatch } from "./last-used-batch.js";
import { SqliteProbes } from "./probes.js";
import { SqliteProfiles } from "./profiles.js";
import { migrate } from "./schema.js";
import { SqliteSessions } from "./sessions.js";
import { SqliteSpend } from "./spend.js";
import { SqliteConnection } from "./sqlite-connection.js";
import { BUSY_TIMEOUT_MS, openDatabaseFile } from "./sqlite-file.js";
import { SqliteUsageStats } from "./usage-stats.js";

export interface SqliteStateStoreOptions {
  path: string;
  secrets: SecretBox;
  logger?: Logger;
  /** How long `lastUsed` updates of the success path may wait before they are written (default 1000 ms). */
  lastUsedFlushMs?: number;
  /** Dates session writes for idle pruning (R-GW-8); defaults to the system clock. */
  now?: () => number;
  /** When given, idle sessions are pruned on open and periodically (R-GW-8). */
  sessionRetention?: SessionRetention;
  /** How long a write keeps retrying a file another process holds locked (default 5000 ms). */
  lockWaitMs?: number;
}

const KEY_CHECK_META = "secret_key_check";

export class SqliteStateStore implements StateStore {
  readonly path: string;
  readonly #file: SqliteConnection;
  readonly #secrets: SecretBox;
  readonly #logger: Logger;
  readonly #lastUsed: LastUsedBatch;
  readonly #now: () => number;
  readonly #profiles: SqliteProfiles;
  readonly #usageStats: SqliteUsageStats;
  readonly #sessions: SqliteSessions;
  readonly #probes: SqliteProbes;
  readonly #headroom: SqliteHeadroom;
  readonly #spend: SqliteSpend;
  #pruner: SessionPruner | undefined;
  #closed = false;

  private constructor(db: Database.Database, options: SqliteStateStoreOptions) {
    this.path = options.path;
    this.#file = new SqliteConnection(db, options.path, options.lockWaitMs);
    this.#secrets = options.secrets;
    this.#logger = options.logger ?? silentLogger;
    this.#now = options.now ?? (() => systemClock.now());
    this.#lastUsed = new LastUsedBatch({
      flushEveryMs: options.lastUsedFlushMs ?? 1000,
      // Batched and retried by LastUsedBatch: a busy file only delays the batch (see last-used-batch.ts).
      write: (entries) =>
        this.#file.immediateSync(() => {
          for (const [profileId, lastUsed] of entries) this.#file.sql.bumpLastUsed.run(profileId, lastUsed);
        }),
      onError: (error) =>
        this.#logger.log("warn", "Could not write batched lastUsed updates; they will be retried", {
          path: this.path,
          error: error instanceof Error ? error.message : String(error),
        }),
    });
    this.#profiles = new SqliteProfiles(this.#file, this.#secrets, (profileId) => this.#lastUsed.forget(profileId));
    this.#usageStats = new SqliteUsageStats(this.#file, this.#lastUsed);
    this.#sessions = new SqliteSessions(this.#file, this.#now, () => this.#pruner?.noteSessionWrite());
    this.#probes = new SqliteProbes(this.#file);
    this.#headroom = new SqliteHeadroom(this.#file);
    this.#spend = new SqliteSpend(this.#file);
  }

  /** Opens (creating and migrating as needed) the file and checks the secret key against it. */
  static open(options: SqliteStateStoreOptions): SqliteStateStore {
    const db = openDatabaseFile(options.path);
    try {
      migrate(db, { path: options.path, now: systemClock.now() });
      const store = new SqliteStateStore(db, options);
      store.#checkSecretKey();
      // From here on every lock wait is short and retried asynchronously (sqlite-retry.ts).
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      store.#startPruning(options.sessionRetention);
      return store;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  #startPruning(retention: SessionRetention | undefined): void {
    if (!retention) return;
    this.#pruner = new SessionPruner({
      ...retention,
      prune: (params) => this.pruneSessions(params),
      evict: (params) => this.evictSessions(params),
      now: this.#now,
      logger: this.#logger,
      label: this.path,
    });
    this.#pruner.start();
  }

  #checkSecretKey(): void {
    const sql = this.#file.sql;
    const existing = sql.getMeta.get(KEY_CHECK_META);
    if (existing) {
      this.#secrets.verifyKeyCheck(existing.value);
      return;
    }
    sql.insertMeta.run(KEY_CHECK_META, this.#secrets.makeKeyCheck());
    // Another process may have won the race with its own key: verify whatever is stored now.
    const stored = sql.getMeta.get(KEY_CHECK_META);
    if (stored) this.#secrets.verifyKeyCheck(stored.value);
  }

  // --- profiles, orders and lastGood ---
  listProfiles(): Promise<StoredProfile[]> {
    return this.#profiles.listProfiles();
  }
  getProfile(id: string): Promise<StoredProfile | undefined> {
    return this.#profiles.getProfile(id);
  }
  upsertProfile(profile: StoredProfile, options?: WriteOptions): Promise<void> {
    return this.#profiles.upsertProfile(profile, options);
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
  patchSession(
    sessionKey: string,
    patch: Partial<Omit<SessionEntry, "sessionKey">>,
    options?: WriteOptions,
  ): Promise<SessionEntry> {
    return this.#sessions.patchSession(sessionKey, patch, options);
  }
  compareAndSetSession(sessionKey: string, writes: SessionFieldWrite[], options?: WriteOptions): Promise<SessionCasResult> {
    return this.#sessions.compareAndSetSession(sessionKey, writes, options);
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
  /** Own writes count once each; another process's commit is seen once per event-loop turn (read-cache.ts). */
  changeStamp(): number {
    return this.#file.cache.fresh().revision + this.#usageStats.batchedWrites;
  }

  /** The file is local: opening it proved it is there; a write that fails later says so itself. */
  async checkAvailable(): Promise<void> {
    if (this.#closed) throw new Error(`The SQLite store ${this.path} is closed.`);
  }

  /** `PRAGMA integrity_check` result (`"ok"` when healthy), for doctor and the crash test. */
  integrityCheck(): string {
    return String(this.#file.db.pragma("integrity_check", { simple: true }));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pruner?.stop();
    this.#lastUsed.flush();
    this.#file.db.close();
  }
}
