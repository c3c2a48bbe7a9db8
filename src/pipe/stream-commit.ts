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
import { MovingDeadline } from "./moving-deadline.js";
import { CONSUMER_STOPPED } from "./stream-relay.js";

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
  /** R-HG-1: told of the first upstream event and of the first content (the runner races slow attempts). */
  progress?: (kind: "bytes" | "content") => void;
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
  /**
   * The consumer is done with a complete answer (it may stop before reading `rest`, e.g. when the finish was
   * in the head): the upstream iterator is returned, not aborted, so its connection is kept.
   */
  release(): void;
}

export const TIMED_OUT = Symbol("timed-out");

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

export function watchdogFailure(provider: string, model: string, message: string): UpstreamFailure {
  // ETIMEDOUT classifies as `timeout` (R-EC-4): a watchdog is our own timer, not a caller abort (R-EC-7).
  return new UpstreamFailure(`${provider}/${model}: ${message}`, { provider, code: "ETIMEDOUT", message });
}

export function cutFailure(provider: string, model: string, message: string): UpstreamFailure {
  return new UpstreamFailure(`${provider}/${model}: ${message}`, { provider, code: "ECONNRESET", message });
}

interface PendingPull<T> {
  settle(result: IteratorResult<T> | typeof TIMED_OUT): void;
  fail(error: unknown): void;
}

/**
 * Pulls the upstream iterator one event at a time, each pull bounded by its own deadline, with ONE timer and
 * ONE abort listener per stream instead of a timer, a controller and three promises per event (streams carry
 * hundreds of events; the per-event version was the largest cost of a streamed gateway request).
 *
 * The timer is the stream's MovingDeadline, re-armed lazily: when it wakes before the waiting pull's deadline
 * (the deadline moved on since it was armed) it sleeps the rest, so a pull still times out exactly `budget`
 * after it started. A pull rejects as soon as `upstream` aborts, so a provider that ignores its signal cannot
 * hold the stream open.
 */
export class DeadlinePuller<T = CanonicalStreamEvent> {
  readonly #iterator: AsyncIterator<T>;
  readonly #clock: Clock;
  readonly #upstream: AbortSignal;
  readonly #deadline: MovingDeadline;
  #pending: PendingPull<T> | undefined;
  #closed = false;

  readonly #onAbort = () => {
    // Every later pull rejects at once, so the timer has nothing left to guard.
    this.#deadline.stop();
    const pull = this.#pending;
    this.#pending = undefined;
    pull?.fail(this.#upstream.reason);
  };

