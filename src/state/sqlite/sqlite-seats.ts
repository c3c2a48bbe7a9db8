/**
 * Seats in the agent's SQLite file (R-PO-8), shared by every process on the host that opens the file. One
 * row per held seat; a claim counts and inserts inside one `BEGIN IMMEDIATE` transaction, so two processes
 * can never both take a profile's last seat. Expired rows are dropped by the next claim on the profile.
 *
 * It has its own connection and its own table (created if missing, touching nothing else), so it can sit
 * beside the main store on the same file without joining its migrations.
 */
import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import type { Seat, SeatClaim, SeatsStore } from "../../ports/seats-store.js";
import { openWithOwnTable } from "./sqlite-file.js";
import { withLockRetry } from "./sqlite-retry.js";

const CREATE_TABLE = `
  CREATE TABLE IF NOT EXISTS seat_leases (
    profile_id TEXT NOT NULL,
    seat_id TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (profile_id, seat_id)
  );
`;

interface CountRow {
  held: number;
}

export class SqliteSeats implements SeatsStore {
  readonly #path: string;
  readonly #db: Database.Database;
  readonly #acquire: (claim: SeatClaim, seatId: string) => boolean;
  readonly #renew: (seat: Seat, expiresAt: number, now: number) => boolean;
  readonly #release: Database.Statement<[string, string]>;
  readonly #count: Database.Statement<[string, number], CountRow>;

  private constructor(path: string, db: Database.Database) {
    this.#path = path;
    this.#db = db;
    const dropExpired = db.prepare<[string, number]>("DELETE FROM seat_leases WHERE profile_id = ? AND expires_at <= ?");
    const count = db.prepare<[string, number], CountRow>(
      "SELECT COUNT(*) AS held FROM seat_leases WHERE profile_id = ? AND expires_at > ?",
    );
    const insert = db.prepare<[string, string, number]>("INSERT INTO seat_leases (profile_id, seat_id, expires_at) VALUES (?, ?, ?)");
    const extend = db.prepare<[number, string, string, number]>(
      "UPDATE seat_leases SET expires_at = ? WHERE profile_id = ? AND seat_id = ? AND expires_at > ?",
    );
    this.#count = count;
    this.#release = db.prepare("DELETE FROM seat_leases WHERE profile_id = ? AND seat_id = ?");
    const acquire = db.transaction((claim: SeatClaim, seatId: string): boolean => {
      dropExpired.run(claim.profileId, claim.now);
      const held = count.get(claim.profileId, claim.now)?.held ?? 0;
      if (held >= claim.limit) return false;
      insert.run(claim.profileId, seatId, claim.now + claim.leaseMs);
      return true;
    });
    // IMMEDIATE takes the write lock before the count, so no other process counts in between.
    this.#acquire = (claim, seatId) => acquire.immediate(claim, seatId);
    this.#renew = (seat, expiresAt, now) => extend.run(expiresAt, seat.profileId, seat.seatId, now).changes > 0;
  }

  /** Opens (creating when needed) the seats table in the SQLite file at `path`. */
  static open(path: string): SqliteSeats {
    return new SqliteSeats(
      path,
      openWithOwnTable(path, (db) => db.exec(CREATE_TABLE)),
    );
  }

  async tryAcquire(claim: SeatClaim): Promise<Seat | undefined> {
    const seatId = randomUUID();
    const taken = await withLockRetry(this.#path, () => this.#acquire(claim, seatId));
    return taken ? { profileId: claim.profileId, seatId, expiresAt: claim.now + claim.leaseMs } : undefined;
  }

  async renew(seat: Seat, now: number, leaseMs: number): Promise<Seat | undefined> {
    const expiresAt = now + leaseMs;
    const renewed = await withLockRetry(this.#path, () => this.#renew(seat, expiresAt, now));
    return renewed ? { ...seat, expiresAt } : undefined;
  }

  async release(seat: Seat): Promise<void> {
    await withLockRetry(this.#path, () => this.#release.run(seat.profileId, seat.seatId));
  }

  async inFlight(profileIds: readonly string[], now: number): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const id of profileIds) counts[id] = this.#count.get(id, now)?.held ?? 0;
    return counts;
  }

  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}
