/**
 * The streaming commit point of the same-wire lane (SPEC R-ST-1…R-ST-3 on bytes, R-GW-6): the upstream's
 * reads are scanned, not translated. Until the scanner sees the first content every read is held and every
 * failure (an error status, an in-band error event, no first token in time, a stall, a cut) rejects the
 * commit so the runner fails over; after it each upstream read becomes one buffer for one client write.
 *
 * The body is read in flowing mode: each read is scanned in the body's own `data` event and handed straight
 * to a consumer already waiting for it, so a chunk costs one promise instead of the steps of an iterator, a
 * generator and a deadline race. A consumer that falls behind (a slow client) has its reads queued up to
 * QUEUE_HIGH_WATER_BYTES, then the body is paused, and so is the upstream through TCP. The watchdogs are one
 * timer of the injected Clock: the first-token budget from the start, then — only while the consumer waits on
 * the upstream — the stall budget from that wait's start, as a pull with a deadline would have it.
 */
import type { Clock } from "../ports/clock.js";
import type { UpstreamFailure } from "../ports/provider.js";
import type { RawStreamScanner } from "../wire/shared/sse-bytes.js";
import { MovingDeadline } from "./moving-deadline.js";
import { beforeFirstTokenTimeout, cutFailure, stallTimeout, StreamCallScope } from "./stream-commit.js";
import { CONSUMER_STOPPED } from "./stream-relay.js";

/** An upstream body that pushes its reads: undici's response body (a Readable), or `Readable.from` in tests. */
export interface PushedBytes {
  on(event: "data", listener: (chunk: Buffer) => void): unknown;
  on(event: "end", listener: () => void): unknown;
  on(event: "error", listener: (error: unknown) => void): unknown;
  off(event: "data", listener: (chunk: Buffer) => void): unknown;
  off(event: "end", listener: () => void): unknown;
  off(event: "error", listener: (error: unknown) => void): unknown;
  pause(): unknown;
  resume(): unknown;
  destroy(): unknown;
}

export interface RawStreamCommitOptions {
  /** Opens the upstream call with the signal the commit point controls; resolves with its 2xx body, unread. */
  open: (signal: AbortSignal) => Promise<PushedBytes>;
  /**
   * Classifies a failure while reading the body (a network error mid-stream), given the call's signal (an abort
   * is not a network failure); by default it is thrown as is.
   */
  readFailure?: (error: unknown, signal: AbortSignal) => unknown;
  /**
   * What becomes of a complete answer's body, which may still hold its last bytes (`[DONE]`, the terminating
   * chunk): destroyed by default; the lane drains it so the connection goes back to the pool.
   */
  releaseComplete?: (body: PushedBytes) => void;
  scanner: RawStreamScanner;
  /** Turns an in-band error event's payload into the classifier's input. */
  failureOf: (error: unknown) => Error;
  clock: Clock;
  ttftTimeoutMs: number;
  stallTimeoutMs: number;
  /** Obeyed only until the commit (the runner's watchdog must not cut a live stream). */
  attemptSignal?: AbortSignal;
  /** The client's own signal: obeyed for the whole stream. */
  callerSignal?: AbortSignal;
  provider: string;
  model: string;
  /** R-HG-1: told of the first upstream read and of the first content (the runner races slow attempts). */
  progress?: (kind: "bytes" | "content") => void;
}

export interface CommittedRawStream {
  /** The held reads up to and including the first content, as one buffer. */
  head: Buffer;
  /** One buffer per later upstream read; throws on an error event, stall or cut (R-ST-2). */
  rest: AsyncIterable<Buffer>;
  scanner: RawStreamScanner;
  timeToFirstTokenMs: number;
  abort(reason?: unknown): void;
}

/** Reads a slow consumer may leave unread before the upstream body is paused. */
export const QUEUE_HIGH_WATER_BYTES = 64 * 1024;

export function commitRawStream(options: RawStreamCommitOptions): Promise<CommittedRawStream> {
  return new RawStreamPump(options).committed;
}

interface Waiter {
  resolve(result: IteratorResult<Buffer>): void;
  reject(error: unknown): void;
}

const DONE: IteratorResult<Buffer> = { done: true, value: undefined };

