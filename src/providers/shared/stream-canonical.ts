/**
 * An upstream stream body read into canonical events, for the providers' canonical paths (SPEC R-ST-1, R-ST-2,
 * R-ST-6). One loop per call does the work that used to be four stacked generators (text decoding, framing,
 * transport-error translation, the provider's own translation): each upstream read is decoded with
 * TextDecoder, framed (server-sent events by eventsource-parser, or NDJSON lines) and handed piece by piece to
 * the wire format's stream decoder, whose canonical events are then pulled (`streamCanonicalEvents`, one
 * settled promise per event) or pushed (`pumpStreamCanonical`, no promise per event). Both read the body in
 * flowing mode; the pulled reading pauses it when the consumer falls behind, so backpressure still reaches the
 * upstream.
 *
 * A complete answer's body is not destroyed: what is left of it (its terminating chunk, usually in the next
 * read) drains in the background so the connection goes back to the pool instead of a new TCP connection per
 * request. Transport errors of the body are classified as any network failure (`failureFromNetworkError`); what the decoder's sink throws
 * (an in-band error, a malformed end) is thrown after the events that came before it in the same read.
 */
import { createParser, type EventSourceParser } from "eventsource-parser";
import type { Readable } from "node:stream";
import type { CanonicalStreamEvent } from "../../ports/canonical.js";
import { AwsEventStreamPieces } from "../../wire/shared/aws-event-stream.js";
import type { StreamDecodeSink, StreamFraming, WireStreamDecoder } from "../../wire/wire-format.js";
import { drainCompleteBody } from "./pass-through-call.js";
import { failureFromNetworkError } from "./upstream-failure.js";

/** What a decoder's findings beyond its events become: the provider's failures (each throws). */
export type StreamFailures = Omit<StreamDecodeSink, "event">;

/** A 2xx stream body with its format's decoder and framing, and what the decoder's findings become. */
export interface StreamReading {
  decoder: WireStreamDecoder;
  framing: StreamFraming;
  failures: StreamFailures;
}

export interface StreamTransport {
  provider: string;
  /** The call's signal: an abort is the caller's, not a transport failure. */
  signal: AbortSignal;
}

function ignore(): void {}

/** Splits text into NDJSON lines: each non-blank line without its terminator; a last unterminated one counts. */
class NdjsonLines {
  #buffered = "";

  constructor(private readonly onLine: (line: string) => void) {}

  feed(text: string): void {
    const lines = (this.#buffered + text).split("\n");
    this.#buffered = lines.pop() ?? "";
    for (const line of lines) {
      const trimmed = line.trim();
      if (trimmed !== "") this.onLine(trimmed);
    }
  }

  end(): void {
    const last = this.#buffered.trim();
    this.#buffered = "";
    if (last !== "") this.onLine(last);
  }
}

/**
 * Bytes → framed pieces → the decoder, one read at a time. A failure of the decoder stops the reading and is
 * kept until the events before it were handed on (`failure`).
 */
class FramedReads {
  readonly #decoder: WireStreamDecoder;
  readonly #sink: StreamDecodeSink;
  readonly #text = new TextDecoder();
  readonly #framer: EventSourceParser | NdjsonLines;
  /** A binary framing (AWS event-stream) reads the bytes themselves, not their text. */
  readonly #binary: AwsEventStreamPieces | undefined;
  /** The answer is complete, or the decoder failed: later pieces of the body are not decoded. */
  stopped = false;
  complete = false;
  failure: { error: unknown } | undefined;

