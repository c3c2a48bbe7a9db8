/**
 * What the SQLite store's facets share: the open file, its prepared statements and read cache, and the
 * two ways to write — one `BEGIN IMMEDIATE` transaction or one statement — both re-run while another
 * process holds the lock (sqlite-retry.ts) and both invalidating the read cache.
 */
import type Database from "better-sqlite3";
import { noteLocalCommit, ReadCache } from "./read-cache.js";
import { withLockRetry } from "./sqlite-retry.js";
import { prepareStatements, type Statements } from "./statements.js";

type TableClass<T> = new (db: Database.Database) => T;

export class SqliteConnection {
  readonly path: string;
  readonly db: Database.Database;
  readonly sql: Statements;
  readonly cache: ReadCache;
  readonly #lockWaitMs: number | undefined;
  readonly #tables = new Map<TableClass<unknown>, unknown>();

  constructor(db: Database.Database, path: string, lockWaitMs: number | undefined) {
    this.path = path;
    this.db = db;
    this.sql = prepareStatements(db);
    this.cache = new ReadCache(db);
    this.#lockWaitMs = lockWaitMs;
  }

  /** One `BEGIN IMMEDIATE` transaction, run now: for callers that retry themselves (the lastUsed batch). */
  immediateSync<T>(work: () => T): T {
    try {
      return this.db.transaction(work).immediate();
    } finally {
      this.cache.invalidate();
      noteLocalCommit();
    }
  }

  /** One `BEGIN IMMEDIATE` transaction, re-run from the start while another process holds the lock. */
  immediate<T>(work: () => T): Promise<T> {
    return withLockRetry(this.path, () => this.immediateSync(work), this.lockOptions());
  }

  /** A single-statement write outside a transaction. */
  write<T>(work: () => T): Promise<T> {
    return withLockRetry(
      this.path,
      () => {
        try {
          return work();
        } finally {
          this.cache.invalidate();
          noteLocalCommit();
        }
      },
      this.lockOptions(),
    );
  }

  /**
   * The table a facet keeps of its own (headroom, spend), its statements prepared on first use and then
   * kept: a store that never touches the table never prepares them.
   */
  table<T>(Table: TableClass<T>): T {
    let table = this.#tables.get(Table) as T | undefined;
    if (table === undefined) {
      table = new Table(this.db);
      this.#tables.set(Table, table);
    }
    return table;
  }

  lockOptions(): { deadlineMs?: number } {
    return this.#lockWaitMs === undefined ? {} : { deadlineMs: this.#lockWaitMs };
  }

  /** lastGood per provider, from the read cache: read by the profiles and the success fast path. */
  lastGoodCached(): Map<string, string> {
    const cache = this.cache.fresh();
    cache.lastGood ??= new Map(this.sql.listLastGood.all().map((row) => [row.provider, row.profile_id]));
    return cache.lastGood;
  }
}
