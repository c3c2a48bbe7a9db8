/**
 * Batches `lastUsed` writes of the success path (R-SB-2: no synchronous disk write per request).
 *
 * Only `lastUsed` is ever batched, and it lives in its own column (schema v2), so a flush can never
 * overwrite a cooldown, disable, block or session override. Losing the last batch in a crash costs at most
 * a slightly stale round-robin position, which R-SB-3 allows.
 */
import type { Clock } from "../../ports/clock.js";
import { backgroundClock } from "../shared/background-clock.js";

export class LastUsedBatch {
  readonly #pending = new Map<string, number>();
  readonly #flushEveryMs: number;
  readonly #write: (entries: [string, number][]) => void;
  readonly #onError: (error: unknown) => void;
  readonly #timers: Clock;
  /** Cancels the scheduled flush; its timer never keeps a CLI process alive, close() flushes. */
  #timer: (() => void) | undefined;

  constructor(options: {
    flushEveryMs: number;
    write: (entries: [string, number][]) => void;
    onError: (error: unknown) => void;
    /** Schedules the flushes; defaults to the unref'd system clock. */
    timers?: Clock;
  }) {
    this.#timers = options.timers ?? backgroundClock;
    this.#flushEveryMs = options.flushEveryMs;
    this.#write = options.write;
    this.#onError = options.onError;
  }

  add(profileId: string, lastUsed: number): void {
    const previous = this.#pending.get(profileId);
    if (previous === undefined || lastUsed > previous) this.#pending.set(profileId, lastUsed);
    if (this.#flushEveryMs <= 0) {
      this.flush();
      return;
    }
    if (!this.#timer) this.#scheduleFlush();
  }

  /** The not-yet-written value for a profile, so this process reads its own writes. */
  pendingFor(profileId: string): number | undefined {
    return this.#pending.get(profileId);
  }

  pendingEntries(): IterableIterator<[string, number]> {
    return this.#pending.entries();
  }

  /** Drops a pending value whose row was reset or removed meanwhile. */
  forget(profileId: string): void {
    this.#pending.delete(profileId);
  }

  flush(): void {
    this.#timer?.();
    this.#timer = undefined;
    if (this.#pending.size === 0) return;
    const entries = [...this.#pending.entries()];
    try {
      this.#write(entries);
      for (const [profileId, lastUsed] of entries) {
        if (this.#pending.get(profileId) === lastUsed) this.#pending.delete(profileId);
      }
    } catch (error) {
      this.#onError(error);
      // Keep the values and try again later rather than dropping them.
      if (this.#flushEveryMs > 0 && !this.#timer) this.#scheduleFlush();
    }
  }

  #scheduleFlush(): void {
    this.#timer = this.#timers.setTimer(this.#flushEveryMs, () => {
      this.#timer = undefined;
      this.flush();
    });
  }
}
