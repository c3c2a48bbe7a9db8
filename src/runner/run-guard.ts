/**
 * Abort plumbing of one run: the caller's signal (R-EC-7), the run deadline (`agents.defaults.timeoutSeconds`)
 * and each attempt's watchdog (a provider's `timeoutSeconds`). Every timer runs on the injected Clock.
 *
 * The three are told apart by what fired — the caller's signal, the deadline flag, the watchdog's reason on
 * the attempt's controller — never by the shape of the error the attempt threw:
 * a caller abort stops the run and records nothing; the watchdog is a `timeout` failure of that attempt; the
 * deadline stops the run with a timeout error.
 */
import { raceAbort } from "../core/race-abort.js";
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

/** Starts a timer on the clock that calls `fire` unless cancelled first (the guarded work finished). */
function startTimer(clock: Clock, ms: number, fire: () => void): () => void {
  return clock.setTimer(ms, fire);
}

export class RunGuard {
  readonly #clock: Clock;
  readonly #caller?: AbortSignal;
  readonly #runTimeoutMs?: number;
  readonly #cancelDeadline: () => void;
  /** When the run's deadline passes (clock time); undefined = no deadline. */
  readonly #deadlineAt?: number;
  #deadlinePassed = false;
  /** A child guard lets go of its parent's signals. */
  #onDispose: () => void = () => {};
  /**
   * The controllers of what runs now (the attempt, a pause), aborted when the deadline passes. There is no
   * run-wide controller: each is linked to the caller's signal itself, so a healthy run owns exactly one
   * AbortController (its attempt's) and one deadline timer.
   */
  readonly #running = new Set<AbortController>();

  constructor(options: { clock: Clock; signal?: AbortSignal; runTimeoutMs?: number }) {
    this.#clock = options.clock;
    this.#caller = options.signal;
    this.#runTimeoutMs = options.runTimeoutMs;
    if (options.runTimeoutMs !== undefined && options.runTimeoutMs > 0) this.#deadlineAt = this.#clock.now() + options.runTimeoutMs;
    this.#cancelDeadline =
      options.runTimeoutMs !== undefined && options.runTimeoutMs > 0 && !this.callerAborted
        ? startTimer(this.#clock, options.runTimeoutMs, () => {
            this.#deadlinePassed = true;
            const reason = new DeadlineReached();
            for (const controller of this.#running) controller.abort(reason);
          })
        : () => {};
  }

  get callerAborted(): boolean {
    return this.#caller?.aborted === true;
  }

  /**
   * Whether a pause of `ms` ends before the run's deadline, so that something can still be tried after it
   * (a wait that the deadline would cut only turns the provider's answer into a timeout).
   */
  leavesTimeAfter(ms: number): boolean {
    return this.#deadlineAt === undefined || this.#clock.now() + ms < this.#deadlineAt;
  }

  /** Throws the run-stopping error when the caller aborted or the deadline passed. */
  throwIfStopped(): void {
    if (this.callerAborted) throw callerAbortError(this.#caller as AbortSignal);
    if (this.#deadlinePassed) throw this.#deadlineError();
  }

  /** An abortable pause; a caller abort or the deadline ends it with the run-stopping error. */
  async sleep(ms: number): Promise<void> {
    this.throwIfStopped();
    const link = this.#link();
    try {
      await this.#clock.sleep(ms, link.controller.signal);
    } catch (error) {
      this.throwIfStopped();
      throw error;
    } finally {
      link.release();
    }
  }

  /**
   * Runs `work` under a signal the caller's abort and the run's deadline abort (R-PO-8: waiting in line for a
   * seat); the run-stopping error is thrown when either fired.
   */
  async within<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.throwIfStopped();
    const link = this.#link();
    try {
      const value = await work(link.controller.signal);
      this.throwIfStopped();
      return value;
    } finally {
      link.release();
    }
  }

  /**
   * Runs one attempt under its own signal — aborted by the caller, the run's deadline or its watchdog — and
   * the watchdog. A caller abort or the deadline throws the run-stopping error at once, even when the attempt
   * ignores its signal. `abort` aborts the same controller for a reason of the runner's own (a lost hedge race,
   * R-HG-1): the attempt then settles as failed with that reason at once, so one controller serves every cause.
   */
  async attempt<T>(
    work: (signal: AbortSignal, committed: () => void, abort: (reason: unknown) => void) => Promise<T>,
    watchdogMs: number | undefined,
  ): Promise<AttemptSettlement<T>> {
    this.throwIfStopped();
    const link = this.#link();
    const { controller } = link;
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
      link.leaveDeadline();
    };
    try {
      const value = await raceAbort(
        Promise.resolve().then(() => work(controller.signal, onCommitted, (reason) => controller.abort(reason))),
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
      link.release();
    }
  }

  /**
   * A guard for a part of the run that may be stopped on its own (R-HG-1: the rest of a run raced beside a slow
   * attempt): `signal` stops it like a caller abort (nothing recorded), and the run's deadline still applies.
   * Dispose it when that part is done.
   */
  child(signal: AbortSignal): RunGuard {
    // The caller's signal reaches the part's own controller through one listener, removed on dispose.
    const controller = new AbortController();
    const caller = this.#caller;
    const onCallerAbort = () => controller.abort(caller?.reason);
    const onStop = () => controller.abort(signal.reason);
    if (caller?.aborted) onCallerAbort();
    else if (signal.aborted) onStop();
    caller?.addEventListener("abort", onCallerAbort, { once: true });
    signal.addEventListener("abort", onStop, { once: true });
    const remainingMs = this.#deadlineAt === undefined ? undefined : Math.max(1, this.#deadlineAt - this.#clock.now());
    const child = new RunGuard({
      clock: this.#clock,
      signal: controller.signal,
      ...(remainingMs !== undefined ? { runTimeoutMs: remainingMs } : {}),
    });
    child.#onDispose = () => {
      caller?.removeEventListener("abort", onCallerAbort);
      signal.removeEventListener("abort", onStop);
    };
    return child;
  }

  /** Releases the deadline timer. */
  dispose(): void {
    this.#onDispose();
    this.#cancelDeadline();
  }

  /**
   * A controller that the caller's abort and the run's deadline abort, until released; `leaveDeadline` keeps
   * only the caller's abort (a committed stream outlives the run's deadline, R-ST-1).
   */
  #link(): { controller: AbortController; leaveDeadline(): void; release(): void } {
    const controller = new AbortController();
    const caller = this.#caller;
    const onCallerAbort = () => controller.abort(caller?.reason);
    caller?.addEventListener("abort", onCallerAbort, { once: true });
    this.#running.add(controller);
    return {
      controller,
      leaveDeadline: () => {
        this.#running.delete(controller);
      },
      release: () => {
        this.#running.delete(controller);
        caller?.removeEventListener("abort", onCallerAbort);
      },
    };
  }

  #deadlineError(): FailoverError {
    const seconds = Math.round((this.#runTimeoutMs ?? 0) / 1000);
    return new FailoverError(
      `The run did not finish within ${seconds} s (agents.defaults.timeoutSeconds); ` + `raise that limit or shorten the fallback chain.`,
      { reason: "timeout" },
    );
  }
}
