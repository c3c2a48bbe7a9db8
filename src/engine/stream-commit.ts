/**
 * The streaming commit point (SPEC R-ST-1…R-ST-3).
 *
 * A streamed candidate is committed when its first content (a text or tool-call delta) exists. Until then
 * lifecycle frames (`message-start`) are held back and every failure — an error status, an in-band error
 * event, no first token within the TTFT budget, a stall, a cut — is thrown, so the runner fails over exactly
 * as for a non-streamed attempt. After the commit the rest of the stream is handed out as an iterator that
 * throws on the same failures; the caller ends the client stream with an explicit error and records it.
 *
 * Watchdogs sleep on the injected Clock, so tests drive them with a FakeClock.
 */
import type { CanonicalStreamEvent } from "../ports/canonical.js";
import type { Clock } from "../ports/clock.js";
import { UpstreamFailure } from "../ports/provider.js";

export interface StreamCommitOptions {
  /** Opens the upstream stream with the signal the commit point controls (watchdogs and aborts). */
  open: (signal: AbortSignal) => AsyncIterable<CanonicalStreamEvent>;
  clock: Clock;
  /** R-ST-1: no first content within this budget (from `open`) fails the attempt over. */
  ttftTimeoutMs: number;
  /** R-ST-1/R-ST-2: a gap longer than this between two upstream events is a stall. */
  stallTimeoutMs: number;
  /** The attempt's signal: obeyed only until the commit (the runner's watchdog must not cut a live stream). */
  attemptSignal?: AbortSignal;
  /** The caller's own signal (client disconnect): obeyed for the whole stream. */
  callerSignal?: AbortSignal;
  /** Names the failure for the classifier and the logs. */
  provider: string;
  model: string;
}

export interface CommittedStream {
  /** Held lifecycle frames followed by the first content event, in upstream order. */
  head: CanonicalStreamEvent[];
  /** Everything after the head. Throws on an error event, stall or cut (R-ST-2); ends after `finish`. */
  rest: AsyncIterable<CanonicalStreamEvent>;
  /** Milliseconds from `open` to the first content (time to first token). */
  timeToFirstTokenMs: number;
  /** Aborts the upstream call; safe to call more than once. */
  abort(reason?: unknown): void;
}

const TIMED_OUT = Symbol("timed-out");

function isContent(event: CanonicalStreamEvent): boolean {
  if (event.type === "text-delta") return event.text !== "";
  return event.type === "tool-call-delta";
}

function failureOfErrorEvent(provider: string, error: unknown): Error {
  if (error instanceof UpstreamFailure) return error;
  if (error instanceof Error && (error.name === "AbortError" || "failure" in error)) return error;
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "stream error event";
  return new UpstreamFailure(`${provider} reported an error mid-stream: ${message}`, { provider, message }, error);
}

function watchdogFailure(provider: string, model: string, message: string): UpstreamFailure {
  // ETIMEDOUT classifies as `timeout` (R-EC-4): a watchdog is our own timer, not a caller abort (R-EC-7).
  return new UpstreamFailure(`${provider}/${model}: ${message}`, { provider, code: "ETIMEDOUT", message });
}

function cutFailure(provider: string, model: string, message: string): UpstreamFailure {
  return new UpstreamFailure(`${provider}/${model}: ${message}`, { provider, code: "ECONNRESET", message });
}

/** Resolves with the next event, or TIMED_OUT when `ms` passes first. Never leaves a timer behind. */
/**
 * Resolves with the next event, or TIMED_OUT when `ms` passes first; rejects as soon as `upstream` aborts, so
 * a provider that ignores its signal cannot hold the stream open. Never leaves a timer or listener behind.
 */
async function nextWithin(
  iterator: AsyncIterator<CanonicalStreamEvent>,
  ms: number,
  clock: Clock,
  upstream: AbortSignal,
): Promise<IteratorResult<CanonicalStreamEvent> | typeof TIMED_OUT> {
  const timer = new AbortController();
  const never = new Promise<never>(() => {});
  const timeout = clock.sleep(Math.max(0, ms), timer.signal).then(
    (): typeof TIMED_OUT => TIMED_OUT,
    // The timer was cancelled because something else won the race; this branch is never observed.
    () => never,
  );
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(upstream.reason);
    if (upstream.aborted) onAbort();
    else upstream.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const next = iterator.next();
    // A pull that loses the race settles later (often rejecting with our own abort); nobody waits for it.
    next.catch(() => {});
    return await Promise.race([next, timeout, aborted]);
  } finally {
    timer.abort();
    if (onAbort) upstream.removeEventListener("abort", onAbort);
  }
}

