/** The SQLite store's sessions facet (R-SO-1…R-SO-4), each row dated by its last write (R-GW-8). */
import type { SessionEntry } from "../../core/types.js";
import type { SessionCasResult, SessionFieldWrite, SessionsStore, WriteOptions } from "../../ports/state-store.js";
import { applySessionCas, applySessionPatch, withWriteTime } from "../shared/session-writes.js";
import type { SqliteConnection } from "./sqlite-connection.js";

export class SqliteSessions implements SessionsStore {
  readonly #file: SqliteConnection;
  readonly #now: () => number;
  /** Told of every session write, so retention sweeps when there is something to sweep. */
  readonly #onWrite: () => void;

  constructor(file: SqliteConnection, now: () => number, onWrite: () => void) {
    this.#file = file;
    this.#now = now;
    this.#onWrite = onWrite;
  }

  #readSession(sessionKey: string): SessionEntry | undefined {
    const row = this.#file.sql.getSession.get(sessionKey);
    return row ? { ...(JSON.parse(row.entry) as Omit<SessionEntry, "sessionKey">), sessionKey } : undefined;
  }

  #writeSession(entry: SessionEntry): void {
    const { sessionKey, ...fields } = entry;
    this.#file.sql.upsertSession.run(sessionKey, JSON.stringify(fields), this.#now());
    this.#onWrite();
  }

  async getSession(sessionKey: string): Promise<SessionEntry | undefined> {
    const cache = this.#file.cache.fresh();
    if (!cache.sessions.has(sessionKey)) cache.sessions.set(sessionKey, this.#readSession(sessionKey));
    const entry = cache.sessions.get(sessionKey);
    return entry && { ...entry };
  }

  async listSessions(): Promise<SessionEntry[]> {
    return this.#file.sql.listSessions
      .all()
      .map((row) =>
        withWriteTime({ ...(JSON.parse(row.entry) as Omit<SessionEntry, "sessionKey">), sessionKey: row.session_key }, row.touched_at),
      );
  }

  async patchSession(sessionKey: string, patch: Partial<Omit<SessionEntry, "sessionKey">>, _options?: WriteOptions): Promise<SessionEntry> {
    return this.#file.immediate(() => {
      const next = applySessionPatch(this.#readSession(sessionKey) ?? { sessionKey }, patch);
      this.#writeSession(next);
      return next;
    });
  }

  async compareAndSetSession(sessionKey: string, writes: SessionFieldWrite[], _options?: WriteOptions): Promise<SessionCasResult> {
    return this.#file.immediate(() => {
      const existing = this.#readSession(sessionKey);
      const result = applySessionCas(existing ?? { sessionKey }, writes);
      if (result.applied.length > 0) this.#writeSession(result.entry);
      return result;
    });
  }

  async deleteSession(sessionKey: string): Promise<boolean> {
    return this.#file.write(() => this.#file.sql.deleteSession.run(sessionKey).changes > 0);
  }

  async pruneSessions(params: { idleSince: number; limit?: number }): Promise<string[]> {
    const limit = params.limit ?? -1; // SQLite: a negative LIMIT means none
    if (limit === 0) return [];
    const rows = await this.#file.write(() => this.#file.sql.pruneSessions.all(params.idleSince, limit));
    return rows.map((row) => row.session_key);
  }

  async evictSessions(params: { maxCount: number; limit?: number }): Promise<string[]> {
    const sql = this.#file.sql;
    const rows = await this.#file.write(() => {
      const excess = Math.min(sql.countSessions.get()!.count - params.maxCount, params.limit ?? Number.MAX_SAFE_INTEGER);
      return excess > 0 ? sql.evictOldestSessions.all(excess) : [];
    });
    return rows.map((row) => row.session_key);
  }

  async countSessions(): Promise<number> {
    return this.#file.sql.countSessions.get()!.count;
  }
}
