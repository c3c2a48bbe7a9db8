/**
 * Seats of one agent (R-PO-8): takes a seat for each attempt on a profile with a limit, renews it while the
 * attempt runs (a stream can outlive a lease) and gives it back when the attempt ends, then wakes the first
 * request waiting in line. A profile without a limit takes no seat: only an in-process count is kept, so a
 * config without limits never opens the seats store.
 *
 * Learned caps (a 429 naming a concurrency limit) live here, in memory: a config reload builds a new keeper,
 * which clears them.
 */
import { effectiveSeatLimit, LEARNED_SEAT_CAP_MS, learnedSeatCap } from "../core/seat-limit.js";
import type { Clock } from "../ports/clock.js";
import { SEAT_LEASE_MS, SEAT_RENEW_EVERY_MS, type Seat, type SeatsStore } from "../ports/seats-store.js";
import type { SeatQueue } from "./seat-queue.js";

/** How long a seats store that failed to open is not asked again. */
const STORE_RETRY_AFTER_MS = 5_000;

export type SeatStoreOperation = "takeSeat" | "renewSeat" | "releaseSeat";

export interface SeatKeeperOptions {
  clock: Clock;
  /** Opened on first use, so a process whose profiles set no limit never opens it. */
  store: () => Promise<SeatsStore>;
  /** One line per process, shared by every agent. */
  queue: SeatQueue;
  /** The configured seats of a profile: `maxConcurrent`, else its provider's `maxConcurrentPerProfile`. */
  configuredLimit(profileId: string, provider: string): number | undefined;
  /**
   * The store failed: the attempt runs without a seat rather than not at all (a Redis outage must not stop
   * every request), and the failure is reported here.
   */
  onStoreError?(operation: SeatStoreOperation, profileId: string, error: unknown): void;
  leaseMs?: number;
  renewEveryMs?: number;
  learnedCapMs?: number;
}

/** An attempt's place on a profile; `release` is safe to call more than once. */
export interface SeatHold {
  release(): void;
}

/** A seat of the shared store held by one attempt; `seat` is undefined once given back or lost. */
interface HeldSeat {
  readonly profileId: string;
  readonly provider: string;
  readonly takenLimit: number;
  seat: Seat | undefined;
  released: boolean;
}

export type SeatTake = { kind: "held"; hold: SeatHold } | { kind: "full"; limit: number };

export class SeatKeeper {
  readonly queue: SeatQueue;
  readonly #options: SeatKeeperOptions;
  readonly #leaseMs: number;
  readonly #renewEveryMs: number;
  /** Attempts in flight in this process, per profile, limited or not. */
  readonly #local = new Map<string, number>();
  readonly #learned = new Map<string, { cap: number; until: number }>();
  /** Seats held in the shared store by attempts of this process, renewed together. */
  readonly #held = new Set<HeldSeat>();
  #cancelRenewals: (() => void) | undefined;
  #store: Promise<SeatsStore> | undefined;
  #closed = false;

  constructor(options: SeatKeeperOptions) {
    this.#options = options;
    this.queue = options.queue;
    this.#leaseMs = options.leaseMs ?? SEAT_LEASE_MS;
    this.#renewEveryMs = options.renewEveryMs ?? SEAT_RENEW_EVERY_MS;
  }

