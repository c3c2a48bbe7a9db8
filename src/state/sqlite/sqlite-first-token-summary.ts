/**
 * The learned first-token summary in the agent's SQLite file (R-TT-1), so every process on the host reads what
 * the gateway last wrote. One row per (provider, model), replaced on each write; expired rows are dropped then.
 */
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import {
  byModel,
  FIRST_TOKEN_SUMMARY_TTL_MS,
  type FirstTokenSummaryRow,
  type FirstTokenSummaryStore,
} from "../../ports/first-token-summary.js";
import { BUSY_TIMEOUT_MS, openWithOwnTable } from "./sqlite-file.js";

// A table of its own, created when missing: older files gain it and nothing existing is touched.
const CREATE_TABLE = `
  CREATE TABLE IF NOT EXISTS first_token_summary (
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    written_at INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (provider, model)
  );
`;

export class SqliteFirstTokenSummary implements FirstTokenSummaryStore {
  readonly #db: Database.Database;
  readonly #write: (rows: readonly FirstTokenSummaryRow[], now: number) => void;
  readonly #select: Database.Statement<[number], { body: string }>;

  private constructor(db: Database.Database) {
    this.#db = db;
    const upsert = db.prepare("INSERT OR REPLACE INTO first_token_summary (provider, model, written_at, body) VALUES (?, ?, ?, ?)");
    const dropExpired = db.prepare("DELETE FROM first_token_summary WHERE written_at <= ?");
    this.#select = db.prepare("SELECT body FROM first_token_summary WHERE written_at > ?");
    this.#write = db.transaction((rows: readonly FirstTokenSummaryRow[], now: number) => {
      for (const row of rows) upsert.run(row.provider, row.model, now, JSON.stringify(row));
      dropExpired.run(now - FIRST_TOKEN_SUMMARY_TTL_MS);
    });
  }

  static open(path: string): SqliteFirstTokenSummary {
    return new SqliteFirstTokenSummary(openWithOwnTable(path, (db) => db.exec(CREATE_TABLE)));
  }

  /**
   * For a read-only look (`detour status`): a file or table that is not there reads as empty, and nothing is
   * created — not the file, not the table.
   */
  static openForReading(path: string): FirstTokenSummaryStore {
    if (!existsSync(path)) return new EmptyFirstTokenSummary();
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'first_token_summary'").get();
      if (table === undefined) {
        db.close();
        return new EmptyFirstTokenSummary();
      }
    } catch (error) {
      db.close();
      throw error;
    }
    return new SqliteFirstTokenSummary(db);
  }

  async write(rows: readonly FirstTokenSummaryRow[], now: number): Promise<void> {
    this.#write(rows, now);
  }

  async read(now: number): Promise<FirstTokenSummaryRow[]> {
    return this.#select
      .all(now - FIRST_TOKEN_SUMMARY_TTL_MS)
      .map((row) => JSON.parse(row.body) as FirstTokenSummaryRow)
      .sort(byModel);
  }

  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}

/** Nothing was ever written here. */
class EmptyFirstTokenSummary implements FirstTokenSummaryStore {
  async write(): Promise<void> {
    throw new Error("a read-only first-token summary is never written");
  }

  async read(): Promise<FirstTokenSummaryRow[]> {
    return [];
  }

  async close(): Promise<void> {}
}