function secondsText(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/**
 * Pulls the upstream stream until its first content and resolves with the committed stream. Throws (so the
 * runner fails over) on any failure before that point.
 */
export async function commitStream(options: StreamCommitOptions): Promise<CommittedStream> {
  const { clock, provider, model } = options;
  const upstream = new AbortController();
  const abort = (reason?: unknown) => {
    if (!upstream.signal.aborted) upstream.abort(reason);
  };
  const onCallerAbort = () => abort(options.callerSignal?.reason);
  const onAttemptAbort = () => abort(options.attemptSignal?.reason);
  if (options.callerSignal?.aborted) onCallerAbort();
  if (options.attemptSignal?.aborted) onAttemptAbort();
  options.callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  options.attemptSignal?.addEventListener("abort", onAttemptAbort, { once: true });

  let watchdogError: UpstreamFailure | undefined;
  const trip = (failure: UpstreamFailure): never => {
    watchdogError = failure;
    abort(failure);
    throw failure;
  };
  /** An AbortError caused by our own watchdog is the watchdog's timeout, not an abort. */
  const translate = (error: unknown): unknown => watchdogError ?? error;

  const releaseCallerListener = () => options.callerSignal?.removeEventListener("abort", onCallerAbort);
  const releaseAttemptListener = () => options.attemptSignal?.removeEventListener("abort", onAttemptAbort);

  const startedAt = clock.now();
  const ttftDeadline = startedAt + options.ttftTimeoutMs;
  const held: CanonicalStreamEvent[] = [];
  let iterator: AsyncIterator<CanonicalStreamEvent> | undefined;

  const closeUpstream = () => {
    abort(new DOMException("The stream consumer stopped reading.", "AbortError"));
    // Not awaited: a generator busy in next() would only answer return() after that next() settles.
    iterator?.return?.()?.catch(() => {});
  };

  try {
    iterator = options.open(upstream.signal)[Symbol.asyncIterator]();
    for (;;) {
      const now = clock.now();
      const ttftLeftMs = ttftDeadline - now;
      const budgetMs = Math.min(ttftLeftMs, options.stallTimeoutMs);
      let step: IteratorResult<CanonicalStreamEvent> | typeof TIMED_OUT;
      try {
        step = await nextWithin(iterator, budgetMs, clock, upstream.signal);
      } catch (error) {
        throw translate(error);
      }
      if (step === TIMED_OUT) {
        trip(
          ttftLeftMs <= options.stallTimeoutMs
            ? watchdogFailure(provider, model, `no first token within ${secondsText(options.ttftTimeoutMs)} (ttftTimeoutSeconds)`)
            : watchdogFailure(provider, model, `stream stalled for ${secondsText(options.stallTimeoutMs)} before the first token (streamStallSeconds)`),
        );
      }
      const result = step as IteratorResult<CanonicalStreamEvent>;
      if (result.done) throw cutFailure(provider, model, "stream closed before any content");
      const event = result.value;
      if (event.type === "error") throw failureOfErrorEvent(provider, event.error);
      if (event.type === "finish") {
        if (event.reason === "error") throw cutFailure(provider, model, "stream finished with stop reason: error");
        // A complete answer without any content (e.g. an empty completion) is still an answer.
        return finishCommit([...held, event], true);
      }
      if (isContent(event)) return finishCommit([...held, event], false);
      // Lifecycle frames and empty deltas wait until content exists (R-ST-1).
      if (event.type === "message-start") held.push(event);
    }
  } catch (error) {
    releaseCallerListener();
    releaseAttemptListener();
    closeUpstream();
    throw error;
  }

  function finishCommit(head: CanonicalStreamEvent[], finished: boolean): CommittedStream {
    // From here on only the caller may stop the stream; the attempt's watchdog belongs to the uncommitted phase.
    releaseAttemptListener();
    const committedAt = clock.now();
    const source = iterator as AsyncIterator<CanonicalStreamEvent>;
    async function* rest(): AsyncGenerator<CanonicalStreamEvent> {
      let completed = finished;
      try {
        while (!completed) {
          let step: IteratorResult<CanonicalStreamEvent> | typeof TIMED_OUT;
          try {
            step = await nextWithin(source, options.stallTimeoutMs, clock, upstream.signal);
          } catch (error) {
            throw translate(error);
          }
          if (step === TIMED_OUT) {
            trip(watchdogFailure(provider, model, `stream stalled for ${secondsText(options.stallTimeoutMs)} (streamStallSeconds)`));
          }
          const result = step as IteratorResult<CanonicalStreamEvent>;
          if (result.done) throw cutFailure(provider, model, "stream closed before it finished");
          const event = result.value;
          if (event.type === "error") throw failureOfErrorEvent(provider, event.error);
          if (event.type === "message-start") continue;
          if (event.type === "finish") {
            if (event.reason === "error") throw cutFailure(provider, model, "stream finished with stop reason: error");
            completed = true;
          }
          yield event;
        }
      } finally {
        releaseCallerListener();
        // A finish completes the answer at once (R-ST-2); anything left upstream is not waited for.
        closeUpstream();
      }
    }
    return { head, rest: rest(), timeToFirstTokenMs: committedAt - startedAt, abort };
  }
}
