/**
 * THE streaming commit point of the pipe (SPEC R-ST-1…R-ST-3), the same code whether the upstream's frames are
 * forwarded as bytes (same wire: the WireFormat's scanner reads them) or translated (another wire: the provider
 * decodes them into canonical events, which the canonical watch reads). The watch says of every frame whether it
 * is a lifecycle frame, content (the commit point), an in-band failure or the end of the answer. Until the first
 * content every frame is held and every failure (an error status, an in-band error, no first token in time, a
 * stall, a cut) rejects the commit so the runner fails over; after it each frame goes to the consumer.
 *
 * The source is read in flowing mode: each frame is watched in the source's own `data` event and handed straight
 * to a consumer already waiting for it, so a frame costs one promise instead of the steps of an iterator, a
 * generator and a deadline race. A consumer that falls behind (a slow client) has its frames queued up to the
 * queue's high water, then the source is paused, and so is the upstream through TCP. The watchdogs are one timer
 * of the injected Clock: the first-token budget from the start, then — only while the consumer waits on the
 * upstream — the stall budget from that wait's start, as a pull with a deadline would have it.
 */
import type { Clock } from "../ports/clock.js";
import type { UpstreamFailure } from "../ports/provider.js";
import type { RawStreamScanner } from "../wire/shared/sse-bytes.js";
import { MovingDeadline } from "./moving-deadline.js";
import { beforeFirstTokenTimeout, cutFailure, stallTimeout } from "./stream-failures.js";
import { CONSUMER_STOPPED } from "./stream-relay.js";

/** An upstream source that pushes its frames: undici's response body (a Readable), or events pumped from a provider. */
export interface PushedFrames<T> {
  on(event: "data", listener: (frame: T) => void): unknown;
  on(event: "end", listener: () => void): unknown;
  on(event: "error", listener: (error: unknown) => void): unknown;
  off(event: "data", listener: (frame: T) => void): unknown;
  off(event: "end", listener: () => void): unknown;
  off(event: "error", listener: (error: unknown) => void): unknown;
  pause(): unknown;
  resume(): unknown;
  destroy(): unknown;
}

/** An upstream body of bytes. */
export type PushedBytes = PushedFrames<Buffer>;

/**
 * What the commit point asks of a stream's frames: a WireFormat's scanner for bytes (RawStreamScanner has this
 * shape), the canonical watch for events.
 */
export interface FrameWatch<T> {
  /** Watches one frame: what of it goes on (nothing for a frame held back or dropped), and an in-band failure. */
  push(frame: T): { forward: T | undefined; failure?: unknown };
  /** The source ended: whether the answer is complete anyway, and a terminal frame to supply. */
  end(): { complete: boolean; forward?: T | undefined };
  /** First content was seen: the commit point (R-ST-1). */
  readonly committed: boolean;
  /** The answer is complete: nothing left upstream is waited for (R-ST-2). */
  readonly complete: boolean;
}

export interface CommitPointOptions<T> {
  /** Opens the upstream call with the signal the commit point controls; resolves with its source, unread. */
  open: (signal: AbortSignal) => Promise<PushedFrames<T>>;
  watch: FrameWatch<T>;
  /**
   * Classifies a failure while reading the source (a network error mid-stream), given the call's signal (an
   * abort is not a network failure); by default it is thrown as is.
   */
  readFailure?: (error: unknown, signal: AbortSignal) => unknown;
  /**
   * What becomes of a complete answer's source, which may still hold its last frames (`[DONE]`, the terminating
   * chunk): destroyed by default; the byte lane drains it so the connection goes back to the pool.
   */
  releaseComplete?: (source: PushedFrames<T>) => void;
  /** Turns an in-band failure the watch found into the classifier's input. */
  failureOf: (failure: unknown) => Error;
  /** How much of the consumer's queue a frame takes (bytes for a buffer; one by default) … */
  sizeOf?: (frame: T) => number;
  /** … and how much may wait unread before the source is paused. */
  queueHighWater?: number;
  clock: Clock;
  ttftTimeoutMs: number;
  stallTimeoutMs: number;
  /** Obeyed only until the commit (the runner's watchdog must not cut a live stream). */
  attemptSignal?: AbortSignal;
  /** The client's own signal: obeyed for the whole stream. */
  callerSignal?: AbortSignal;
  provider: string;
  model: string;
  /** R-HG-1: told of the first upstream frame and of the first content (the runner races slow attempts). */
  progress?: (kind: "bytes" | "content") => void;
}

