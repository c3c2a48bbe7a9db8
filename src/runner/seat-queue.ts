/**
 * The line requests wait in when every usable profile of every candidate is full (R-PO-8): first come, first
 * served, at most `max` waiting, each for at most `timeoutMs`. One per process; it holds no seats itself —
 * a waiter that is woken tries to take a seat again and, failing, rejoins at the front with its first deadline.
 *
 * A seat freed in this process wakes the first waiter at once (`notify`). Seats freed by other processes or
 * replicas cannot be heard, so while anyone waits the first waiter is also woken every `pollMs` to look.
 */
import type { Clock } from "../ports/clock.js";

/** Why a wait ended: woken to try again, the deadline passed, the line was full, or the client left. */
export type SeatWaitOutcome = "woken" | "timed_out" | "full" | "left";

export interface SeatQueueOptions {
  /** `gateway.queueMax`: 0 means nobody waits. */
  max: number;
  /** `gateway.queueTimeoutSeconds` in ms: 0 means nobody waits. */
  timeoutMs: number;
  /** How often the first waiter looks for seats other processes freed. */
  pollMs?: number;
}

export interface SeatWaitOptions {
  signal?: AbortSignal;
  /** A waiter rejoining after a failed retry keeps its place at the front and its first deadline. */
  rejoin?: { deadline: number };
  /** A newcomer that may wait less than `timeoutMs` (a continuation of a stream the client is reading). */
  deadline?: number;
  /** The full profiles the request waits for: counted per profile in `/status` and the dashboard. */
  profileIds?: readonly string[];
}

interface Waiter {
  deadline: number;
  profileIds: readonly string[];
  settle: (outcome: SeatWaitOutcome) => void;
}

export const DEFAULT_SEAT_POLL_MS = 250;

export class SeatQueue {
  readonly #clock: Clock;
  readonly #max: number;
  readonly #timeoutMs: number;
  readonly #pollMs: number;
  readonly #waiters: Waiter[] = [];
  #cancelPoll: (() => void) | undefined;

  constructor(clock: Clock, options: SeatQueueOptions) {
    this.#clock = clock;
    this.#max = options.max;
    this.#timeoutMs = options.timeoutMs;
    this.#pollMs = options.pollMs ?? DEFAULT_SEAT_POLL_MS;
  }

  /** How many requests are waiting now (`detour_queue_length`). */
  get length(): number {
    return this.#waiters.length;
  }

  /** Waiters per profile they wait for (a waiter counts once for each full profile it could use). */
  waitingFor(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const waiter of this.#waiters) for (const id of waiter.profileIds) counts[id] = (counts[id] ?? 0) + 1;
    return counts;
  }

  /** The deadline a new waiter gets: callers keep it to rejoin with after a failed retry. */
  deadlineFromNow(): number {
    return this.#clock.now() + this.#timeoutMs;
  }

  wait(options: SeatWaitOptions = {}): Promise<SeatWaitOutcome> {
    const { signal, rejoin } = options;
    if (signal?.aborted) return Promise.resolve("left");
    const deadline = rejoin?.deadline ?? Math.min(options.deadline ?? Infinity, this.deadlineFromNow());
    const remaining = deadline - this.#clock.now();
    if (remaining <= 0) return Promise.resolve(rejoin ? "timed_out" : "full");
    // A rejoining waiter already had its place; only newcomers count against the bound.
    if (!rejoin && this.#waiters.length >= this.#max) return Promise.resolve("full");
    return new Promise<SeatWaitOutcome>((resolve) => {
      const waiter: Waiter = {
        deadline,
        profileIds: options.profileIds ?? [],
        settle: (outcome) => {
          cancelDeadline();
          signal?.removeEventListener("abort", onAbort);
          this.#remove(waiter);
          resolve(outcome);
        },
      };
      const cancelDeadline = this.#clock.setTimer(remaining, () => waiter.settle("timed_out"));
      const onAbort = () => waiter.settle("left");
      signal?.addEventListener("abort", onAbort, { once: true });
      if (rejoin) this.#waiters.unshift(waiter);
      else this.#waiters.push(waiter);
      this.#schedulePoll();
    });
  }

  /** Seats were freed in this process: wakes that many waiters, first in line first. */
  notify(freed = 1): void {
    for (let woken = 0; woken < freed; woken += 1) {
      const first = this.#waiters[0];
      if (!first) return;
      first.settle("woken");
    }
  }

  #remove(waiter: Waiter): void {
    const index = this.#waiters.indexOf(waiter);
    if (index >= 0) this.#waiters.splice(index, 1);
    if (this.#waiters.length === 0) {
      this.#cancelPoll?.();
      this.#cancelPoll = undefined;
    }
  }

  #schedulePoll(): void {
    if (this.#cancelPoll) return;
    this.#cancelPoll = this.#clock.setTimer(this.#pollMs, () => {
      this.#cancelPoll = undefined;
      this.notify(1);
      if (this.#waiters.length > 0) this.#schedulePoll();
    });
  }
}
