/**
 * Headroom readings in the SQLite file (R-PO-7): one row per (profile, model scope, window), replaced by
 * the latest reading. Rows past their reset are never returned and are deleted on the profile's next write.
 * `SqliteHeadroom` is the store's headroom facet over that table.
 */
import type Database from "better-sqlite3";
import { isFresh, mergeReadings, readingSlot, type HeadroomReading } from "../../core/headroom/reading.js";
import type { HeadroomStore } from "../../ports/state-store.js";
import type { Migration } from "./schema.js";
import type { SqliteConnection } from "./sqlite-connection.js";

/** Additive: a new table only; older files gain it, nothing existing is touched. */
export const HEADROOM_MIGRATION: Migration = {
  version: 4,
  description: "headroom readings",
  sql: `
    CREATE TABLE IF NOT EXISTS headroom_readings (
      profile_id TEXT NOT NULL,
      slot TEXT NOT NULL,
      reading TEXT NOT NULL,
      reset_at INTEGER NOT NULL,
      PRIMARY KEY (profile_id, slot)
    );
  `,
};

interface ReadingRow {
  reading: string;
}

export class SqliteHeadroomTable {
  readonly #db: Database.Database;
  readonly #select: Database.Statement<[string, number], ReadingRow>;
  readonly #selectAll: Database.Statement<[string], ReadingRow>;
  readonly #deleteProfile: Database.Statement<[string]>;
  readonly #insert: Database.Statement<[string, string, string, number]>;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#select = db.prepare("SELECT reading FROM headroom_readings WHERE profile_id = ? AND reset_at > ?");
    this.#selectAll = db.prepare("SELECT reading FROM headroom_readings WHERE profile_id = ?");
    this.#deleteProfile = db.prepare("DELETE FROM headroom_readings WHERE profile_id = ?");
    this.#insert = db.prepare("INSERT INTO headroom_readings (profile_id, slot, reading, reset_at) VALUES (?, ?, ?, ?)");
  }

  /** Runs inside the caller's `BEGIN IMMEDIATE` transaction, so two processes never lose a reading. */
  record(profileId: string, readings: readonly HeadroomReading[], now: number): void {
    const current = this.#selectAll.all(profileId).map((row) => JSON.parse(row.reading) as HeadroomReading);
    const merged = mergeReadings(current, readings, now);
    this.#deleteProfile.run(profileId);
    for (const reading of merged) {
      this.#insert.run(profileId, readingSlot(reading), JSON.stringify(reading), reading.resetAt);
    }
  }

  read(profileIds: readonly string[], now: number): Record<string, HeadroomReading[]> {
    const found: Record<string, HeadroomReading[]> = {};
    for (const id of new Set(profileIds)) {
      const fresh = this.#select
        .all(id, now)
        .map((row) => JSON.parse(row.reading) as HeadroomReading)
        .filter((reading) => isFresh(reading, now));
      if (fresh.length > 0) found[id] = fresh;
    }
    return found;
  }
}

export class SqliteHeadroom implements HeadroomStore {
  readonly #file: SqliteConnection;

  constructor(file: SqliteConnection) {
    this.#file = file;
  }

  async recordHeadroom(profileId: string, readings: readonly HeadroomReading[], now: number): Promise<void> {
    this.#file.immediate(() => this.#file.table(SqliteHeadroomTable).record(profileId, readings, now));
  }

  async headroomReadings(profileIds: readonly string[], now: number): Promise<Record<string, HeadroomReading[]>> {
    return this.#file.table(SqliteHeadroomTable).read(profileIds, now);
  }
}
