/** The prepared statements of the SQLite store, prepared once per connection. */
import type Database from "better-sqlite3";

export interface StatsRow {
  stats: string;
  last_used: number | null;
}

/** What the store uses of a prepared statement (a named type keeps the declaration files emittable). */
export interface PreparedStatement<Parameters extends unknown[], Row> {
  get(...parameters: Parameters): Row | undefined;
  all(...parameters: Parameters): Row[];
  run(...parameters: Parameters): Database.RunResult;
}

function prepare<Parameters extends unknown[] = unknown[], Row = unknown>(
  db: Database.Database,
  sql: string,
): PreparedStatement<Parameters, Row> {
  return db.prepare<Parameters, Row>(sql);
}

export function prepareStatements(db: Database.Database) {
  return {
    getMeta: prepare<[string], { value: string }>(db, "SELECT value FROM meta WHERE key = ?"),
    insertMeta: prepare(db, "INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)"),
    listProfiles: prepare<[], { id: string; secret: string }>(db, "SELECT id, secret FROM profiles ORDER BY id"),
    getProfile: prepare<[string], { secret: string }>(db, "SELECT secret FROM profiles WHERE id = ?"),
    upsertProfile: prepare(
      db,
      `INSERT INTO profiles (id, provider, type, secret) VALUES (?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET provider = excluded.provider, type = excluded.type, secret = excluded.secret`,
    ),
    deleteProfile: prepare(db, "DELETE FROM profiles WHERE id = ?"),
    listOrders: prepare<[], { provider: string; profile_ids: string }>(db, "SELECT provider, profile_ids FROM stored_order"),
    getOrder: prepare<[string], { profile_ids: string }>(db, "SELECT profile_ids FROM stored_order WHERE provider = ?"),
    upsertOrder: prepare(
      db,
      `INSERT INTO stored_order (provider, profile_ids) VALUES (?, ?)
       ON CONFLICT(provider) DO UPDATE SET profile_ids = excluded.profile_ids`,
    ),
    deleteOrder: prepare(db, "DELETE FROM stored_order WHERE provider = ?"),
    getLastGood: prepare<[string], { profile_id: string }>(db, "SELECT profile_id FROM last_good WHERE provider = ?"),
    listLastGood: prepare<[], { provider: string; profile_id: string }>(db, "SELECT provider, profile_id FROM last_good ORDER BY provider"),
    upsertLastGood: prepare(
      db,
      `INSERT INTO last_good (provider, profile_id) VALUES (?, ?)
       ON CONFLICT(provider) DO UPDATE SET profile_id = excluded.profile_id`,
    ),
    deleteLastGood: prepare(db, "DELETE FROM last_good WHERE provider = ?"),
    getStats: prepare<[string], StatsRow>(db, "SELECT stats, last_used FROM usage_stats WHERE profile_id = ?"),
    listStats: prepare<[], StatsRow & { profile_id: string }>(db, "SELECT profile_id, stats, last_used FROM usage_stats"),
    upsertStats: prepare(
      db,
      `INSERT INTO usage_stats (profile_id, stats, last_used) VALUES (?, ?, ?)
       ON CONFLICT(profile_id) DO UPDATE SET stats = excluded.stats, last_used = excluded.last_used`,
    ),
    // The batched success path touches only this column, and only forwards (several processes batch).
    bumpLastUsed: prepare(
      db,
      `INSERT INTO usage_stats (profile_id, stats, last_used) VALUES (?, '{}', ?)
       ON CONFLICT(profile_id) DO UPDATE SET last_used = max(coalesce(last_used, 0), excluded.last_used)`,
    ),
    deleteStats: prepare(db, "DELETE FROM usage_stats WHERE profile_id = ?"),
    getSession: prepare<[string], { entry: string }>(db, "SELECT entry FROM sessions WHERE session_key = ?"),
    listSessions: prepare<[], { session_key: string; entry: string; touched_at: number | null }>(
      db,
      "SELECT session_key, entry, touched_at FROM sessions ORDER BY session_key",
    ),
    upsertSession: prepare<[string, string, number]>(
      db,
      `INSERT INTO sessions (session_key, entry, touched_at) VALUES (?, ?, ?)
       ON CONFLICT(session_key) DO UPDATE SET entry = excluded.entry, touched_at = excluded.touched_at`,
    ),
    deleteSession: prepare(db, "DELETE FROM sessions WHERE session_key = ?"),
    // R-GW-8: bounded by LIMIT, oldest first, in one statement (so one transaction).
    pruneSessions: prepare<[number, number], { session_key: string }>(
      db,
      `DELETE FROM sessions WHERE session_key IN (
         SELECT session_key FROM sessions WHERE touched_at IS NULL OR touched_at < ? ORDER BY touched_at LIMIT ?
       ) RETURNING session_key`,
    ),
    countSessions: prepare<[], { count: number }>(db, "SELECT count(*) AS count FROM sessions"),
    // R-GW-8 sessions.maxCount: the least recently written first (untimed ones, NULL, sort before all).
    evictOldestSessions: prepare<[number], { session_key: string }>(
      db,
      `DELETE FROM sessions WHERE session_key IN (
         SELECT session_key FROM sessions ORDER BY touched_at LIMIT ?
       ) RETURNING session_key`,
    ),
    getProbe: prepare<[string], { claimed_at: number }>(db, "SELECT claimed_at FROM probe_claims WHERE probe_key = ?"),
    upsertProbe: prepare(
      db,
      `INSERT INTO probe_claims (probe_key, claimed_at) VALUES (?, ?)
       ON CONFLICT(probe_key) DO UPDATE SET claimed_at = excluded.claimed_at`,
    ),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
