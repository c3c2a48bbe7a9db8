/** The SQLite store's probe throttle (R-FB-4): one claim per key, taken inside a transaction. */
import type { ProbesStore } from "../../ports/state-store.js";
import type { SqliteConnection } from "./sqlite-connection.js";

export class SqliteProbes implements ProbesStore {
  readonly #file: SqliteConnection;

  constructor(file: SqliteConnection) {
    this.#file = file;
  }

  async tryClaimProbe(key: string, now: number, intervalMs: number): Promise<boolean> {
    return this.#file.immediate(() => {
      const last = this.#file.sql.getProbe.get(key)?.claimed_at;
      if (last !== undefined && now - last < intervalMs) return false;
      this.#file.sql.upsertProbe.run(key, now);
      return true;
    });
  }

  async getLastProbeAt(key: string): Promise<number | undefined> {
    return this.#file.sql.getProbe.get(key)?.claimed_at;
  }
}
