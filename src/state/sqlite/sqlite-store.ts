/**
 * The default state backend (SPEC §16): one SQLite file per agent, shared safely by several processes on
 * one host. Every read-modify-write runs in a `BEGIN IMMEDIATE` transaction that applies the pure core
 * math (`core/cooldown.ts`); the usage-stats rules themselves live only there.
 *
 * One class implements the whole `StateStore` interface (hence its length); statements, schema, the
 * read cache and the lastUsed batch are their own modules.
 */
import type Database from "better-sqlite3";
import {
  clearExpired as clearExpiredStats,
  recordFailure as statsAfterFailure,
  recordSuccess as recordSuccessStats,
  resetUsageStats as emptyUsageStats,
  successChangesOnlyLastUsed,
} from "../../core/cooldown.js";
import type { Credential, SessionEntry, UsageStats } from "../../core/types.js";
import { type Logger, silentLogger } from "../../ports/events.js";
import type {
  RecordFailureParams,
  SessionCasResult,
  SessionFieldWrite,
  StateStore,
  StoredProfile,
  WriteOptions,
} from "../../ports/state-store.js";
import { openCredential, type SecretBox, sealCredential } from "../secrets.js";
import { LastUsedBatch } from "./last-used-batch.js";
import { copyProfile, copyStats, noteLocalCommit, ReadCache } from "./read-cache.js";
import { migrate } from "./schema.js";
import { prepareStatements, type Statements, type StatsRow } from "./statements.js";
import { BUSY_TIMEOUT_MS, openDatabaseFile } from "./sqlite-file.js";
import { withLockRetry } from "./sqlite-retry.js";
import { type SessionRetention, SessionPruner } from "../session-retention.js";
import { applySessionCas, applySessionPatch, withWriteTime } from "../session-writes.js";
import type { HeadroomReading } from "../../core/headroom/reading.js";
import { SqliteHeadroomTable } from "./headroom-table.js";
import { SqliteSpendTable } from "./spend-table.js";

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

function statsFromRow(row: StatsRow): UsageStats {
  const stats = JSON.parse(row.stats) as UsageStats;
  if (row.last_used !== null) stats.lastUsed = row.last_used;
  return stats;
}

function withoutLastUsed(stats: UsageStats): string {
  const { lastUsed: _lastUsed, ...rest } = stats;
  return JSON.stringify(rest);
}

export class SqliteStateStore implements StateStore {
  readonly path: string;
  readonly #db: Database.Database;
  readonly #sql: Statements;
  readonly #secrets: SecretBox;
  readonly #logger: Logger;
  readonly #lastUsed: LastUsedBatch;
  readonly #cache: ReadCache;
  /** Decrypted credentials by ciphertext: each distinct ciphertext is decrypted once per process. */
  readonly #credentialCache = new Map<string, Credential>();
  readonly #now: () => number;
  readonly #lockWaitMs: number | undefined;
  #pruner: SessionPruner | undefined;
  #closed = false;
  /** `lastUsed` updates batched without a commit: each still changes what a decision reads (changeStamp). */
  #batchedLastUsed = 0;

