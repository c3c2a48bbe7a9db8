/**
 * A `Clock` whose time moves only when a test says so. Sleeps resolve when the test advances past
 * their deadline, in deadline order (ties in the order they started), so timing rules — ladders,
 * throttles, retry waits, probes every 5 minutes — are tested without waiting.
 *
 * Like a real machine, it keeps two times: the wall clock read by `now()` and a monotonic timeline
 * that sleeps run on. `advance` moves both; `set` moves only the wall clock (an NTP step or a manual
 * clock change), which does not wake or delay any sleeper — exactly how `setTimeout` behaves.
 */
import type { Clock } from "../ports/clock.js";

/** 2025-01-01T00:00:00Z — a realistic epoch so code that treats `0` as "unset" is exercised honestly. */
export const FAKE_CLOCK_DEFAULT_START_MS = 1_735_689_600_000;

interface Sleeper {
  dueAt: number;
  order: number;
  wake: () => void;
}

export class FakeClock implements Clock {
  #wallMs: number;
  #monotonicMs = 0;
  #nextOrder = 0;
  readonly #sleepers = new Set<Sleeper>();

  constructor(startMs: number = FAKE_CLOCK_DEFAULT_START_MS) {
    this.#wallMs = requireFinite(startMs, "startMs");
  }

  now(): number {
    return this.#wallMs;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError());
    // Same convention as setTimeout: NaN and non-positive delays do not wait on a timer.
    if (!(ms > 0)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.#sleepers.delete(sleeper);
        reject(abortError());
      };
      const sleeper: Sleeper = {
        dueAt: this.#monotonicMs + ms,
        order: this.#nextOrder++,
        wake: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      this.#sleepers.add(sleeper);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** A timer is a sleeper that calls `fire` when due; cancelling removes it (it then never fires). */
  setTimer(ms: number, fire: () => void): () => void {
    const sleeper: Sleeper = { dueAt: this.#monotonicMs + (ms > 0 ? ms : 0), order: this.#nextOrder++, wake: fire };
    this.#sleepers.add(sleeper);
    return () => void this.#sleepers.delete(sleeper);
  }

  /** How many sleeps (and timers) are waiting for time to pass. */
  get pendingSleeps(): number {
    return this.#sleepers.size;
  }

  /** Milliseconds until the earliest pending sleep is due, or undefined when none waits. */
  get nextSleepInMs(): number | undefined {
    const next = this.#earliest(Number.POSITIVE_INFINITY);
    return next === undefined || next.dueAt === Number.POSITIVE_INFINITY ? undefined : next.dueAt - this.#monotonicMs;
  }

  /**
   * Moves time forward and wakes every sleep due by then, in order. Synchronous: code that continues
   * after a woken sleep runs only after the caller yields, so a sleep it starts then is not woken by
   * this call even if it would fall inside the window. Use {@link advanceAsync} for that.
   */
  advance(ms: number): void {
    const target = this.#monotonicMs + requireNonNegative(ms);
    for (let sleeper = this.#earliest(target); sleeper; sleeper = this.#earliest(target)) {
      this.#wake(sleeper);
    }
    this.#moveTo(target);
  }

  /**
   * Moves time forward step by step: wakes the earliest due sleep, lets the woken code run until it
   * waits again, and repeats — so chains of sleeps started inside the window also complete, each
   * seeing `now()` at its own deadline. Resolves after pending microtasks settle at the end time.
   */
  async advanceAsync(ms: number): Promise<void> {
    const target = this.#monotonicMs + requireNonNegative(ms);
    await flushMicrotasks();
    for (let sleeper = this.#earliest(target); sleeper; sleeper = this.#earliest(target)) {
      this.#wake(sleeper);
      await flushMicrotasks();
    }
    this.#moveTo(target);
    await flushMicrotasks();
  }

  /** Sets the wall clock (may go backwards). Sleeps are measured on the monotonic timeline and are untouched. */
  set(ms: number): void {
    this.#wallMs = requireFinite(ms, "ms");
  }

  #earliest(limit: number): Sleeper | undefined {
    let best: Sleeper | undefined;
    for (const sleeper of this.#sleepers) {
      if (sleeper.dueAt > limit) continue;
      if (!best || sleeper.dueAt < best.dueAt || (sleeper.dueAt === best.dueAt && sleeper.order < best.order)) {
        best = sleeper;
      }
    }
    return best;
  }

  #wake(sleeper: Sleeper): void {
    this.#moveTo(sleeper.dueAt);
    this.#sleepers.delete(sleeper);
    sleeper.wake();
  }

  #moveTo(monotonicMs: number): void {
    this.#wallMs += monotonicMs - this.#monotonicMs;
    this.#monotonicMs = monotonicMs;
  }
}

function abortError(): DOMException {
  return new DOMException("The operation was aborted.", "AbortError");
}

/**
 * Lets every queued promise reaction run. A macrotask turn starts only after the microtask queue is
 * empty, so one `setImmediate` covers arbitrarily long `await` chains.
 */
function flushMicrotasks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function requireFinite(value: number, name: string): number {
  if (!Number.isFinite(value)) throw new RangeError(`FakeClock: ${name} must be a finite number, got ${value}`);
  return value;
}

function requireNonNegative(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0) {
    throw new RangeError(
      `FakeClock: cannot advance by ${ms} ms; time only moves forward by a finite amount (use set() to change the wall clock)`,
    );
  }
  return ms;
}
