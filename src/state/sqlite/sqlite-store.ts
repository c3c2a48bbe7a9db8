/**
 * The default state backend (SPEC §16): one SQLite file per agent, shared safely by several processes on
 * one host. Every read-modify-write runs in a `BEGIN IMMEDIATE` transaction that applies the pure core
 * math (`core/cooldown.ts`); the usage-stats rules themselves live only there.
 *
 * One facet per file (profiles, usage stats, sessions, probes, headroom, spend) over one shared
 * connection (sqlite-connection.ts); this class opens the file and composes them.
 */
import { FacetedStateStore, type StoreFacets } from "../shared/faceted-store.js";
import type Database from "better-sqlite3";
import { type Logger, silentLogger } from "../../ports/events.js";
import type { StateStore } from "../../ports/state-store.js";
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

export class SqliteStateStore extends FacetedStateStore implements StateStore {
  protected readonly facets: StoreFacets;
  readonly path: string;
  readonly #file: SqliteConnection;
  readonly #secrets: SecretBox;
  readonly #logger: Logger;
  readonly #lastUsed: LastUsedBatch;
  readonly #now: () => number;
  /** Also counted in the change stamp: its batched lastUsed writes. */
  readonly #usageStats: SqliteUsageStats;
  #pruner: SessionPruner | undefined;
  #closed = false;

  private constructor(db: Database.Database, options: SqliteStateStoreOptions) {
    super();
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
    this.#usageStats = new SqliteUsageStats(this.#file, this.#lastUsed);
    this.facets = {
      profiles: new SqliteProfiles(this.#file, this.#secrets, (profileId) => this.#lastUsed.forget(profileId)),
      usageStats: this.#usageStats,
      sessions: new SqliteSessions(this.#file, this.#now, () => this.#pruner?.noteSessionWrite()),
      probes: new SqliteProbes(this.#file),
      headroom: new SqliteHeadroom(this.#file),
      spend: new SqliteSpend(this.#file),
    };
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
