/**
 * The watchdogs of an upstream stream read to its end for a non-streamed answer (SPEC R-ST-6, "Timeouts"):
 * `ttftTimeoutSeconds` bounds the wait for the first token, `streamStallSeconds` each gap between chunks
 * after it, and the attempt's own signal (the provider's `timeoutSeconds`) the whole call. Nothing reaches
 * the client until the answer is complete, so every failure — silence, a stall, a cut, an in-band error,
 * the deadline — fails the attempt over.
 *
 * Unlike the streaming commit point, silence before the first token is bounded by the first-token budget
 * alone: a reasoning model may think for most of its 60 s without sending a byte, and a generation that keeps
 * producing tokens is never cut by either watchdog. The watchdog is one timer of the injected Clock per
 * stream (`setTimer`, like the runner's own deadlines; FakeClock in tests).
 */
import type { Clock } from "../ports/clock.js";
import { UpstreamFailure } from "../ports/provider.js";
import { cutFailure, secondsText, watchdogFailure } from "./stream-commit.js";

/** What one upstream item was: still waiting (lifecycle), a token, or the end of the answer. */
export type WatchedItem = "lifecycle" | "token" | "complete";

export interface WatchedStreamOptions<T> {
  /** Opens the upstream call with the signal the watchdogs control. */
  open: (signal: AbortSignal) => AsyncIterable<T>;
  /** Takes one item into the answer; throws for an in-band error. */
  accept: (item: T) => WatchedItem;
  /** The upstream ended without a `complete` item: true when the answer is complete anyway (R-ST-2). */
  end: () => boolean;
  clock: Clock;
  ttftTimeoutMs: number;
  stallTimeoutMs: number;
  /** The attempt's signal: the provider's total deadline and the runner's aborts, for the whole call. */
  attemptSignal: AbortSignal;
  /** The caller's own signal (client gone). */
  callerSignal?: AbortSignal;
  provider: string;
  model: string;
}

/** Allocated once: a finished answer closes its upstream on every request. */
const ANSWER_COMPLETE = new DOMException("The answer is complete.", "AbortError");

/**
 * ONE timer per stream for a deadline that moves on with every token: when it fires early (the deadline
 * moved since it was armed) it is armed again for the rest, so tokens cost no timer work at all.
 */
class MovingDeadline {
  #deadline = 0;
  #cancel: (() => void) | undefined;
  #dueAt = 0;

  constructor(
    private readonly clock: Clock,
    private readonly onExpired: () => void,
  ) {}

  set(deadline: number): void {
    this.#deadline = deadline;
    // A running timer due before the new deadline re-arms itself when it fires.
    if (this.#cancel && this.#dueAt <= deadline) return;
    this.#arm();
  }

  stop(): void {
    this.#cancel?.();
    this.#cancel = undefined;
  }

  #arm(): void {
    this.#cancel?.();
    this.#dueAt = this.#deadline;
    this.#cancel = this.clock.setTimer(Math.max(0, this.#deadline - this.clock.now()), () => {
      this.#cancel = undefined;
      if (this.clock.now() < this.#deadline) this.#arm();
      else this.onExpired();
    });
  }
}

export async function readWatchedStream<T>(options: WatchedStreamOptions<T>): Promise<{ timeToFirstTokenMs: number | undefined }> {
  const { clock, provider, model } = options;
  const upstream = new AbortController();
  const abort = (reason?: unknown) => {
    if (!upstream.signal.aborted) upstream.abort(reason);
  };
  const onAttemptAbort = () => abort(options.attemptSignal.reason);
  const onCallerAbort = () => abort(options.callerSignal?.reason);
  options.attemptSignal.addEventListener("abort", onAttemptAbort, { once: true });
  options.callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  if (options.attemptSignal.aborted) onAttemptAbort();
  if (options.callerSignal?.aborted) onCallerAbort();
  // Rejects once the upstream is aborted, so a provider that ignores its signal cannot hold the attempt open.
  const aborted = new Promise<never>((_, reject) => {
    const onAbort = () => reject(upstream.signal.reason);
    if (upstream.signal.aborted) onAbort();
    else upstream.signal.addEventListener("abort", onAbort, { once: true });
  });
  aborted.catch(() => {});

  let watchdogError: UpstreamFailure | undefined;
  const startedAt = clock.now();
  let firstTokenAt: number | undefined;
  const deadline = new MovingDeadline(clock, () => {
    watchdogError =
      firstTokenAt === undefined
        ? watchdogFailure(provider, model, `no first token within ${secondsText(options.ttftTimeoutMs)} (ttftTimeoutSeconds)`)
        : watchdogFailure(provider, model, `stream stalled for ${secondsText(options.stallTimeoutMs)} (streamStallSeconds)`);
    abort(watchdogError);
  });
  deadline.set(startedAt + options.ttftTimeoutMs);
  let iterator: AsyncIterator<T> | undefined;
  try {
    iterator = options.open(upstream.signal)[Symbol.asyncIterator]();
    for (;;) {
      let step: IteratorResult<T>;
      try {
        step = await Promise.race([iterator.next(), aborted]);
      } catch (error) {
        // An AbortError caused by our own watchdog is the watchdog's timeout, not an abort.
        throw watchdogError ?? error;
      }
      if (watchdogError) throw watchdogError;
      if (step.done) {
        if (options.end()) break;
        throw cutFailure(provider, model, firstTokenAt === undefined ? "stream closed before any content" : "stream closed before it finished");
      }
      const item = options.accept(step.value);
      if (item === "complete") break;
      if (item === "token") {
        firstTokenAt ??= clock.now();
        deadline.set(clock.now() + options.stallTimeoutMs);
      }
    }
    return { timeToFirstTokenMs: firstTokenAt === undefined ? undefined : firstTokenAt - startedAt };
  } finally {
    deadline.stop();
    options.attemptSignal.removeEventListener("abort", onAttemptAbort);
    options.callerSignal?.removeEventListener("abort", onCallerAbort);
    abort(ANSWER_COMPLETE);
    // Not awaited: a generator busy in next() answers return() only after that next() settles.
    iterator?.return?.()?.catch(() => {});
  }
}
