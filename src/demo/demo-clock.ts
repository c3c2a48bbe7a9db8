/**
 * The demo's clock: wall time plus an offset the storyline moves forward. R-SO-3 re-probes a session's
 * primary at most every 5 minutes and cooldowns last 30 s and more; a demo that must finish in under a
 * minute cannot wait for them, so it skips ahead instead ("⏩ 5 minutes later"). Only the demo's own
 * gateway runs on this clock — every rule keeps its real length, time simply passes faster. Sleeps stay
 * real (an abortable Node timer), so nothing that waits is shortened behind the rules' back.
 */
import type { Clock } from "../ports/clock.js";
import { systemClock } from "../ports/system-clock.js";

export class DemoClock implements Clock {
  #offsetMs = 0;
  readonly #wallNow: () => number;

  constructor(wallNow: () => number = Date.now) {
    this.#wallNow = wallNow;
  }

  now(): number {
    return this.#wallNow() + this.#offsetMs;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return systemClock.sleep(ms, signal);
  }

  setTimer(ms: number, fire: () => void): () => void {
    return systemClock.setTimer(ms, fire);
  }

  /** How far the demo has skipped ahead of the wall clock. */
  get skippedMs(): number {
    return this.#offsetMs;
  }

  /** Moves the clock forward; time never runs backwards, so a negative or non-finite skip is refused. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`DemoClock.advance expects a non-negative number of ms, got ${ms}.`);
    this.#offsetMs += ms;
  }
}