  /** The seats the profile may use now; undefined = no limit. */
  limitOf(profileId: string, provider: string): number | undefined {
    return effectiveSeatLimit(this.#options.configuredLimit(profileId, provider), this.#learnedCap(profileId));
  }

  /** Takes a seat for one attempt, or says the profile is full. */
  async take(profileId: string, provider: string): Promise<SeatTake> {
    const limit = this.limitOf(profileId, provider);
    if (limit === undefined) return { kind: "held", hold: this.#localHold(profileId) };
    // This process alone fills the profile (also its attempts that began before a cap was learned, which
    // hold no shared seat): no need to ask the store.
    if (this.localInFlight(profileId) >= limit) return { kind: "full", limit };
    let seat: Seat | undefined;
    try {
      const store = await this.#openStore();
      seat = await store.tryAcquire({ profileId, limit, now: this.#options.clock.now(), leaseMs: this.#leaseMs });
    } catch (error) {
      this.#options.onStoreError?.("takeSeat", profileId, error);
      return { kind: "held", hold: this.#localHold(profileId) };
    }
    if (!seat) return { kind: "full", limit };
    // Seats freed by other replicas are only found by looking: one found may mean more, so the next waiter
    // looks at once rather than at the next poll.
    if (this.queue.length > 0) this.queue.notify();
    return { kind: "held", hold: this.#storeHold(seat, provider, limit) };
  }

  /**
   * A 429 naming a concurrency limit came back on the profile: its seats become what else was in flight on it
   * then, for a while. Undefined (nothing learned) when nothing else was in flight.
   */
  async learnFromRefusal(profileId: string, provider: string): Promise<{ cap: number; until: number } | undefined> {
    const others = await this.#othersInFlight(profileId, provider);
    const cap = learnedSeatCap(others);
    if (cap === undefined) return undefined;
    const current = this.#learnedCap(profileId);
    const learned = {
      cap: current === undefined ? cap : Math.min(current, cap),
      until: this.#options.clock.now() + (this.#options.learnedCapMs ?? LEARNED_SEAT_CAP_MS),
    };
    this.#learned.set(profileId, learned);
    return learned;
  }

  /** Attempts in flight in this process on the profile. */
  localInFlight(profileId: string): number {
    return this.#local.get(profileId) ?? 0;
  }

  /**
   * In flight per profile for status: the shared count (every process and replica) for profiles with a
   * limit, this process's count for the rest; a store that was never needed is not opened for it.
   */
  async inFlight(profiles: readonly { id: string; provider: string }[]): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    const limited: string[] = [];
    for (const { id, provider } of profiles) {
      counts[id] = this.localInFlight(id);
      if (this.limitOf(id, provider) !== undefined) limited.push(id);
    }
    if (limited.length === 0) return counts;
    try {
      const shared = await (await this.#openStore()).inFlight(limited, this.#options.clock.now());
      for (const id of limited) counts[id] = Math.max(shared[id] ?? 0, counts[id] ?? 0);
    } catch {
      // Status shows this process's count when the store cannot answer.
    }
    return counts;
  }

  async close(): Promise<void> {
    // Seats still held give themselves back through the store until now; after it, their leases run out.
    this.#closed = true;
    this.#stopRenewals();
    const store = this.#store;
    this.#store = undefined;
    if (store) await (await store.catch(() => undefined))?.close();
  }

  #openStore(): Promise<SeatsStore> {
    if (this.#closed) return Promise.reject(new Error("the seats store is closed"));
    if (!this.#store) {
      const opened = this.#options.store();
      this.#store = opened;
      // A failed open answers every attempt at once for a while (they run without seats), then is tried again:
      // a Redis that is down must not cost each attempt its connect timeout.
      opened.catch(() => {
        this.#options.clock.setTimer(STORE_RETRY_AFTER_MS, () => {
          if (this.#store === opened) this.#store = undefined;
        });
      });
    }
    return this.#store;
  }

  #learnedCap(profileId: string): number | undefined {
    const learned = this.#learned.get(profileId);
    if (!learned) return undefined;
    if (learned.until > this.#options.clock.now()) return learned.cap;
    this.#learned.delete(profileId);
    return undefined;
  }

  async #othersInFlight(profileId: string, provider: string): Promise<number> {
    if (this.#options.configuredLimit(profileId, provider) === undefined && this.#learnedCap(profileId) === undefined) {
      return this.localInFlight(profileId);
    }
    try {
      const shared = await (await this.#openStore()).inFlight([profileId], this.#options.clock.now());
      return Math.max(shared[profileId] ?? 0, this.localInFlight(profileId));
    } catch {
      return this.localInFlight(profileId);
    }
  }

  #count(profileId: string, delta: number): void {
    const count = (this.#local.get(profileId) ?? 0) + delta;
    if (count > 0) this.#local.set(profileId, count);
    else this.#local.delete(profileId);
  }

  #localHold(profileId: string): SeatHold {
    this.#count(profileId, 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#count(profileId, -1);
        // A learned cap may hold this profile to what this process has in flight: a waiter may use the room.
        if (this.#learned.has(profileId)) this.queue.notify();
      },
    };
  }

  #storeHold(taken: Seat, provider: string, takenLimit: number): SeatHold {
    const held: HeldSeat = { profileId: taken.profileId, provider, takenLimit, seat: taken, released: false };
    this.#count(held.profileId, 1);
    this.#held.add(held);
    this.#scheduleRenewals();
    return {
      release: () => {
        if (held.released) return;
        held.released = true;
        this.#held.delete(held);
        if (this.#held.size === 0) this.#stopRenewals();
        this.#count(held.profileId, -1);
        const seat = held.seat;
        held.seat = undefined;
        if (!seat) return this.queue.notify();
        this.#openStore()
          .then((store) => store.release(seat))
          .catch((error: unknown) => {
            if (!this.#closed) this.#options.onStoreError?.("releaseSeat", held.profileId, error);
          })
          .finally(() => this.queue.notify());
      },
    };
  }

  /**
   * One timer for every seat this keeper holds, not one per attempt: arming and clearing a timer per attempt
   * cost more than its seat's round trips. Each round renews every held seat in the same turn of the event
   * loop, so the Redis client sends them in one write. A seat taken just after a round is renewed by the
   * next, well inside its lease (`SEAT_RENEW_EVERY_MS` is a quarter of `SEAT_LEASE_MS`).
   */
  #scheduleRenewals(): void {
    if (this.#cancelRenewals || this.#closed || this.#held.size === 0) return;
    this.#cancelRenewals = this.#options.clock.setTimer(this.#renewEveryMs, () => {
      void this.#renewAll().finally(() => {
        this.#cancelRenewals = undefined;
        this.#scheduleRenewals();
      });
    });
  }

