/**
 * Abort plumbing of one run: the caller's signal (R-EC-7), the run deadline (`agents.defaults.timeoutSeconds`)
 * and each attempt's watchdog (a provider's `timeoutSeconds`). Every timer runs on the injected Clock.
 *
 * The three are told apart by which controller fired, never by the shape of the error the attempt threw:
 * a caller abort stops the run and records nothing; the watchdog is a `timeout` failure of that attempt; the
 * deadline stops the run with a timeout error.
 */
import { FailoverError } from "../core/errors.js";
import type { Clock } from "../ports/clock.js";
import { UpstreamFailure } from "../ports/provider.js";
import { callerAbortError } from "./failure.js";

class DeadlineReached extends Error {}
class WatchdogFired extends Error {}

export type AttemptSettlement<T> =
  | { kind: "ok"; value: T }
  | { kind: "failed"; error: unknown }
  /** The attempt's watchdog fired; `error` is a timeout failure to classify and record. */
  | { kind: "watchdog"; error: UpstreamFailure };

/**
 * Settles with `promise`, or rejects with the signal's reason as soon as it aborts, even when the work
 * ignores the signal. Shared with the OAuth refresh, which races a library call the same way.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** Starts a timer on the clock that calls `fire` unless cancelled first (the guarded work finished). */
function startTimer(clock: Clock, ms: number, fire: () => void): () => void {
  return clock.setTimer(ms, fire);
}

export class RunGuard {
  readonly #clock: Clock;
  readonly #caller?: AbortSignal;
  readonly #run = new AbortController();
  readonly #runTimeoutMs?: number;
  readonly #cancelDeadline: () => void;
  readonly #onCallerAbort = () => this.#run.abort(this.#caller?.reason);

  constructor(options: { clock: Clock; signal?: AbortSignal; runTimeoutMs?: number }) {
    this.#clock = options.clock;
    this.#caller = options.signal;
    this.#runTimeoutMs = options.runTimeoutMs;
    if (this.#caller?.aborted) this.#run.abort(this.#caller.reason);
    else this.#caller?.addEventListener("abort", this.#onCallerAbort, { once: true });
    this.#cancelDeadline =
      options.runTimeoutMs !== undefined && options.runTimeoutMs > 0
        ? startTimer(this.#clock, options.runTimeoutMs, () => this.#run.abort(new DeadlineReached()))
        : () => {};
  }

  /** Aborts when the caller aborts or the run's deadline passes. */
  get signal(): AbortSignal {
    return this.#run.signal;
  }

  get callerAborted(): boolean {
    return this.#caller?.aborted === true;
  }

  /** Throws the run-stopping error when the caller aborted or the deadline passed. */
  throwIfStopped(): void {
    if (this.callerAborted) throw callerAbortError(this.#caller as AbortSignal);
    if (this.#run.signal.aborted) throw this.#deadlineError();
  }

  /** An abortable pause; a caller abort or the deadline ends it with the run-stopping error. */
  async sleep(ms: number): Promise<void> {
    this.throwIfStopped();
    try {
      await this.#clock.sleep(ms, this.#run.signal);
    } catch (error) {
      this.throwIfStopped();
      throw error;
    }
  }

  /**
   * Runs one attempt under the run's signal and its own watchdog. A caller abort or the deadline throws the
   * run-stopping error at once, even when the attempt ignores its signal.
   */
  async attempt<T>(
    work: (signal: AbortSignal, committed: () => void) => Promise<T>,
    watchdogMs: number | undefined,
  ): Promise<AttemptSettlement<T>> {
    this.throwIfStopped();
    const controller = new AbortController();
    const onRunAbort = () => controller.abort(this.#run.signal.reason);
    const onCallerAbort = () => controller.abort(this.#caller?.reason);
    this.#run.signal.addEventListener("abort", onRunAbort, { once: true });
    let cancelWatchdog =
      watchdogMs !== undefined && watchdogMs > 0
        ? startTimer(this.#clock, watchdogMs, () => controller.abort(new WatchdogFired()))
        : () => {};
    let committed = false;
    // R-ST-1: a committed stream is no longer the watchdog's or the deadline's to cut; the caller still may.
    const onCommitted = () => {
      if (committed || controller.signal.aborted) return;
      committed = true;
      cancelWatchdog();
      cancelWatchdog = () => {};
      this.#run.signal.removeEventListener("abort", onRunAbort);
      this.#caller?.addEventListener("abort", onCallerAbort, { once: true });
    };
    try {
      const value = await raceAbort(
        Promise.resolve().then(() => work(controller.signal, onCommitted)),
        controller.signal,
      );
      return { kind: "ok", value };
    } catch (error) {
      if (committed) {
        // A committed stream outlives the deadline; only the caller's abort stops the run here.
        if (this.callerAborted) throw callerAbortError(this.#caller as AbortSignal);
        return { kind: "failed", error };
      }
      this.throwIfStopped();
      if (controller.signal.reason instanceof WatchdogFired) {
        const message = `No response within ${watchdogMs} ms (attempt watchdog)`;
        return { kind: "watchdog", error: new UpstreamFailure(message, { code: "ETIMEDOUT", message }) };
      }
      return { kind: "failed", error };
    } finally {
      cancelWatchdog();
      this.#run.signal.removeEventListener("abort", onRunAbort);
      this.#caller?.removeEventListener("abort", onCallerAbort);
    }
  }

  /** Releases the deadline timer and the caller listener. */
  dispose(): void {
    this.#cancelDeadline();
    this.#caller?.removeEventListener("abort", this.#onCallerAbort);
  }

  #deadlineError(): FailoverError {
    const seconds = Math.round((this.#runTimeoutMs ?? 0) / 1000);
    return new FailoverError(
      `The run did not finish within ${seconds} s (agents.defaults.timeoutSeconds); ` +
        `raise that limit or shorten the fallback chain.`,
      { reason: "timeout" },
    );
  }
}