  readonly #expired = () => {
    const pull = this.#pending;
    if (!pull) return;
    this.#pending = undefined;
    pull.settle(TIMED_OUT);
  };

  constructor(iterator: AsyncIterator<T>, clock: Clock, upstream: AbortSignal) {
    this.#iterator = iterator;
    this.#clock = clock;
    this.#upstream = upstream;
    this.#deadline = new MovingDeadline(clock, this.#expired);
    upstream.addEventListener("abort", this.#onAbort, { once: true });
  }

  /** Resolves with the next event, or TIMED_OUT when `budgetMs` passes first. */
  next(budgetMs: number): Promise<IteratorResult<T> | typeof TIMED_OUT> {
    if (this.#upstream.aborted) return Promise.reject(this.#upstream.reason);
    if (!(budgetMs > 0)) return Promise.resolve(TIMED_OUT);
    const deadline = this.#clock.now() + budgetMs;
    return new Promise((resolve, reject) => {
      const pull: PendingPull<T> = { settle: resolve, fail: reject };
      this.#pending = pull;
      if (!this.#closed) this.#deadline.set(deadline);
      let upstreamNext: Promise<IteratorResult<T>>;
      try {
        upstreamNext = this.#iterator.next();
      } catch (error) {
        this.#settled();
        reject(error);
        return;
      }
      // A pull that lost to the timer or an abort settles later (often with our own abort); nobody waits for it.
      upstreamNext.then(
        (result) => {
          if (this.#pending !== pull) return;
          this.#settled();
          resolve(result);
        },
        (error: unknown) => {
          if (this.#pending !== pull) return;
          this.#settled();
          reject(error);
        },
      );
    });
  }

  /** Stops the timer while nobody pulls (between the commit and the consumer's first read); `next` re-arms it. */
  pause(): void {
    if (!this.#pending) this.#deadline.stop();
  }

  /** Stops the timer and the abort listener; a pull still waiting is left to the upstream's own end. */
  close(): void {
    this.#closed = true;
    this.#upstream.removeEventListener("abort", this.#onAbort);
    this.#deadline.stop();
  }

  /** The pull got its answer: nothing to watch until the next one (the timer stays, to be moved on). */
  #settled(): void {
    this.#pending = undefined;
    this.#deadline.clear();
  }
}

export function secondsText(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/**
 * R-ST-1/R-ST-6: no first content within the first-token budget. Before the first content only that budget
 * applies (SPEC §11 "Timeouts": `ttftTimeoutSeconds` before the first content, `streamStallSeconds` between
 * chunks after it), so a reasoning model that sends its role frame and then thinks for 45 s is not cut by
 * the 30 s stall budget while its 60 s first-token budget runs.
 */
export function beforeFirstTokenTimeout(provider: string, model: string, budgets: { ttftTimeoutMs: number }): UpstreamFailure {
  return watchdogFailure(provider, model, `no first token within ${secondsText(budgets.ttftTimeoutMs)} (ttftTimeoutSeconds)`);
}

/** R-ST-2: a committed stream sent nothing for `streamStallSeconds`. */
export function stallTimeout(provider: string, model: string, stallTimeoutMs: number): UpstreamFailure {
  return watchdogFailure(provider, model, `stream stalled for ${secondsText(stallTimeoutMs)} (streamStallSeconds)`);
}

/**
 * The abort plumbing of one streamed upstream call, shared by both commit points: the caller's signal is
 * obeyed for the whole stream, the attempt's only until the commit; a tripped watchdog aborts the call and
 * is what the resulting AbortError really was.
 */
export class StreamCallScope {
  readonly #upstream = new AbortController();
  readonly #caller: AbortSignal | undefined;
  readonly #attempt: AbortSignal | undefined;
  #watchdogError: UpstreamFailure | undefined;
  readonly #onCallerAbort = () => this.abort(this.#caller?.reason);
  readonly #onAttemptAbort = () => this.abort(this.#attempt?.reason);

  constructor(options: { callerSignal?: AbortSignal | undefined; attemptSignal?: AbortSignal | undefined }) {
    this.#caller = options.callerSignal;
    this.#attempt = options.attemptSignal;
    if (this.#caller?.aborted) this.#onCallerAbort();
    if (this.#attempt?.aborted) this.#onAttemptAbort();
    this.#caller?.addEventListener("abort", this.#onCallerAbort, { once: true });
    this.#attempt?.addEventListener("abort", this.#onAttemptAbort, { once: true });
  }

  /** The upstream call's signal. */
  get signal(): AbortSignal {
    return this.#upstream.signal;
  }

  /** Aborts the upstream call; safe to call more than once. */
  readonly abort = (reason?: unknown): void => {
    if (!this.#upstream.signal.aborted) this.#upstream.abort(reason);
  };

  /** A watchdog fired: abort the call and throw its failure. */
  trip(failure: UpstreamFailure): never {
    this.#watchdogError = failure;
    this.abort(failure);
    throw failure;
  }

  /**
   * The next upstream item within `timeoutMs`: a timeout trips the watchdog with `timedOut()`'s failure, and
   * an upstream error is translated (an abort our own watchdog caused is that watchdog's timeout).
   */
  async next<T>(puller: DeadlinePuller<T>, timeoutMs: number, timedOut: () => UpstreamFailure): Promise<IteratorResult<T>> {
    let step: IteratorResult<T> | typeof TIMED_OUT;
    try {
      step = await puller.next(timeoutMs);
    } catch (error) {
      throw this.translate(error);
    }
    if (step === TIMED_OUT) this.trip(timedOut());
    return step;
  }

  /** An AbortError caused by our own watchdog is the watchdog's timeout, not an abort. */
  translate(error: unknown): unknown {
    return this.#watchdogError ?? error;
  }

  /** The commit: from here on only the caller may stop the stream. */
  releaseAttempt(): void {
    this.#attempt?.removeEventListener("abort", this.#onAttemptAbort);
  }

  releaseCaller(): void {
    this.#caller?.removeEventListener("abort", this.#onCallerAbort);
  }

  /** The consumer is done with the stream: stop the timer, abort the call, return the iterator. */
  close(puller: { close(): void } | undefined, iterator: AsyncIterator<unknown> | undefined): void {
    puller?.close();
    this.abort(CONSUMER_STOPPED);
    // Not awaited: a generator busy in next() would only answer return() after that next() settles.
    iterator?.return?.()?.catch(() => {});
  }

  /** The answer is complete: stop the timer and return the iterator, without aborting the call. */
  release(puller: { close(): void } | undefined, iterator: AsyncIterator<unknown> | undefined): void {
    puller?.close();
    iterator?.return?.()?.catch(() => {});
  }
}

/**
 * Pulls the upstream stream until its first content and resolves with the committed stream. Throws (so the
 * runner fails over) on any failure before that point.
 */
export async function commitStream(options: StreamCommitOptions): Promise<CommittedStream> {
  const { clock, provider, model } = options;
  const scope = new StreamCallScope(options);
  const startedAt = clock.now();
  const ttftDeadline = startedAt + options.ttftTimeoutMs;
  // Built once per stream; each makes its watchdog's failure only when that watchdog fires.
  const noFirstToken = () => beforeFirstTokenTimeout(provider, model, options);
  const stalled = () => stallTimeout(provider, model, options.stallTimeoutMs);
  const held: CanonicalStreamEvent[] = [];
  let iterator: AsyncIterator<CanonicalStreamEvent> | undefined;
  let puller: DeadlinePuller | undefined;

  try {
    iterator = options.open(scope.signal)[Symbol.asyncIterator]();
    puller = new DeadlinePuller(iterator, clock, scope.signal);
    const pull = puller;
    for (;;) {
      const result = await scope.next(pull, ttftDeadline - clock.now(), noFirstToken);
      if (result.done) throw cutFailure(provider, model, "stream closed before any content");
      const event = result.value;
      options.progress?.("bytes");
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
    scope.releaseCaller();
    scope.releaseAttempt();
    scope.close(puller, iterator);
    throw error;
  }

  function finishCommit(head: CanonicalStreamEvent[], finished: boolean): CommittedStream {
    // Told while the attempt's signal still reaches the call: an attempt that lost its race is aborted here.
    options.progress?.("content");
    // From here on only the caller may stop the stream; the attempt's watchdog belongs to the uncommitted phase.
    scope.releaseAttempt();
    const committedAt = clock.now();
    const pull = puller as DeadlinePuller;
    // No timer may run until the consumer reads on: a stream nobody reads is the consumer's to abort.
    pull.pause();
    const rest = new CommittedRest(pull, scope, iterator as AsyncIterator<CanonicalStreamEvent>, finished, {
      stallTimeoutMs: options.stallTimeoutMs,
      stalled,
      failureOf: (error) => failureOfErrorEvent(provider, error),
      cut: (message) => cutFailure(provider, model, message),
    });
    return { head, rest, timeToFirstTokenMs: committedAt - startedAt, abort: scope.abort, release: () => rest.release() };
  }
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * The rest of a committed stream (R-ST-2): each pull bounded by the stall budget, an error event, a cut or a
 * finish with stop reason `error` thrown, `message-start` frames skipped, the end after `finish`. A plain
 * iterator rather than an async generator, because every event of the stream passes through it: one promise
 * per event instead of the generator's and an async step's. It keeps a generator's contract — a `return()`
 * during a pull waits for that pull; after the end, an error or a return every pull is done — and whatever
 * ends it (finish, failure, return) releases the caller's signal and closes the call.
 */
class CommittedRest implements AsyncIterableIterator<CanonicalStreamEvent> {
  #completed: boolean;
  #closed = false;
  #pulling: Promise<unknown> | undefined;
  readonly #onStep = (
    step: IteratorResult<CanonicalStreamEvent> | typeof TIMED_OUT,
  ): IteratorResult<CanonicalStreamEvent> | Promise<IteratorResult<CanonicalStreamEvent>> => {
    this.#pulling = undefined;
    try {
      if (step === TIMED_OUT) this.scope.trip(this.failures.stalled());
      if (step.done) throw this.failures.cut("stream closed before it finished");
      const event = step.value;
      if (event.type === "error") throw this.failures.failureOf(event.error);
      if (event.type === "message-start") return this.next();
      if (event.type === "finish") {
        if (event.reason === "error") throw this.failures.cut("stream finished with stop reason: error");
        // A finish completes the answer at once (R-ST-2): the next pull ends the rest without reading on.
        this.#completed = true;
      }
      return { done: false, value: event };
    } catch (error) {
      this.#close();
      throw error;
    }
  };
  readonly #onFailure = (error: unknown): never => {
    this.#pulling = undefined;
    this.#close();
    throw this.scope.translate(error);
  };

  constructor(
    private readonly puller: DeadlinePuller,
    private readonly scope: StreamCallScope,
    private readonly upstream: AsyncIterator<CanonicalStreamEvent>,
    finished: boolean,
    private readonly failures: {
      stallTimeoutMs: number;
      stalled: () => UpstreamFailure;
      failureOf: (error: unknown) => Error;
      cut: (message: string) => UpstreamFailure;
    },
  ) {
    this.#completed = finished;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<CanonicalStreamEvent>> {
    if (this.#closed) return Promise.resolve(DONE);
    if (this.#completed) {
      this.#close();
      return Promise.resolve(DONE);
    }
    const pulled = this.puller.next(this.failures.stallTimeoutMs).then(this.#onStep, this.#onFailure);
    this.#pulling = pulled;
    return pulled;
  }

  async return(value?: unknown): Promise<IteratorResult<CanonicalStreamEvent>> {
    // Like a generator: a return during a pull is answered once that pull settled.
    const pulling = this.#pulling;
    if (pulling) await pulling.catch(() => {});
    this.#close();
    return { done: true, value: value as undefined };
  }

  /** The consumer is done with a complete answer (it may not have pulled at all): the call is let go. */
  release(): void {
    this.#close();
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.scope.releaseCaller();
    // A finish completes the answer at once (R-ST-2); anything left upstream is not waited for. A complete
    // answer's call is not aborted: the provider releases its body, whose last bytes drain, so the
    // connection is reused instead of cut (one new connection per request otherwise).
    if (this.#completed) this.scope.release(this.puller, this.upstream);
    else this.scope.close(this.puller, this.upstream);
  }
}
