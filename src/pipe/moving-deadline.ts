/**
 * ONE timer of the injected Clock for a deadline that moves on with every upstream read (SPEC R-ST-1, R-ST-2,
 * R-ST-6 watchdogs): when the timer fires early (the deadline moved since it was armed) it is armed again
 * for the rest, so reads cost no timer work at all. `clear` stops the watch without cancelling the timer
 * (it fires, finds nothing to watch and stays down), because a stream clears and sets its deadline around
 * almost every read.
 */
import type { Clock } from "../ports/clock.js";

export class MovingDeadline {
  #deadline = Number.POSITIVE_INFINITY;
  #cancel: (() => void) | undefined;
  #dueAt = 0;

  constructor(
    private readonly clock: Clock,
    private readonly onExpired: () => void,
  ) {}

  /** Expires at `deadline` (epoch ms of the clock) unless set again or cleared before. */
  set(deadline: number): void {
    this.#deadline = deadline;
    // A running timer due before the new deadline re-arms itself when it fires.
    if (this.#cancel && this.#dueAt <= deadline) return;
    this.#arm();
  }

  /** Nothing to watch until the next `set`. */
  clear(): void {
    this.#deadline = Number.POSITIVE_INFINITY;
  }

  /** Cancels the timer: the watch is over. */
  stop(): void {
    this.#deadline = Number.POSITIVE_INFINITY;
    this.#cancel?.();
    this.#cancel = undefined;
  }

  #arm(): void {
    this.#cancel?.();
    this.#dueAt = this.#deadline;
    this.#cancel = this.clock.setTimer(Math.max(0, this.#deadline - this.clock.now()), this.#fire);
  }

  readonly #fire = (): void => {
    this.#cancel = undefined;
    if (this.#deadline === Number.POSITIVE_INFINITY) return;
    if (this.clock.now() < this.#deadline) this.#arm();
    else this.onExpired();
  };
}