  constructor(reading: StreamReading, emit: (event: CanonicalStreamEvent) => void) {
    this.#decoder = reading.decoder;
    const failures = reading.failures;
    this.#sink = { event: emit, malformed: failures.malformed, error: failures.error, failed: failures.failed, cut: failures.cut };
    this.#framer =
      reading.framing === "ndjson"
        ? new NdjsonLines((line) => this.#take(line))
        : createParser({ onEvent: (event) => this.#take(event.data) });
    this.#binary =
      reading.framing === "aws-event-stream"
        ? new AwsEventStreamPieces(
            (piece) => this.#take(piece),
            (problem) => this.#damaged(problem),
          )
        : undefined;
  }

  /** The consumer needs no more events. */
  stop(): void {
    this.stopped = true;
  }

  read(chunk: Uint8Array): void {
    if (this.#binary) return this.#binary.feed(chunk);
    const text = this.#text.decode(chunk, { stream: true });
    if (text !== "") this.#framer.feed(text);
  }

  /** The body ended: a piece left unterminated is still delivered, then the decoder's own end. */
  end(): void {
    if (this.#binary) return this.#endDecoder();
    const rest = this.#text.decode();
    if (rest !== "") this.#framer.feed(rest);
    // A blank line ends any event the server left unterminated (a lone newline would only end the line).
    if (this.#framer instanceof NdjsonLines) this.#framer.end();
    else this.#framer.feed("\n\n");
    this.#endDecoder();
  }

  #endDecoder(): void {
    if (this.stopped) return;
    try {
      this.#decoder.end(this.#sink);
    } catch (error) {
      this.failure = { error };
    }
  }

  /** A binary frame that cannot be read: skipped and counted like a malformed piece (R-ST-2); the body's end decides the rest. */
  #damaged(problem: string): void {
    if (this.stopped) return;
    try {
      this.#sink.malformed("", problem);
    } catch (error) {
      this.failure = { error };
      this.stopped = true;
    }
  }

  #take(data: string): void {
    if (this.stopped) return;
    try {
      if (this.#decoder.take(data, this.#sink)) {
        this.complete = true;
        this.stopped = true;
      }
    } catch (error) {
      this.failure = { error };
      this.stopped = true;
    }
  }
}

/**
 * What `streamCanonicalEvents` reads: a 2xx stream body and how to read it — or, when the upstream ignored
 * `stream: true` and sent its complete JSON answer (R-GW-10), that answer's events, already decoded.
 */
export type OpenedStream = (StreamReading & { body: Readable }) | { answer: readonly CanonicalStreamEvent[] };

/**
 * R-GW-10 for a pushed reading: a complete answer's events, pushed until the consumer needs no more — what
 * `pumpStreamCanonical` does for a body, for an answer that came whole.
 */
export function pushAnswer(events: readonly CanonicalStreamEvent[], push: (event: CanonicalStreamEvent) => boolean): void {
  for (const event of events) if (!push(event)) return;
}

/**
 * The canonical events of the body `open` resolves with, pulled; `open` runs at the first pull (a provider's
 * `stream` throws nothing before it is read). Returning the iterator early releases the body (destroyed unless
 * the answer was complete, then drained).
 */
export function streamCanonicalEvents(
  open: () => Promise<OpenedStream>,
  transport: StreamTransport,
): AsyncIterableIterator<CanonicalStreamEvent> {
  return new PulledStreamEvents(open, transport);
}

/** Events decoded ahead of the consumer before the body is paused (backpressure reaches the upstream). */
const READ_AHEAD_EVENTS = 64;

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

type Poll = { result: IteratorResult<CanonicalStreamEvent> } | { error: unknown } | undefined;

/**
 * The pulled reading as a plain iterator over the body in flowing mode, not an async generator over the body's
 * own async iterator: each event costs one settled promise instead of several generator steps. Events of a read
 * are queued; a pull takes the next one or waits for the next read. The order is the body's: a failure (the
 * decoder's, or the transport's) comes after every event decoded before it.
 */
class PulledStreamEvents implements AsyncIterableIterator<CanonicalStreamEvent> {
  readonly #open: () => Promise<OpenedStream>;
  readonly #transport: StreamTransport;
  readonly #ready: CanonicalStreamEvent[] = [];
  #head = 0;
  #body: Readable | undefined;
  #reads: FramedReads | undefined;
  #started = false;
  #waiter: { resolve(result: IteratorResult<CanonicalStreamEvent>): void; reject(error: unknown): void } | undefined;
  #ended = false;
  #transportFailure: { error: unknown } | undefined;
  #closed = false;

  constructor(open: () => Promise<OpenedStream>, transport: StreamTransport) {
    this.#open = open;
    this.#transport = transport;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<CanonicalStreamEvent>> {
    if (this.#closed) return Promise.resolve(DONE);
    if (!this.#started) return this.#start();
    const poll = this.#poll();
    if (poll) return "error" in poll ? Promise.reject(poll.error) : Promise.resolve(poll.result);
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
      // A body paused at the read-ahead limit flows again once the queue is empty.
      if (this.#body?.isPaused()) this.#body.resume();
    });
  }

  return(value?: unknown): Promise<IteratorResult<CanonicalStreamEvent>> {
    this.#close();
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.resolve(DONE);
    return Promise.resolve({ done: true, value: value as undefined });
  }

  async #start(): Promise<IteratorResult<CanonicalStreamEvent>> {
    this.#started = true;
    let opened: OpenedStream;
    try {
      opened = await this.#open();
    } catch (error) {
      this.#closed = true;
      throw error;
    }
    if ("answer" in opened) {
      // The answer came whole (R-GW-10): its events are the stream, and nothing is left to read.
      if (this.#closed) return DONE;
      this.#ready.push(...opened.answer);
      this.#ended = true;
      return this.next();
    }
    const body = opened.body;
    this.#body = body;
    if (this.#closed) {
      // Returned while the call was opening: nothing was read, nothing is wanted.
      body.on("error", ignore);
      body.destroy();
      return DONE;
    }
    this.#reads = new FramedReads(opened, (event) => this.#ready.push(event));
    body.on("data", this.#onData);
    body.on("end", this.#onEnd);
    body.on("error", this.#onError);
    body.on("close", this.#onClose);
    return this.next();
  }

  /** What a pull gets now: an event, the end, a failure — or undefined: wait for the body. */
  #poll(): Poll {
    if (this.#head < this.#ready.length) {
      const value = this.#ready[this.#head] as CanonicalStreamEvent;
      this.#head += 1;
      if (this.#head === this.#ready.length) {
        this.#ready.length = 0;
        this.#head = 0;
      }
      return { result: { done: false, value } };
    }
    const reads = this.#reads;
    const failure = reads?.failure ?? this.#transportFailure;
    if (failure) {
      this.#close();
      return { error: failure.error };
    }
    if (reads?.complete || this.#ended) {
      this.#close();
      return { result: DONE };
    }
    return undefined;
  }

  #wake(): void {
    const waiter = this.#waiter;
    if (!waiter) return;
    const poll = this.#poll();
    if (!poll) return;
    this.#waiter = undefined;
    if ("error" in poll) waiter.reject(poll.error);
    else waiter.resolve(poll.result);
  }

  readonly #onData = (chunk: Uint8Array) => {
    const reads = this.#reads as FramedReads;
    reads.read(chunk);
    // Complete or failed, the body keeps flowing (nothing more is decoded): a complete answer's last bytes are
    // read at once, so undici has the response's end — and keeps the connection — before the call is released.
    if (!reads.stopped && this.#ready.length - this.#head >= READ_AHEAD_EVENTS) this.#body?.pause();
    this.#wake();
  };

  readonly #onEnd = () => {
    this.#ended = true;
    if (!this.#reads?.stopped) this.#reads?.end();
    this.#wake();
  };

  readonly #onError = (error: unknown) => {
    this.#transportFailure ??= { error: failureFromNetworkError(error, this.#transport) };
    this.#wake();
  };

  readonly #onClose = () => {
    // Closed before its end without an error of its own: cut, as the body's async iterator would have said.
    if (!this.#ended && !this.#transportFailure) this.#onError(prematureClose());
  };

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const body = this.#body;
    if (!body) return;
    body.off("data", this.#onData);
    body.off("end", this.#onEnd);
    body.off("error", this.#onError);
    body.off("close", this.#onClose);
    body.on("error", ignore);
    if (this.#ended) return;
    if (this.#reads?.complete) drainCompleteBody(body);
    else body.destroy();
  }
}

function prematureClose(): Error {
  return Object.assign(new Error("Premature close"), { code: "ERR_STREAM_PREMATURE_CLOSE" });
}

/**
 * The body's canonical events pushed as its reads arrive (flowing mode): `push` returns false once it needs no
 * more (the answer is complete, or an event failed it). Resolves when the body ended or the push stopped it;
 * rejects with the decoder's failure or a classified transport error.
 */
export function pumpStreamCanonical(
  body: Readable,
  reading: StreamReading,
  transport: StreamTransport,
  push: (event: CanonicalStreamEvent) => boolean,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let wanted = true;
    const reads: FramedReads = new FramedReads(reading, (event) => {
      if (!wanted || push(event)) return;
      wanted = false;
      reads.stop();
    });
    const settle = (error?: { error: unknown }) => {
      body.off("data", onData);
      body.off("end", onEnd);
      body.off("error", onError);
      // What follows is not read: an error from here on (the body released before its end) is expected.
      body.on("error", ignore);
      if (error) reject(error.error);
      else resolve();
    };
    const onData = (chunk: Uint8Array) => {
      reads.read(chunk);
      if (reads.failure) {
        settle(reads.failure);
        body.destroy();
        return;
      }
      if (!reads.stopped) return;
      settle();
      // The consumer has its answer (or refused an event: then it aborts the call itself).
      drainCompleteBody(body);
    };
    const onEnd = () => {
      if (!reads.stopped) reads.end();
      settle(reads.failure);
    };
    const onError = (error: unknown) => settle({ error: failureFromNetworkError(error, transport) });
    body.on("data", onData);
    body.on("end", onEnd);
    body.on("error", onError);
  });
}
