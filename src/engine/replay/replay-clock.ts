/**
 * The replay's clock and randomness (R-OB-5). Time moves only when the replay moves it, from one due timer to
 * the next, so a day of recorded traffic replays in seconds; timers live in a binary heap because a replay has
 * thousands of them in flight (watchdogs, deadlines, waits), and ties fire in the order they were set, so the
 * same replay always takes the same steps.
 */
import type { Clock } from "../../ports/clock.js";
import type { Random } from "../../ports/random.js";

interface Timer {
  dueAt: number;
  order: number;
  fire: (() => void) | undefined;
}

export class ReplayClock implements Clock {
  #now: number;
  #order = 0;
  #live = 0;
  readonly #heap: Timer[] = [];

  constructor(startMs: number) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  /**
   * The next `sleep` of exactly `requestedMs` lasts `actualMs` instead. The runner announces each wait with an
   * event and starts it at once; the replay uses this to wait as long as the recording did, jitter included.
   * Any other sleep first drops the substitution.
   */
  substituteNextSleep(requestedMs: number, actualMs: number): void {
    this.#substitute = { requestedMs, actualMs };
  }

  #substitute: { requestedMs: number; actualMs: number } | undefined;

  sleep(requested: number, signal?: AbortSignal): Promise<void> {
    const substitute = this.#substitute;
    this.#substitute = undefined;
    const ms = substitute !== undefined && substitute.requestedMs === requested ? substitute.actualMs : requested;
    if (signal?.aborted) return Promise.reject(abortError());
    if (!(ms > 0)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        cancel();
        reject(abortError());
      };
      const cancel = this.setTimer(ms, () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      });
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  setTimer(ms: number, fire: () => void): () => void {
    const timer: Timer = { dueAt: this.#now + (ms > 0 ? ms : 0), order: this.#order++, fire };
    this.#push(timer);
    this.#live += 1;
    return () => {
      if (timer.fire === undefined) return;
      // Cancelled timers stay in the heap without their callback and are dropped when they surface.
      timer.fire = undefined;
      this.#live -= 1;
    };
  }

  /** Timers still to fire. */
  get pending(): number {
    return this.#live;
  }

  /** When the next timer is due, or undefined when none waits. */
  nextDueAt(): number | undefined {
    this.#dropCancelled();
    return this.#heap[0]?.dueAt;
  }

  /** Moves time to the earliest due timer and fires it; false when no timer is due at or before `limit`. */
  fireNext(limit: number = Number.POSITIVE_INFINITY): boolean {
    this.#dropCancelled();
    const timer = this.#heap[0];
    if (!timer || timer.dueAt > limit) return false;
    this.#pop();
    const fire = timer.fire!;
    timer.fire = undefined;
    this.#live -= 1;
    this.#now = Math.max(this.#now, timer.dueAt);
    fire();
    return true;
  }

  /** Moves time forward to `at` without firing anything (the caller fired everything due before). */
  moveTo(at: number): void {
    this.#now = Math.max(this.#now, at);
  }

  #dropCancelled(): void {
    while (this.#heap.length > 0 && this.#heap[0]!.fire === undefined) this.#pop();
  }

  #before(a: Timer, b: Timer): boolean {
    return a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.order < b.order);
  }

  #push(timer: Timer): void {
    const heap = this.#heap;
    heap.push(timer);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.#before(heap[index]!, heap[parent]!)) break;
      [heap[index], heap[parent]] = [heap[parent]!, heap[index]!];
      index = parent;
    }
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    heap[0] = last;
    let index = 0;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let smallest = index;
      if (left < heap.length && this.#before(heap[left]!, heap[smallest]!)) smallest = left;
      if (right < heap.length && this.#before(heap[right]!, heap[smallest]!)) smallest = right;
      if (smallest === index) return;
      [heap[index], heap[smallest]] = [heap[smallest]!, heap[index]!];
      index = smallest;
    }
  }
}

/**
 * The replay's randomness: the runner draws only jitter (retry backoff, the spread added to waits for a
 * stated reset or a cooldown's end). A wait the recording made is waited as long again (the replay substitutes
 * the recorded length, jitter included); any other wait is the shortest the config allows.
 */
export const SHORTEST_JITTER: Random = { next: () => 0 };

function abortError(): DOMException {
  return new DOMException("The operation was aborted.", "AbortError");
}
