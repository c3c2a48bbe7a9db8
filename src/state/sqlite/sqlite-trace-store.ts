/**
 * Run traces in the agent's SQLite file (R-OB-4), through a connection of their own so trace writes never
 * sit in the state store's transactions. A ring in recording order: `seq` grows with every write, and a
 * write drops the rows more than `trace.keepRuns` writes old and those older than `trace.keepHours`.
 */
import type Database from "better-sqlite3";
import type { RunTraceV1 } from "../../core/run-trace.js";
import { matchesTraceQuery, retentionCutoff, type TraceQuery, type TraceRetention, type TraceStore } from "../../ports/trace-store.js";
import { newestWithinLimit } from "../traces/trace-order.js";
import { openWithOwnTable } from "./sqlite-file.js";

/**
 * A table of its own, created when missing: older files gain it and nothing else is touched. `seq` is the rowid
 * (recording order: SQLite gives a new row the largest rowid plus one, and the ring only ever drops its oldest
 * rows), so a write updates the table and one index: start time, which serves the age bound, time-range reads
 * and finding an earlier copy of the same run (it has the same start time). Files written before kept an
 * AUTOINCREMENT counter and a unique run-id index, two more writes per run: they are moved over on open.
 */
const CREATE_TABLE = `
  CREATE TABLE IF NOT EXISTS run_traces (
    seq INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    session_hash TEXT,
    body TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS run_traces_started ON run_traces (started_at);
`;

/** The earlier layout, recognised by its AUTOINCREMENT counter. */
const EARLIER_LAYOUT = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'run_traces' AND sql LIKE '%AUTOINCREMENT%'";

/** Moves every run of the earlier layout over, in recording order, keeping `seq`. */
const MOVE_FROM_EARLIER_LAYOUT = `
  CREATE TABLE run_traces_next (
    seq INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    session_hash TEXT,
    body TEXT NOT NULL
  );
  INSERT INTO run_traces_next (seq, run_id, started_at, session_hash, body)
    SELECT seq, run_id, started_at, session_hash, body FROM run_traces ORDER BY seq;
  DROP TABLE run_traces;
  ALTER TABLE run_traces_next RENAME TO run_traces;
  CREATE INDEX run_traces_started ON run_traces (started_at);
`;

/** Opens the table, moving a file of the earlier layout over once (whichever process opens it first). */
function prepareTable(db: Database.Database): void {
  db.transaction(() => {
    if (db.prepare(EARLIER_LAYOUT).get() !== undefined) db.exec(MOVE_FROM_EARLIER_LAYOUT);
    else db.exec(CREATE_TABLE);
  }).immediate();
}

interface BodyRow {
  body: string;
}

export interface SqliteTraceStoreOptions {
  path: string;
  retention: TraceRetention;
}

export class SqliteTraceStore implements TraceStore {
  readonly #db: Database.Database;
  readonly #retention: TraceRetention;
  readonly #insert: Database.Statement<[string, number, string | null, string]>;
  readonly #dropCopy: Database.Statement<[number, string]>;
  readonly #dropOld: Database.Statement<[number]>;
  readonly #dropSurplus: Database.Statement<[number]>;
  readonly #count: Database.Statement<[number], { n: number }>;
  readonly #select: Database.Statement<[number, number], BodyRow>;
  readonly #selectNewest: Database.Statement<[number, number], BodyRow>;
  readonly #append: (traces: readonly RunTraceV1[], now: number) => void;

  private constructor(db: Database.Database, retention: TraceRetention) {
    this.#db = db;
    this.#retention = retention;
    this.#insert = db.prepare("INSERT INTO run_traces (run_id, started_at, session_hash, body) VALUES (?, ?, ?, ?)");
    // A run recorded again keeps only its latest copy; an earlier one has the same start time.
    this.#dropCopy = db.prepare("DELETE FROM run_traces WHERE started_at = ? AND run_id = ?");
    this.#dropOld = db.prepare("DELETE FROM run_traces WHERE started_at < ?");
    this.#dropSurplus = db.prepare("DELETE FROM run_traces WHERE seq <= (SELECT MAX(seq) FROM run_traces) - ?");
    this.#count = db.prepare("SELECT COUNT(*) AS n FROM run_traces WHERE started_at >= ?");
    this.#select = db.prepare("SELECT body FROM run_traces WHERE started_at >= ? AND started_at < ?");
    // Newest first, in the reverse of the listing order (start time, then run id), for reads with a limit.
    this.#selectNewest = db.prepare(
      "SELECT body FROM run_traces WHERE started_at >= ? AND started_at < ? ORDER BY started_at DESC, run_id DESC",
    );
    // One transaction per batch: the commit is most of a write's cost, so a batch of runs pays it once.
    this.#append = db.transaction((traces: readonly RunTraceV1[], now: number) => {
      for (const trace of traces) {
        this.#dropCopy.run(trace.startedAt, trace.runId);
        this.#insert.run(trace.runId, trace.startedAt, trace.sessionHash, JSON.stringify(trace));
      }
      this.#dropOld.run(retentionCutoff(this.#retention, now));
      this.#dropSurplus.run(this.#retention.keepRuns);
    });
  }

  static open(options: SqliteTraceStoreOptions): SqliteTraceStore {
    return new SqliteTraceStore(openWithOwnTable(options.path, prepareTable), options.retention);
  }

  async append(trace: RunTraceV1, now: number): Promise<void> {
    this.#append([trace], now);
  }

  async appendMany(traces: readonly RunTraceV1[], now: number): Promise<void> {
    if (traces.length > 0) this.#append(traces, now);
  }

  async list(query: TraceQuery, now: number): Promise<RunTraceV1[]> {
    const cutoff = retentionCutoff(this.#retention, now);
    const from = Math.max(cutoff, query.since ?? cutoff);
    const until = query.until ?? Number.MAX_SAFE_INTEGER;
    if (query.limit !== undefined) {
      // Read newest first and stop at the limit: a page of recent runs parses only what it shows.
      const newest: RunTraceV1[] = [];
      if (query.limit <= 0) return newest;
      for (const row of this.#selectNewest.iterate(from, until)) {
        const trace = JSON.parse(row.body) as RunTraceV1;
        if (!matchesTraceQuery(trace, query, cutoff)) continue;
        newest.push(trace);
        if (newest.length >= query.limit) break;
      }
      return newest.reverse();
    }
    const traces = this.#select
      .all(from, until)
      .map((row) => JSON.parse(row.body) as RunTraceV1)
      .filter((trace) => matchesTraceQuery(trace, query, cutoff));
    return newestWithinLimit(traces, query.limit);
  }

  async count(now: number): Promise<number> {
    return this.#count.get(retentionCutoff(this.#retention, now))?.n ?? 0;
  }

  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}