  #stopRenewals(): void {
    this.#cancelRenewals?.();
    this.#cancelRenewals = undefined;
  }

  async #renewAll(): Promise<void> {
    const held = [...this.#held];
    let store: SeatsStore;
    try {
      store = await this.#openStore();
    } catch (error) {
      if (!this.#closed) for (const seat of held) this.#options.onStoreError?.("renewSeat", seat.profileId, error);
      return;
    }
    await Promise.all(
      held.map((seat) =>
        this.#renew(store, seat).catch((error: unknown) => {
          if (!this.#closed) this.#options.onStoreError?.("renewSeat", seat.profileId, error);
        }),
      ),
    );
  }

  async #renew(store: SeatsStore, held: HeldSeat): Promise<void> {
    const { clock } = this.#options;
    const current = held.seat;
    const renewed = current ? await store.renew(current, clock.now(), this.#leaseMs) : undefined;
    if (held.released) {
      // Released while the renewal was on its way: the renewal may have put the seat back; take it out again.
      if (renewed) await store.release(renewed);
      return;
    }
    // A lease that ran out (the process stalled past it) is taken again if there is room; otherwise the
    // attempt finishes without one rather than being cut.
    held.seat =
      renewed ??
      (await store.tryAcquire({
        profileId: held.profileId,
        limit: this.limitOf(held.profileId, held.provider) ?? held.takenLimit,
        now: clock.now(),
        leaseMs: this.#leaseMs,
      }));
    if (held.released && held.seat) {
      const seat = held.seat;
      held.seat = undefined;
      await store.release(seat);
    }
  }
}