  private constructor(db: Database.Database, options: SqliteStateStoreOptions) {
    this.path = options.path;
    this.#db = db;
    this.#sql = prepareStatements(db);
    this.#secrets = options.secrets;
    this.#logger = options.logger ?? silentLogger;
    this.#cache = new ReadCache(db);
    this.#now = options.now ?? Date.now;
    this.#lockWaitMs = options.lockWaitMs;
    this.#lastUsed = new LastUsedBatch({
      flushEveryMs: options.lastUsedFlushMs ?? 1000,
      write: (entries) => this.#writeLastUsed(entries),
      onError: (error) =>
        this.#logger.log("warn", "Could not write batched lastUsed updates; they will be retried", {
          path: this.path,
          error: error instanceof Error ? error.message : String(error),
        }),
    });
  }

  /** Opens (creating and migrating as needed) the file and checks the secret key against it. */
  static open(options: SqliteStateStoreOptions): SqliteStateStore {
    const db = openDatabaseFile(options.path);
    try {
      migrate(db, { path: options.path, now: Date.now() });
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
    const existing = this.#sql.getMeta.get(KEY_CHECK_META);
    if (existing) {
      this.#secrets.verifyKeyCheck(existing.value);
      return;
    }
    this.#sql.insertMeta.run(KEY_CHECK_META, this.#secrets.makeKeyCheck());
    // Another process may have won the race with its own key: verify whatever is stored now.
    const stored = this.#sql.getMeta.get(KEY_CHECK_META);
    if (stored) this.#secrets.verifyKeyCheck(stored.value);
  }

  #immediateSync<T>(work: () => T): T {
    try {
      return this.#db.transaction(work).immediate();
    } finally {
      this.#cache.invalidate();
      noteLocalCommit();
    }
  }

  /** One `BEGIN IMMEDIATE` transaction, re-run from the start while another process holds the lock. */
  #immediate<T>(work: () => T): Promise<T> {
    return withLockRetry(this.path, () => this.#immediateSync(work), this.#lockOptions());
  }

  /** A single-statement write outside a transaction. */
  #write<T>(work: () => T): Promise<T> {
    return withLockRetry(this.path, () => {
      try {
        return work();
      } finally {
        this.#cache.invalidate();
        noteLocalCommit();
      }
    }, this.#lockOptions());
  }

  #lockOptions(): { deadlineMs?: number } {
    return this.#lockWaitMs === undefined ? {} : { deadlineMs: this.#lockWaitMs };
  }

  #writeLastUsed(entries: [string, number][]): void {
    // Batched and retried by LastUsedBatch: a busy file only delays the batch (see last-used-batch.ts).
    this.#immediateSync(() => {
      for (const [profileId, lastUsed] of entries) this.#sql.bumpLastUsed.run(profileId, lastUsed);
    });
  }

  #credential(profileId: string, sealed: string): Credential {
    let credential = this.#credentialCache.get(sealed);
    if (!credential) {
      credential = openCredential(this.#secrets, profileId, sealed);
      this.#credentialCache.set(sealed, credential);
    }
    return { ...credential };
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
    const row = this.#sql.getStats.get(profileId);
    return this.#withPendingLastUsed(profileId, row ? statsFromRow(row) : undefined);
  }

  #allStatsCached(): Map<string, UsageStats> {
    const cache = this.#cache.fresh();
    cache.allStats ??= new Map(this.#sql.listStats.all().map((row) => [row.profile_id, statsFromRow(row)]));
    return cache.allStats;
  }

  #statsCached(profileId: string): UsageStats | undefined {
    const cache = this.#cache.fresh();
    if (cache.allStats) return this.#withPendingLastUsed(profileId, cache.allStats.get(profileId));
    if (!cache.stats.has(profileId)) {
      const row = this.#sql.getStats.get(profileId);
      cache.stats.set(profileId, row ? statsFromRow(row) : undefined);
    }
    return this.#withPendingLastUsed(profileId, cache.stats.get(profileId));
  }

  #lastGoodCached(): Map<string, string> {
    const cache = this.#cache.fresh();
    cache.lastGood ??= new Map(this.#sql.listLastGood.all().map((row) => [row.provider, row.profile_id]));
    return cache.lastGood;
  }

  #writeStats(profileId: string, stats: UsageStats): void {
    this.#sql.upsertStats.run(profileId, withoutLastUsed(stats), stats.lastUsed ?? null);
  }

  // --- profiles and secrets ---

  async listProfiles(): Promise<StoredProfile[]> {
    const cache = this.#cache.fresh();
    cache.profiles ??= this.#sql.listProfiles
      .all()
      .map((row) => ({ id: row.id, credential: this.#credential(row.id, row.secret) }));
    return cache.profiles.map(copyProfile);
  }

  async getProfile(id: string): Promise<StoredProfile | undefined> {
    const cached = this.#cache.fresh().profiles;
    if (cached) {
      const profile = cached.find((entry) => entry.id === id);
      return profile && copyProfile(profile);
    }
    const row = this.#sql.getProfile.get(id);
    return row ? { id, credential: this.#credential(id, row.secret) } : undefined;
  }

  async upsertProfile(profile: StoredProfile, _options?: WriteOptions): Promise<void> {
    const { credential } = profile;
    const sealed = sealCredential(this.#secrets, profile.id, credential);
    await this.#write(() => this.#sql.upsertProfile.run(profile.id, credential.provider, credential.type, sealed));
  }

  async removeProfile(id: string): Promise<boolean> {
    const existed = await this.#immediate(() => {
      const removed = this.#sql.deleteProfile.run(id).changes > 0;
      this.#sql.deleteStats.run(id);
      for (const row of this.#sql.listOrders.all()) {
        const order = JSON.parse(row.profile_ids) as string[];
        if (!order.includes(id)) continue;
        this.#sql.upsertOrder.run(row.provider, JSON.stringify(order.filter((entry) => entry !== id)));
      }
      for (const row of this.#sql.listLastGood.all()) {
        if (row.profile_id === id) this.#sql.deleteLastGood.run(row.provider);
      }
      return removed;
    });
    this.#lastUsed.forget(id);
    return existed;
  }

  // --- order and lastGood ---

  async getStoredOrder(provider: string): Promise<string[] | undefined> {
    const cache = this.#cache.fresh();
    if (!cache.orders.has(provider)) {
      const row = this.#sql.getOrder.get(provider);
      cache.orders.set(provider, row ? (JSON.parse(row.profile_ids) as string[]) : undefined);
    }
    const order = cache.orders.get(provider);
    return order && [...order];
  }

  async setStoredOrder(provider: string, order: string[] | undefined): Promise<void> {
    await this.#write(() => {
      if (order === undefined) this.#sql.deleteOrder.run(provider);
      else this.#sql.upsertOrder.run(provider, JSON.stringify(order));
    });
  }

  async getLastGood(provider: string): Promise<string | undefined> {
    return this.#lastGoodCached().get(provider);
  }

  async getAllLastGood(): Promise<Record<string, string>> {
    return Object.fromEntries(this.#lastGoodCached());
  }

  async setLastGood(provider: string, profileId: string | undefined): Promise<void> {
    await this.#write(() => {
      if (profileId === undefined) this.#sql.deleteLastGood.run(provider);
      else this.#sql.upsertLastGood.run(provider, profileId);
    });
  }

  // --- usage stats ---

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
    return this.#immediate(() => {
      const next = statsAfterFailure(this.#readStats(profileId), params);
      this.#writeStats(profileId, next);
      return next;
    });
  }

  async recordSuccess(profileId: string, params: { provider: string; now: number }): Promise<UsageStats> {
    // Fast path (R-SB-2): a healthy profile that is already lastGood only gets a newer lastUsed, which is
    // batched. If another process records a failure meanwhile, the batch cannot undo it (own column).
    const current = this.#statsCached(profileId);
    if (successChangesOnlyLastUsed(current) && this.#lastGoodCached().get(params.provider) === profileId) {
      const next = recordSuccessStats(current, { now: params.now });
      if (next.lastUsed !== undefined) this.#addLastUsed(profileId, next.lastUsed);
      return next;
    }
    return this.#immediate(() => {
      const written = recordSuccessStats(this.#readStats(profileId), { now: params.now });
      this.#writeStats(profileId, written);
      this.#sql.upsertLastGood.run(params.provider, profileId);
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

  /** Own writes count once each; another process's commit is seen once per event-loop turn (read-cache.ts). */
  changeStamp(): number {
    return this.#cache.fresh().revision + this.#batchedLastUsed;
  }

  async clearExpired(profileId: string, now: number): Promise<UsageStats | undefined> {
    return this.#immediate(() => {
      const current = this.#readStats(profileId);
      if (!current) return undefined;
      const next = clearExpiredStats(current, now);
      if (JSON.stringify(next) !== JSON.stringify(current)) this.#writeStats(profileId, next);
      return next;
    });
  }

  async resetUsageStats(profileId: string): Promise<void> {
    await this.#immediate(() => {
      if (this.#readStats(profileId) === undefined) return;
      this.#lastUsed.forget(profileId);
      this.#writeStats(profileId, emptyUsageStats());
    });
  }

  async replaceUsageStats(profileId: string, stats: UsageStats | undefined): Promise<void> {
    this.#lastUsed.forget(profileId);
    await this.#write(() => {
      if (stats === undefined) this.#sql.deleteStats.run(profileId);
      else this.#writeStats(profileId, stats);
    });
  }

  // --- sessions ---

  #readSession(sessionKey: string): SessionEntry | undefined {
    const row = this.#sql.getSession.get(sessionKey);
    return row ? { ...(JSON.parse(row.entry) as Omit<SessionEntry, "sessionKey">), sessionKey } : undefined;
  }

  #writeSession(entry: SessionEntry): void {
    const { sessionKey, ...fields } = entry;
    this.#sql.upsertSession.run(sessionKey, JSON.stringify(fields), this.#now());
    this.#pruner?.noteSessionWrite();
  }

  async getSession(sessionKey: string): Promise<SessionEntry | undefined> {
    const cache = this.#cache.fresh();
    if (!cache.sessions.has(sessionKey)) cache.sessions.set(sessionKey, this.#readSession(sessionKey));
    const entry = cache.sessions.get(sessionKey);
    return entry && { ...entry };
  }

  async listSessions(): Promise<SessionEntry[]> {
    return this.#sql.listSessions
      .all()
      .map((row) => withWriteTime({ ...(JSON.parse(row.entry) as Omit<SessionEntry, "sessionKey">), sessionKey: row.session_key }, row.touched_at));
  }

  async patchSession(
    sessionKey: string,
    patch: Partial<Omit<SessionEntry, "sessionKey">>,
    _options?: WriteOptions,
  ): Promise<SessionEntry> {
    return this.#immediate(() => {
      const next = applySessionPatch(this.#readSession(sessionKey) ?? { sessionKey }, patch);
      this.#writeSession(next);
      return next;
    });
  }

  async compareAndSetSession(
    sessionKey: string,
    writes: SessionFieldWrite[],
    _options?: WriteOptions,
  ): Promise<SessionCasResult> {
    return this.#immediate(() => {
      const existing = this.#readSession(sessionKey);
      const result = applySessionCas(existing ?? { sessionKey }, writes);
      if (result.applied.length > 0) this.#writeSession(result.entry);
      return result;
    });
  }

  async deleteSession(sessionKey: string): Promise<boolean> {
    return this.#write(() => this.#sql.deleteSession.run(sessionKey).changes > 0);
  }

  async pruneSessions(params: { idleSince: number; limit?: number }): Promise<string[]> {
    const limit = params.limit ?? -1; // SQLite: a negative LIMIT means none
    if (limit === 0) return [];
    const rows = await this.#write(() => this.#sql.pruneSessions.all(params.idleSince, limit));
    return rows.map((row) => row.session_key);
  }

  async evictSessions(params: { maxCount: number; limit?: number }): Promise<string[]> {
    const rows = await this.#write(() => {
      const excess = Math.min(this.#sql.countSessions.get()!.count - params.maxCount, params.limit ?? Number.MAX_SAFE_INTEGER);
      return excess > 0 ? this.#sql.evictOldestSessions.all(excess) : [];
    });
    return rows.map((row) => row.session_key);
  }

  async countSessions(): Promise<number> {
    return this.#sql.countSessions.get()!.count;
  }

  /** The file is local: opening it proved it is there; a write that fails later says so itself. */
  async checkAvailable(): Promise<void> {
    if (this.#closed) throw new Error(`The SQLite store ${this.path} is closed.`);
  }

  // --- probe throttle ---

  async tryClaimProbe(key: string, now: number, intervalMs: number): Promise<boolean> {
    return this.#immediate(() => {
      const last = this.#sql.getProbe.get(key)?.claimed_at;
      if (last !== undefined && now - last < intervalMs) return false;
      this.#sql.upsertProbe.run(key, now);
      return true;
    });
  }

  async getLastProbeAt(key: string): Promise<number | undefined> {
    return this.#sql.getProbe.get(key)?.claimed_at;
  }

  // --- headroom readings (R-PO-7): the table lives in headroom-table.ts ---

  #headroomTable: SqliteHeadroomTable | undefined;

  get #headroom(): SqliteHeadroomTable {
    this.#headroomTable ??= new SqliteHeadroomTable(this.#db);
    return this.#headroomTable;
  }

  async recordHeadroom(profileId: string, readings: readonly HeadroomReading[], now: number): Promise<void> {
    this.#immediate(() => this.#headroom.record(profileId, readings, now));
  }

  async headroomReadings(profileIds: readonly string[], now: number): Promise<Record<string, HeadroomReading[]>> {
    return this.#headroom.read(profileIds, now);
  }

  // --- spend (R-GW-7): the table lives in spend-table.ts ---

  #spendTable: SqliteSpendTable | undefined;

  get #spend(): SqliteSpendTable {
    this.#spendTable ??= new SqliteSpendTable(this.#db);
    return this.#spendTable;
  }

  async recordSpend(profileId: string, costUsd: number, now: number): Promise<void> {
    // Spend is not in the read cache, so this write leaves the cached profiles and stats alone.
    const spend = this.#spend;
    await withLockRetry(this.path, () => this.#db.transaction(() => spend.record(profileId, costUsd, now)).immediate(), this.#lockOptions());
  }

  async spendByProfile(now: number): Promise<Record<string, number>> {
    return this.#spend.byProfile(now);
  }

  /** `PRAGMA integrity_check` result (`"ok"` when healthy), for doctor and the crash test. */
  integrityCheck(): string {
    return String(this.#db.pragma("integrity_check", { simple: true }));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pruner?.stop();
    this.#lastUsed.flush();
    this.#db.close();
  }
}