export interface CommittedFrames<T> {
  /** The held frames up to and including the first content, in upstream order. */
  head: T[];
  /** Every later frame; throws on an in-band error, a stall or a cut (R-ST-2). */
  rest: AsyncIterable<T>;
  timeToFirstTokenMs: number;
  /** Aborts the upstream call; safe to call more than once, and a no-op once the answer is complete. */
  abort(reason?: unknown): void;
  /** The consumer is done (it may stop before reading `rest`): a complete answer's call is let go, any other stopped. */
  release(): void;
}

/** Frames a slow consumer may leave unread before the source is paused, when they are counted one each. */
const QUEUE_HIGH_WATER_FRAMES = 256;

/** Reads a slow consumer may leave unread before an upstream body of bytes is paused. */
export const QUEUE_HIGH_WATER_BYTES = 64 * 1024;

/** Resolves at the commit point (the first content) with the committed stream; rejects for failover before it. */
export function commitFrames<T>(options: CommitPointOptions<T>): Promise<CommittedFrames<T>> {
  return new FramePump(options).committed;
}

export interface RawStreamCommitOptions extends Omit<CommitPointOptions<Buffer>, "watch" | "sizeOf" | "queueHighWater"> {
  scanner: RawStreamScanner;
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

/** The commit point over an upstream body of bytes, watched by its WireFormat's scanner (the same-wire pair). */
export async function commitRawStream(options: RawStreamCommitOptions): Promise<CommittedRawStream> {
  const { scanner, ...rest } = options;
  const committed = await commitFrames<Buffer>({ ...rest, watch: scanner, sizeOf: byteLength, queueHighWater: QUEUE_HIGH_WATER_BYTES });
  const held = committed.head;
  return {
    head: held.length === 1 ? (held[0] as Buffer) : Buffer.concat(held),
    rest: committed.rest,
    scanner,
    timeToFirstTokenMs: committed.timeToFirstTokenMs,
    abort: committed.abort,
  };
}

function byteLength(frame: Buffer): number {
  return frame.length;
}

function one(): number {
  return 1;
}

interface Waiter<T> {
  resolve(result: IteratorResult<T>): void;
  reject(error: unknown): void;
}

const DONE: IteratorResult<never> = Object.freeze({ done: true, value: undefined });

class FramePump<T> implements AsyncIterableIterator<T> {
  readonly committed: Promise<CommittedFrames<T>>;
  readonly #options: CommitPointOptions<T>;
  readonly #watch: FrameWatch<T>;
  readonly #sizeOf: (frame: T) => number;
  readonly #highWater: number;
  /** The upstream call's signal, linked to the caller's (for the whole stream) and the attempt's (until the commit). */
  readonly #scope: StreamCallScope;
  readonly #deadline: MovingDeadline;
  readonly #startedAt: number;
  #resolveCommit!: (committed: CommittedFrames<T>) => void;
  #rejectCommit!: (error: unknown) => void;
  #isCommitted = false;
  #source: PushedFrames<T> | undefined;
  /** No more frames will come: the answer is complete, the stream failed, or the consumer stopped. */
  #sourceDone = false;
  #watchdogError: UpstreamFailure | undefined;
  readonly #held: T[] = [];
  readonly #queue: T[] = [];
  #queuedSize = 0;
  #paused = false;
  #waiter: Waiter<T> | undefined;
  /** A failure after the commit, thrown once the frames before it are taken. */
  #failure: { error: unknown } | undefined;

