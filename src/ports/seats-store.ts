/**
 * Seats (SPEC R-PO-8): how many attempts are in flight on each profile, counted where every process and
 * replica sharing the state sees the same number. A seat is a lease: it lasts `leaseMs` past the moment it
 * was taken or last renewed, so a holder that dies without releasing (SIGKILL, lost host) frees its seat
 * when the lease runs out. Three backends implement it (memory, sqlite, redis) and one contract suite
 * (`state/__fixtures__/store-contract/seats.ts`) checks them all.
 *
 * Times are the caller's clock (`now`, epoch ms) so a fake clock drives leases in tests. A seat counts as
 * held while `expiresAt > now`.
 */

/** One held seat; the token a holder renews and releases. */
export interface Seat {
  profileId: string;
  seatId: string;
  /** When the lease runs out unless renewed (epoch ms, caller's clock). */
  expiresAt: number;
}

export interface SeatClaim {
  profileId: string;
  /** The most seats the profile may have in flight at once (a whole number, at least 1). */
  limit: number;
  now: number;
  /** How long the seat lasts without a renewal. */
  leaseMs: number;
}

export interface SeatsStore {
  /**
   * Takes a seat when fewer than `limit` live seats are held on the profile, atomically with respect to
   * every other holder of the same state (no two callers can both take the last seat). Undefined: full.
   */
  tryAcquire(claim: SeatClaim): Promise<Seat | undefined>;
  /**
   * Extends a live seat to `now + leaseMs` and returns it with its new expiry. Undefined when the seat is
   * gone (released, or its lease ran out — its place may already be someone else's, so the holder must
   * take a new seat rather than count on this one).
   */
  renew(seat: Seat, now: number, leaseMs: number): Promise<Seat | undefined>;
  /** Gives the seat back at once. Releasing a seat that is already gone does nothing. */
  release(seat: Seat): Promise<void>;
  /** Live seats per profile at `now`; every profile asked about is present (0 when none). */
  inFlight(profileIds: readonly string[], now: number): Promise<Record<string, number>>;
  close(): Promise<void>;
}

/**
 * How long a seat lasts without a renewal. A replica that dies frees its seats within this (R-PO-8 asks
 * for 30 s); holders renew well inside it (`SEAT_RENEW_EVERY_MS`).
 */
export const SEAT_LEASE_MS = 20_000;
export const SEAT_RENEW_EVERY_MS = 5_000;
