/**
 * The watchdogs of an upstream stream read to its end for a non-streamed answer (SPEC R-ST-6, "Timeouts"):
 * `ttftTimeoutSeconds` bounds the wait for the first token, `streamStallSeconds` each gap between chunks
 * after it, and the attempt's own signal (the provider's `timeoutSeconds`) the whole call. Nothing reaches
 * the client until the answer is complete, so every failure — silence, a stall, a cut, an in-band error,
 * the deadline — fails the attempt over.
 *
 * Unlike the streaming commit point, silence before the first token is bounded by the first-token budget
 * alone: a reasoning model may think for most of its 60 s without sending a byte, and a generation that keeps
 * producing tokens is never cut by either watchdog. Sleeps run on the injected Clock (FakeClock in tests)
 * through the commit point's DeadlinePuller: one timer per stream.
 */
import type { Clock } from "../ports/clock.js";
import { UpstreamFailure } from "../ports/provider.js";
import { cutFailure, DeadlinePuller, secondsText, TIMED_OUT, watchdogFailure } from "./stream-commit.js";

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

  let watchdogError: UpstreamFailure | undefined;
  const startedAt = clock.now();
  const ttftDeadline = startedAt + options.ttftTimeoutMs;
  let firstTokenAt: number | undefined;
  let iterator: AsyncIterator<T> | undefined;
  let puller: DeadlinePuller<T> | undefined;
  try {
    iterator = options.open(upstream.signal)[Symbol.asyncIterator]();
    puller = new DeadlinePuller<T>(iterator, clock, upstream.signal);
    for (;;) {
      const budgetMs = firstTokenAt === undefined ? ttftDeadline - clock.now() : options.stallTimeoutMs;
      let step: IteratorResult<T> | typeof TIMED_OUT;
      try {
        step = await puller.next(budgetMs);
      } catch (error) {
        // An AbortError caused by our own watchdog is the watchdog's timeout, not an abort.
        throw watchdogError ?? error;
      }
      if (step === TIMED_OUT) {
        watchdogError =
          firstTokenAt === undefined
            ? watchdogFailure(provider, model, `no first token within ${secondsText(options.ttftTimeoutMs)} (ttftTimeoutSeconds)`)
            : watchdogFailure(provider, model, `stream stalled for ${secondsText(options.stallTimeoutMs)} (streamStallSeconds)`);
        abort(watchdogError);
        throw watchdogError;
      }
      if (step.done) {
        if (options.end()) break;
        throw cutFailure(provider, model, firstTokenAt === undefined ? "stream closed before any content" : "stream closed before it finished");
      }
      const item = options.accept(step.value);
      if (item !== "lifecycle") firstTokenAt ??= clock.now();
      // A complete answer is finalised at once (R-ST-2): whatever the upstream still sends is not waited for.
      if (item === "complete") break;
    }
    return { timeToFirstTokenMs: firstTokenAt === undefined ? undefined : firstTokenAt - startedAt };
  } finally {
    options.attemptSignal.removeEventListener("abort", onAttemptAbort);
    options.callerSignal?.removeEventListener("abort", onCallerAbort);
    puller?.close();
    abort(ANSWER_COMPLETE);
    // Not awaited: a generator busy in next() answers return() only after that next() settles.
    iterator?.return?.()?.catch(() => {});
  }
}
