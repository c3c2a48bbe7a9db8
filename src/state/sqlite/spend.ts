/**
 * Spend per profile and hour in the SQLite file (R-GW-7): one row per (profile, hour), at most 24 per
 * profile — each write drops the profile's rows older than that. `SqliteSpend` is the store's spend facet.
 */
import type Database from "better-sqlite3";
import { isRecordableCost, oldestSpendHour, spendHourOf } from "../../core/spend.js";
import type { SpendStore } from "../../ports/state-store.js";
import type { Migration } from "./schema.js";
import type { SqliteConnection } from "./sqlite-connection.js";
import { withLockRetry } from "./sqlite-retry.js";

/** Additive: a new table only; older files gain it, nothing existing is touched. */
export const SPEND_MIGRATION: Migration = {
  version: 5,
  description: "spend per profile and hour",
  sql: `
    CREATE TABLE IF NOT EXISTS spend_hours (
      profile_id TEXT NOT NULL,
      hour INTEGER NOT NULL,
      cost_usd REAL NOT NULL,
      PRIMARY KEY (profile_id, hour)
    );
  `,
};

interface TotalRow {
  profile_id: string;
  total: number;
}

export class SqliteSpendTable {
  readonly #add: Database.Statement<[string, number, number]>;
  readonly #prune: Database.Statement<[string, number]>;
  readonly #totals: Database.Statement<[number, number], TotalRow>;

  constructor(db: Database.Database) {
    // An upsert adds within SQLite, so two processes charging one profile in one hour both count.
    this.#add = db.prepare(
      "INSERT INTO spend_hours (profile_id, hour, cost_usd) VALUES (?, ?, ?) " +
        "ON CONFLICT (profile_id, hour) DO UPDATE SET cost_usd = cost_usd + excluded.cost_usd",
    );
    this.#prune = db.prepare("DELETE FROM spend_hours WHERE profile_id = ? AND hour < ?");
    this.#totals = db.prepare(
      "SELECT profile_id, SUM(cost_usd) AS total FROM spend_hours WHERE hour >= ? AND hour <= ? GROUP BY profile_id",
    );
  }

  /** Runs inside the caller's `BEGIN IMMEDIATE` transaction. */
  record(profileId: string, costUsd: number, now: number): void {
    if (!isRecordableCost(costUsd)) return;
    this.#add.run(profileId, spendHourOf(now), costUsd);
    this.#prune.run(profileId, oldestSpendHour(now));
  }

  byProfile(now: number): Record<string, number> {
    const totals: Record<string, number> = {};
    for (const row of this.#totals.all(oldestSpendHour(now), spendHourOf(now))) {
      if (row.total > 0) totals[row.profile_id] = row.total;
    }
    return totals;
  }
}

export class SqliteSpend implements SpendStore {
  readonly #file: SqliteConnection;

  constructor(file: SqliteConnection) {
    this.#file = file;
  }

  async recordSpend(profileId: string, costUsd: number, now: number): Promise<void> {
    // Spend is not in the read cache, so this write leaves the cached profiles and stats alone.
    const spend = this.#file.table(SqliteSpendTable);
    const db = this.#file.db;
    await withLockRetry(
      this.#file.path,
      () => db.transaction(() => spend.record(profileId, costUsd, now)).immediate(),
      this.#file.lockOptions(),
    );
  }

  async spendByProfile(now: number): Promise<Record<string, number>> {
    return this.#file.table(SqliteSpendTable).byProfile(now);
  }
}