  constructor(options: CommitPointOptions<T>) {
    this.#options = options;
    this.#watch = options.watch;
    this.#sizeOf = options.sizeOf ?? one;
    this.#highWater = options.queueHighWater ?? QUEUE_HIGH_WATER_FRAMES;
    this.committed = new Promise<CommittedFrames<T>>((resolve, reject) => {
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
    let opened: Promise<PushedFrames<T>>;
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

  readonly #attach = (source: PushedFrames<T>) => {
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

  readonly #onData = (frame: T) => {
    if (this.#sourceDone) return;
    let watched: ReturnType<FrameWatch<T>["push"]>;
    try {
      watched = this.#watch.push(frame);
    } catch (error) {
      // Thrown inside the source's 'data' emit it would tear the source down unseen: it fails this stream instead.
      this.#fail(error);
      return;
    }
    if (!this.#isCommitted) {
      this.#options.progress?.("bytes");
      if (watched.forward !== undefined) this.#held.push(watched.forward);
      if (watched.failure !== undefined) return this.#fail(this.#options.failureOf(watched.failure));
      if (!this.#watch.committed) return;
      // An attempt that lost its race is aborted by this report (and fails here instead of committing).
      this.#options.progress?.("content");
      if (this.#sourceDone) return;
      this.#commit();
      if (this.#watch.complete) this.#complete();
      return;
    }
    if (watched.forward !== undefined) this.#deliver(watched.forward);
    if (watched.failure !== undefined) return this.#fail(this.#options.failureOf(watched.failure));
    if (this.#watch.complete) this.#complete();
  };

  readonly #onEnd = () => {
    if (this.#sourceDone) return;
    const { provider, model } = this.#options;
    const end = this.#watch.end();
    if (!this.#isCommitted) {
      if (!end.complete || !this.#watch.committed) return this.#fail(cutFailure(provider, model, "stream closed before any content"));
      if (end.forward !== undefined) this.#held.push(end.forward);
      this.#options.progress?.("content");
      if (this.#sourceDone) return;
      this.#commit();
    } else {
      if (!end.complete) return this.#fail(cutFailure(provider, model, "stream closed before it finished"));
      if (end.forward !== undefined) this.#deliver(end.forward);
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
    this.#deadline.stop();
    const head = this.#held.splice(0);
    this.#resolveCommit({
      head,
      rest: this,
      timeToFirstTokenMs: this.#options.clock.now() - this.#startedAt,
      abort: this.abort,
      release: this.#release,
    });
  }

  #deliver(frame: T): void {
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = undefined;
      this.#deadline.clear();
      waiter.resolve({ done: false, value: frame });
      return;
    }
    this.#queue.push(frame);
    this.#queuedSize += this.#sizeOf(frame);
    if (!this.#paused && this.#queuedSize >= this.#highWater) {
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

  /** No more frames: stops the watchdog, lets go of both signals and of the source's events. */
  #finishSource(): PushedFrames<T> | undefined {
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

  next(): Promise<IteratorResult<T>> {
    const queue = this.#queue;
    if (queue.length > 0) {
      const value = queue.shift() as T;
      this.#queuedSize -= this.#sizeOf(value);
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
    return new Promise<IteratorResult<T>>((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
  }

  /** The consumer stopped reading: the upstream call is aborted unless the answer is already complete. */
  return(): Promise<IteratorResult<T>> {
    this.#release();
    return Promise.resolve(DONE);
  }

  readonly #release = (): void => {
    this.abort(CONSUMER_STOPPED);
    this.#failure = undefined;
    this.#queue.length = 0;
    this.#queuedSize = 0;
  };

  [Symbol.asyncIterator](): this {
    return this;
  }
}

function destroy(source: { destroy(): unknown }): void {
  source.destroy();
}

function ignore(): void {}

/**
 * The abort plumbing of one streamed upstream call: the caller's signal is obeyed for the whole stream, the attempt's only until the commit.
 */
export class StreamCallScope {
  readonly #upstream = new AbortController();
  readonly #caller: AbortSignal | undefined;
  readonly #attempt: AbortSignal | undefined;
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

  /** The commit: from here on only the caller may stop the stream. */
  releaseAttempt(): void {
    this.#attempt?.removeEventListener("abort", this.#onAttemptAbort);
  }

  releaseCaller(): void {
    this.#caller?.removeEventListener("abort", this.#onCallerAbort);
  }
}