class RawStreamPump implements AsyncIterableIterator<Buffer> {
  readonly committed: Promise<CommittedRawStream>;
  readonly #options: RawStreamCommitOptions;
  readonly #scanner: RawStreamScanner;
  /** The upstream call's signal, linked to the caller's (for the whole stream) and the attempt's (until the commit). */
  readonly #scope: StreamCallScope;
  readonly #deadline: MovingDeadline;
  readonly #startedAt: number;
  #resolveCommit!: (committed: CommittedRawStream) => void;
  #rejectCommit!: (error: unknown) => void;
  #isCommitted = false;
  #source: PushedBytes | undefined;
  /** No more reads will come: the answer is complete, the stream failed, or the consumer stopped. */
  #sourceDone = false;
  #watchdogError: UpstreamFailure | undefined;
  readonly #held: Buffer[] = [];
  readonly #queue: Buffer[] = [];
  #queuedBytes = 0;
  #paused = false;
  #waiter: Waiter | undefined;
  /** A failure after the commit, thrown once the reads before it are taken. */
  #failure: { error: unknown } | undefined;

  constructor(options: RawStreamCommitOptions) {
    this.#options = options;
    this.#scanner = options.scanner;
    this.committed = new Promise<CommittedRawStream>((resolve, reject) => {
      this.#resolveCommit = resolve;
      this.#rejectCommit = reject;
    });
    this.#startedAt = options.clock.now();
    this.#deadline = new MovingDeadline(options.clock, this.#onDeadline);
    this.#deadline.set(this.#startedAt + options.ttftTimeoutMs);
    this.#scope = new StreamCallScope(options);
    const signal = this.#scope.signal;
    if (signal.aborted) this.#onUpstreamAbort();
    else signal.addEventListener("abort", this.#onUpstreamAbort, { once: true });
    if (this.#sourceDone) return;
    let opened: Promise<PushedBytes>;
    try {
      opened = options.open(this.#scope.signal);
    } catch (error) {
      this.#fail(error);
      return;
    }
    opened.then(this.#attach, (error: unknown) => this.#fail(this.#watchdogError ?? error));
  }

  /** However the call was aborted (caller, attempt, watchdog, `abort`), the stream fails at once. */
  readonly #onUpstreamAbort = () => {
    // An AbortError caused by our own watchdog is the watchdog's timeout, not an abort.
    this.#fail(this.#watchdogError ?? this.#scope.signal.reason);
  };

  /** Aborts the upstream call; safe to call more than once, and a no-op once the answer is complete. */
  readonly abort = (reason?: unknown): void => {
    if (!this.#sourceDone) this.#scope.abort(reason);
  };

  readonly #onDeadline = () => {
    const { provider, model } = this.#options;
    this.#watchdogError = this.#isCommitted
      ? stallTimeout(provider, model, this.#options.stallTimeoutMs)
      : beforeFirstTokenTimeout(provider, model, this.#options);
    this.abort(this.#watchdogError);
  };

  readonly #attach = (source: PushedBytes) => {
    if (this.#sourceDone) {
      // Failed or aborted while the call was opening (a source that ignored its signal).
      source.destroy();
      return;
    }
    this.#source = source;
    source.on("data", this.#onData);
    source.on("end", this.#onEnd);
    source.on("error", this.#onError);
  };

  readonly #onData = (chunk: Buffer) => {
    if (this.#sourceDone) return;
    let scanned: ReturnType<RawStreamScanner["push"]>;
    try {
      scanned = this.#scanner.push(chunk);
    } catch (error) {
      // Thrown inside the body's 'data' emit it would tear the stream down unseen: it fails this stream instead.
      this.#fail(error);
      return;
    }
    if (!this.#isCommitted) {
      this.#options.progress?.("bytes");
      if (scanned.forward) this.#held.push(scanned.forward);
      if (scanned.failure !== undefined) return this.#fail(this.#options.failureOf(scanned.failure));
      if (!this.#scanner.committed) return;
      // An attempt that lost its race is aborted by this report (and fails here instead of committing).
      this.#options.progress?.("content");
      if (this.#sourceDone) return;
      this.#commit();
      if (this.#scanner.complete) this.#complete();
      return;
    }
    if (scanned.forward) this.#deliver(scanned.forward);
    if (scanned.failure !== undefined) return this.#fail(this.#options.failureOf(scanned.failure));
    if (this.#scanner.complete) this.#complete();
  };

  readonly #onEnd = () => {
    if (this.#sourceDone) return;
    const { provider, model } = this.#options;
    const end = this.#scanner.end();
    if (!this.#isCommitted) {
      if (!end.complete || !this.#scanner.committed) return this.#fail(cutFailure(provider, model, "stream closed before any content"));
      if (end.forward) this.#held.push(end.forward);
      this.#options.progress?.("content");
      if (this.#sourceDone) return;
      this.#commit();
    } else {
      if (!end.complete) return this.#fail(cutFailure(provider, model, "stream closed before it finished"));
      if (end.forward) this.#deliver(end.forward);
    }
    this.#complete();
  };

  readonly #onError = (error: unknown) => {
    if (this.#sourceDone) return;
    const read = this.#options.readFailure;
    this.#fail(this.#watchdogError ?? (read ? read(error, this.#scope.signal) : error));
  };

  #commit(): void {
    this.#isCommitted = true;
    // From here on only the caller may stop the stream; the attempt's watchdog belongs to the uncommitted phase.
    this.#scope.releaseAttempt();
    // No watchdog runs until the consumer waits on the upstream: a stream nobody reads is the consumer's to abort.
    this.#deadline.clear();
    const held = this.#held;
    const head = held.length === 1 ? (held[0] as Buffer) : Buffer.concat(held);
    held.length = 0;
    this.#resolveCommit({
      head,
      rest: this,
      scanner: this.#scanner,
      timeToFirstTokenMs: this.#options.clock.now() - this.#startedAt,
      abort: this.abort,
    });
  }

  #deliver(bytes: Buffer): void {
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = undefined;
      this.#deadline.clear();
      waiter.resolve({ done: false, value: bytes });
      return;
    }
    this.#queue.push(bytes);
    this.#queuedBytes += bytes.length;
    if (!this.#paused && this.#queuedBytes >= QUEUE_HIGH_WATER_BYTES) {
      this.#paused = true;
      this.#source?.pause();
    }
  }

  /** The answer is complete (R-ST-2): nothing left upstream is waited for. */
  #complete(): void {
    const source = this.#finishSource();
    if (source) (this.#options.releaseComplete ?? destroy)(source);
    const waiter = this.#waiter;
    if (waiter && this.#queue.length === 0) {
      this.#waiter = undefined;
      waiter.resolve(DONE);
    }
  }

  #fail(error: unknown): void {
    if (this.#sourceDone) return;
    const source = this.#finishSource();
    this.#scope.abort(error);
    source?.on("error", ignore);
    source?.destroy();
    if (!this.#isCommitted) {
      this.#rejectCommit(error);
      return;
    }
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = undefined;
      waiter.reject(error);
    } else {
      this.#failure = { error };
    }
  }

  /** No more reads: stops the watchdog, lets go of both signals and of the body's events. */
  #finishSource(): PushedBytes | undefined {
    this.#sourceDone = true;
    this.#deadline.stop();
    this.#scope.signal.removeEventListener("abort", this.#onUpstreamAbort);
    this.#scope.releaseCaller();
    this.#scope.releaseAttempt();
    const source = this.#source;
    this.#source = undefined;
    if (source) {
      source.off("data", this.#onData);
      source.off("end", this.#onEnd);
      source.off("error", this.#onError);
      if (this.#paused) source.resume();
    }
    return source;
  }

  next(): Promise<IteratorResult<Buffer>> {
    const queue = this.#queue;
    if (queue.length > 0) {
      const value = queue.shift() as Buffer;
      this.#queuedBytes -= value.length;
      if (this.#paused && queue.length === 0) {
        this.#paused = false;
        this.#source?.resume();
      }
      return Promise.resolve({ done: false, value });
    }
    const failure = this.#failure;
    if (failure) {
      this.#failure = undefined;
      return Promise.reject(failure.error);
    }
    if (this.#sourceDone) return Promise.resolve(DONE);
    // The consumer waits on the upstream: from now on a silence is a stall.
    this.#deadline.set(this.#options.clock.now() + this.#options.stallTimeoutMs);
    return new Promise<IteratorResult<Buffer>>((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
  }

  /** The consumer stopped reading: the upstream call is aborted unless the answer is already complete. */
  return(): Promise<IteratorResult<Buffer>> {
    this.abort(CONSUMER_STOPPED);
    this.#failure = undefined;
    this.#queue.length = 0;
    this.#queuedBytes = 0;
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

function destroy(body: PushedBytes): void {
  body.destroy();
}

function ignore(): void {}
