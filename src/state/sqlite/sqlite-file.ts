/**
 * Where an agent's SQLite file lives and how it is opened: 0700 directories, a 0600 file, WAL,
 * `synchronous = NORMAL` (DESIGN §3), and a short `busy_timeout`.
 *
 * `busy_timeout` blocks the thread — the gateway's event loop — while another process holds the write
 * lock, so it is kept short and the store retries a busy transaction asynchronously with backoff instead
 * (`sqlite-retry.ts`). Opening (migrations, key check) is rare and uses the long wait.
 */
import Database from "better-sqlite3";
import { chmodSync, closeSync, mkdirSync, openSync } from "node:fs";
import { dirname, join } from "node:path";
import { assertSafeAgentId } from "../shared/agent-id.js";

export const SQLITE_FILE_NAME = "detour-agent.sqlite";
/** The longest the event loop may block on one lock attempt. */
export const BUSY_TIMEOUT_MS = 20;
/** Used only while opening the file, which is not on the request path. */
export const OPEN_BUSY_TIMEOUT_MS = 5000;

export function sqliteStatePath(detourHome: string, agentId: string): string {
  assertSafeAgentId(agentId);
  return join(detourHome, "agents", agentId, "agent", SQLITE_FILE_NAME);
}

/**
 * Opens (creating when needed) the database file. The file is created 0600 before SQLite touches it, so
 * there is no moment where it is world-readable; SQLite gives its -wal/-shm files the same mode.
 */
export function openDatabaseFile(path: string): Database.Database {
  const directory = dirname(path);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  chmodSync(directory, 0o700);
  closeSync(openSync(path, "a", 0o600));
  chmodSync(path, 0o600);
  const db = new Database(path);
  try {
    db.pragma(`busy_timeout = ${OPEN_BUSY_TIMEOUT_MS}`);
    db.pragma("journal_mode = WAL");
    // NORMAL in WAL mode: commits are not fsynced (only checkpoints are), yet a killed process loses
    // nothing it committed — the WAL frames are already in the OS. R-SB-2 forbids a flush per request.
    db.pragma("synchronous = NORMAL");
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * Opens the file for a store that keeps a table of its own beside the main store's (seats, traces, the
 * first-token summary): `prepareTable` creates or moves that table under the long open wait, then lock
 * waits turn short, as everywhere on the request path. The file is closed again when preparing fails.
 */
export function openWithOwnTable(path: string, prepareTable: (db: Database.Database) => void): Database.Database {
  const db = openDatabaseFile(path);
  try {
    prepareTable(db);
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
