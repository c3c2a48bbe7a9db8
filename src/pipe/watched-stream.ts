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
import type { AttemptStreamBudgets } from "./first-token-timeout.js";
import { UpstreamFailure } from "../ports/provider.js";
import { beforeFirstTokenTimeout, cutFailure, stallTimeout } from "./stream-failures.js";
import { MovingDeadline } from "./moving-deadline.js";
import { CONSUMER_STOPPED } from "./stream-relay.js";

/** What one upstream item was: still waiting (lifecycle), a token, or the end of the answer. */
export type WatchedItem = "lifecycle" | "token" | "complete";

/** The attempt's stream budgets (attemptStreamBudgets) bound the whole call; the attempt signal for all of it. */
export interface WatchedStreamOptions<T> extends AttemptStreamBudgets {
  /** Opens the upstream call with the signal the watchdogs control. */
  open: (signal: AbortSignal) => AsyncIterable<T>;
  /** Takes one item into the answer; throws for an in-band error. */
  accept: (item: T) => WatchedItem;
  /** The upstream ended without a `complete` item: true when the answer is complete anyway (R-ST-2). */
  end: () => boolean;
}

/**
 * What a watched read shares whichever way its items arrive: the upstream's own abort controller linked to
 * the attempt's and the caller's signals, the one moving deadline (first token, then stalls), and the
 * verdict on each item.
 */
class StreamWatch<T> {
  readonly upstream = new AbortController();
  /** Rejects once the upstream is aborted, so a source that ignores its signal cannot hold the attempt open. */
  readonly aborted: Promise<never>;
  watchdogError: UpstreamFailure | undefined;
  readonly #startedAt: number;
  #firstTokenAt: number | undefined;
  readonly #deadline: MovingDeadline;
  readonly #onAttemptAbort = () => this.abort(this.options.attemptSignal.reason);
  readonly #onCallerAbort = () => this.abort(this.options.callerSignal?.reason);

  constructor(private readonly options: Omit<WatchedStreamOptions<T>, "open">) {
    const { clock, provider, model } = options;
    options.attemptSignal.addEventListener("abort", this.#onAttemptAbort, { once: true });
    options.callerSignal?.addEventListener("abort", this.#onCallerAbort, { once: true });
    if (options.attemptSignal.aborted) this.#onAttemptAbort();
    if (options.callerSignal?.aborted) this.#onCallerAbort();
    const signal = this.upstream.signal;
    this.aborted = new Promise<never>((_, reject) => {
      const onAbort = () => reject(signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
    this.aborted.catch(() => {});
    this.#startedAt = clock.now();
    this.#deadline = new MovingDeadline(clock, () => {
      this.watchdogError =
        this.#firstTokenAt === undefined
          ? beforeFirstTokenTimeout(provider, model, options)
          : stallTimeout(provider, model, options.stallTimeoutMs);
      this.abort(this.watchdogError);
    });
    this.#deadline.set(this.#startedAt + options.ttftTimeoutMs);
  }

  abort(reason?: unknown): void {
    if (!this.upstream.signal.aborted) this.upstream.abort(reason);
  }

  /** Takes one item into the answer (throws for an in-band error) and moves the deadline on a token. */
  take(item: T): WatchedItem {
    const verdict = this.options.accept(item);
    const progress = this.options.progress;
    if (progress && this.#firstTokenAt === undefined) {
      // R-HG-1: the runner races slow attempts; one that lost is aborted by this report.
      progress("bytes");
      if (verdict !== "lifecycle") progress("content");
    }
    if (verdict === "token") {
      const now = this.options.clock.now();
      this.#firstTokenAt ??= now;
      this.#deadline.set(now + this.options.stallTimeoutMs);
    }
    return verdict;
  }

  /** The source ended without a `complete` item: complete anyway (R-ST-2), or a cut. */
  ended(): void {
    if (this.options.end()) return;
    const { provider, model } = this.options;
    throw cutFailure(
      provider,
      model,
      this.#firstTokenAt === undefined ? "stream closed before any content" : "stream closed before it finished",
    );
  }

  result(): { timeToFirstTokenMs: number | undefined } {
    return { timeToFirstTokenMs: this.#firstTokenAt === undefined ? undefined : this.#firstTokenAt - this.#startedAt };
  }

  /** Stops the watchdogs; `abortUpstream` also aborts the call (not for a complete answer, whose body drains). */
  close(abortUpstream: boolean): void {
    this.#deadline.stop();
    this.options.attemptSignal.removeEventListener("abort", this.#onAttemptAbort);
    this.options.callerSignal?.removeEventListener("abort", this.#onCallerAbort);
    if (abortUpstream) this.abort(CONSUMER_STOPPED);
  }
}

export async function readWatchedStream<T>(options: WatchedStreamOptions<T>): Promise<{ timeToFirstTokenMs: number | undefined }> {
  const watch = new StreamWatch(options);
  let iterator: AsyncIterator<T> | undefined;
  let complete = false;
  try {
    iterator = options.open(watch.upstream.signal)[Symbol.asyncIterator]();
    for (;;) {
      let step: IteratorResult<T>;
      try {
        step = await Promise.race([iterator.next(), watch.aborted]);
      } catch (error) {
        // An AbortError caused by our own watchdog is the watchdog's timeout, not an abort.
        throw watch.watchdogError ?? error;
      }
      if (watch.watchdogError) throw watch.watchdogError;
      if (step.done) {
        watch.ended();
        break;
      }
      if (watch.take(step.value) === "complete") {
        complete = true;
        break;
      }
    }
    return watch.result();
  } finally {
    // A complete answer's call is not aborted: returning the source lets it release the body (whose last
    // bytes drain), so the connection is reused.
    watch.close(!complete);
    // Not awaited: a generator busy in next() answers return() only after that next() settles.
    iterator?.return?.()?.catch(() => {});
  }
}

export interface PushedStreamOptions<T> extends Omit<WatchedStreamOptions<T>, "open"> {
  /**
   * Opens the upstream call and hands it each item through `push` as it arrives; resolves when the source
   * ended or stopped because `push` returned false (the answer is complete, or an item failed it). A source
   * stopped at a complete answer releases what remains of its call itself: the signal is not aborted then.
   */
  open: (signal: AbortSignal, push: (item: T) => boolean) => Promise<void>;
}

/**
 * `readWatchedStream` for a source that pushes its items (an upstream body in flowing mode): the same
 * watchdogs and verdicts, with one promise per call instead of several per item.
 */
export async function readWatchedPushed<T>(options: PushedStreamOptions<T>): Promise<{ timeToFirstTokenMs: number | undefined }> {
  const watch = new StreamWatch(options);
  let complete = false;
  let failure: { error: unknown } | undefined;
  const push = (item: T): boolean => {
    if (complete || failure || watch.watchdogError) return false;
    try {
      complete = watch.take(item) === "complete";
    } catch (error) {
      failure = { error };
      return false;
    }
    return !complete;
  };
  try {
    try {
      await Promise.race([options.open(watch.upstream.signal, push), watch.aborted]);
    } catch (error) {
      throw failure?.error ?? watch.watchdogError ?? error;
    }
    if (failure) throw failure.error;
    if (watch.watchdogError) throw watch.watchdogError;
    if (!complete) watch.ended();
    return watch.result();
  } finally {
    // A complete answer's source drains the rest of its body itself, so its connection is kept (pumpPassThrough).
    watch.close(!complete);
  }
}
