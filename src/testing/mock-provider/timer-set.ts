/**
 * Every delay the mock server waits on, so `close()` can clear them all and nothing keeps the process
 * (or a test) alive.
 */
export class TimerSet {
  private readonly pending = new Map<NodeJS.Timeout, () => void>();

  /** Resolves true after `ms`, or false as soon as `signal` aborts or the set is cleared. */
  delay(ms: number, signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(true), ms);
      const finish = (elapsed: boolean) => {
        clearTimeout(timer);
        this.pending.delete(timer);
        signal.removeEventListener("abort", onAbort);
        resolve(elapsed);
      };
      this.pending.set(timer, () => finish(false));
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  clear(): void {
    for (const cancel of [...this.pending.values()]) cancel();
  }
}

/** Resolves when the signal aborts: how `silence` and `stall` wait "forever". */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}
