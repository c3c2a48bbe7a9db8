/**
 * SQLite schema and forward migrations (SPEC R-SB-1). Each migration runs once, in order, inside one
 * `BEGIN IMMEDIATE` transaction, and is recorded in `schema_version`; several processes opening the same
 * file at once serialise on that transaction, and the later ones find nothing left to do.
 */
import type Database from "better-sqlite3";
import { StateSchemaTooNewError } from "../state-errors.js";
import { HEADROOM_MIGRATION } from "./headroom.js";
import { SPEND_MIGRATION } from "./spend.js";

export interface Migration {
  version: number;
  description: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: "profiles, stored order, lastGood, usage stats, sessions, probe claims",
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE profiles (
        id TEXT PRIMARY KEY,
        provider TEXT NOT NULL,
        type TEXT NOT NULL,
        secret TEXT NOT NULL
      );
      CREATE TABLE stored_order (provider TEXT PRIMARY KEY, profile_ids TEXT NOT NULL);
      CREATE TABLE last_good (provider TEXT PRIMARY KEY, profile_id TEXT NOT NULL);
      CREATE TABLE usage_stats (profile_id TEXT PRIMARY KEY, stats TEXT NOT NULL);
      CREATE TABLE sessions (session_key TEXT PRIMARY KEY, entry TEXT NOT NULL);
      CREATE TABLE probe_claims (probe_key TEXT PRIMARY KEY, claimed_at INTEGER NOT NULL);
    `,
  },
  {
    version: 2,
    description: "lastUsed in its own column",
    // The success path batches lastUsed (R-SB-2: no synchronous flush per request). Keeping it out of the
    // stats JSON lets a batched write touch only this column, so it can never overwrite a cooldown,
    // disable or block that another process recorded in the meantime.
    sql: `
      ALTER TABLE usage_stats ADD COLUMN last_used INTEGER;
      UPDATE usage_stats
         SET last_used = json_extract(stats, '$.lastUsed'),
             stats = json_remove(stats, '$.lastUsed');
    `,
  },
  {
    version: 3,
    description: "when each session was last written",
    // R-GW-8: idle sessions are pruned. Sessions from before this version start ageing at the upgrade.
    sql: `
      ALTER TABLE sessions ADD COLUMN touched_at INTEGER;
      UPDATE sessions SET touched_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000;
      CREATE INDEX sessions_touched_at ON sessions (touched_at);
    `,
  },
  HEADROOM_MIGRATION,
  SPEND_MIGRATION,
];

export const SCHEMA_VERSION = MIGRATIONS.reduce((highest, migration) => Math.max(highest, migration.version), 0);

function currentVersion(db: Database.Database): number {
  const row = db.prepare("SELECT max(version) AS version FROM schema_version").get() as { version: number | null };
  return row.version ?? 0;
}

/**
 * Brings the file up to `targetVersion` (default: the newest). Returns the versions it applied.
 * `now` is only written into `schema_version.applied_at` for operators reading the file.
 */
export function migrate(db: Database.Database, options: { path: string; now: number; targetVersion?: number }): number[] {
  const target = options.targetVersion ?? SCHEMA_VERSION;
  db.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)");
  const run = db.transaction((): number[] => {
    const from = currentVersion(db);
    if (from > SCHEMA_VERSION) throw new StateSchemaTooNewError(options.path, from, SCHEMA_VERSION);
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (migration.version <= from || migration.version > target) continue;
      db.exec(migration.sql);
      db.prepare("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)").run(migration.version, options.now);
      applied.push(migration.version);
    }
    return applied;
  });
  return run.immediate();
}

export function readSchemaVersion(db: Database.Database): number {
  return currentVersion(db);
}
