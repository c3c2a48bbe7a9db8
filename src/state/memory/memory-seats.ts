/**
 * Seats in process memory (R-PO-8): the reference backend, for tests and single-process use. Only this
 * process counts, so nothing here is shared with other processes.
 */
import { randomUUID } from "node:crypto";
import type { Seat, SeatClaim, SeatsStore } from "../../ports/seats-store.js";

export class MemorySeats implements SeatsStore {
  /** profile id → seat id → expiresAt. */
  readonly #byProfile = new Map<string, Map<string, number>>();

  async tryAcquire(claim: SeatClaim): Promise<Seat | undefined> {
    const seats = this.#liveSeats(claim.profileId, claim.now);
    if (seats.size >= claim.limit) return undefined;
    const seat: Seat = { profileId: claim.profileId, seatId: randomUUID(), expiresAt: claim.now + claim.leaseMs };
    seats.set(seat.seatId, seat.expiresAt);
    this.#byProfile.set(claim.profileId, seats);
    return { ...seat };
  }

  async renew(seat: Seat, now: number, leaseMs: number): Promise<Seat | undefined> {
    const seats = this.#liveSeats(seat.profileId, now);
    if (!seats.has(seat.seatId)) return undefined;
    const expiresAt = now + leaseMs;
    seats.set(seat.seatId, expiresAt);
    return { ...seat, expiresAt };
  }

  async release(seat: Seat): Promise<void> {
    const seats = this.#byProfile.get(seat.profileId);
    if (!seats) return;
    seats.delete(seat.seatId);
    if (seats.size === 0) this.#byProfile.delete(seat.profileId);
  }

  async inFlight(profileIds: readonly string[], now: number): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const id of profileIds) counts[id] = this.#liveSeats(id, now).size;
    return counts;
  }

  async close(): Promise<void> {
    this.#byProfile.clear();
  }

  /** The profile's seats with expired leases dropped (a dead holder's seat frees itself here). */
  #liveSeats(profileId: string, now: number): Map<string, number> {
    const seats = this.#byProfile.get(profileId) ?? new Map<string, number>();
    for (const [seatId, expiresAt] of seats) if (expiresAt <= now) seats.delete(seatId);
    if (seats.size === 0) this.#byProfile.delete(profileId);
    return seats;
  }
}
