/** The real `Clock`: wall time from `Date.now()`, sleeps on Node timers, cancellable by an AbortSignal. */
import type { Clock } from "./clock.js";

/** Node clamps longer timer delays to 1 ms (with a warning), so long sleeps are chained in slices. */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

export interface SystemClockOptions {
  /**
   * Let the process exit while a sleep is pending. Off by default: a run waiting out a retry backoff is
   * real work, and an unref'd timer would let a CLI process exit mid-run with nothing else on the loop.
   * Turn on for background waits (housekeeping loops) that must never hold a process open.
   */
  unref?: boolean;
}

export function createSystemClock(options: SystemClockOptions = {}): Clock {
  return {
    now: () => Date.now(),
    sleep: (ms, signal) => sleepOnTimers(ms, signal, options.unref ?? false),
    setTimer: (ms, fire) => timerOnNode(ms, fire, options.unref ?? false),
  };
}

/** The clock the engine uses unless a test or embedder injects another. */
export const systemClock: Clock = createSystemClock();

function timerOnNode(ms: number, fire: () => void, unref: boolean): () => void {
  let timer: NodeJS.Timeout | undefined;
  let remainingMs = ms > 0 ? ms : 0;
  const schedule = () => {
    const sliceMs = Math.min(remainingMs, MAX_TIMER_DELAY_MS);
    remainingMs -= sliceMs;
    timer = setTimeout(() => (remainingMs > 0 ? schedule() : fire()), sliceMs);
    if (unref) timer.unref();
  };
  schedule();
  return () => clearTimeout(timer);
}

function sleepOnTimers(ms: number, signal: AbortSignal | undefined, unref: boolean): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortErrorFor(signal));
  if (!(ms > 0)) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let remainingMs = ms;
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortErrorFor(signal));
    };
    const schedule = () => {
      const sliceMs = Math.min(remainingMs, MAX_TIMER_DELAY_MS);
      remainingMs -= sliceMs;
      timer = setTimeout(() => {
        if (remainingMs > 0) return schedule();
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, sliceMs);
      if (unref) timer.unref();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    schedule();
  });
}

/**
 * The signal's own reason when it already is an AbortError (no new allocation on the hot path, where runs
 * cancel their watchdog timers on every success); otherwise a fresh AbortError.
 */
function abortErrorFor(signal: AbortSignal | undefined): unknown {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  return new DOMException("The operation was aborted.", "AbortError");
}
