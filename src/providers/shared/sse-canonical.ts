/**
 * An event-stream body read into canonical events, for the providers' canonical paths (SPEC R-ST-1, R-ST-2,
 * R-ST-6). One loop per call does the work that used to be four stacked generators (text decoding, SSE
 * framing, transport-error translation, the provider's own translation): each upstream read is decoded with
 * TextDecoder, framed by eventsource-parser and handed event by event to the wire's decoder, whose canonical
 * events are then yielded (pull, `sseCanonicalEvents`) or pushed (`pumpSseCanonical`, no promise per event).
 *
 * A complete answer's body is not destroyed: what is left of it (its terminating chunk, usually in the next
 * read) drains in the background so the connection goes back to the pool instead of a new TCP connection per
 * request. Transport errors of the body are classified as `guardTransport` does; what the decoder throws (an
 * in-band error, a malformed end) is thrown after the events that came before it in the same read.
 */
import { createParser, type EventSourceMessage, type EventSourceParser } from "eventsource-parser";
import type { Readable } from "node:stream";
import type { CanonicalStreamEvent } from "../../ports/canonical.js";
import { DRAIN_GRACE_MS } from "./pass-through-call.js";
import { failureFromNetworkError } from "./upstream-failure.js";

/**
 * One wire's event decoder: takes the data of one SSE event, emits its canonical events; `true` once the answer
 * is complete (nothing after it is read). `end` runs when the body ended without that: it emits the finish a
 * complete answer still needs, or throws for a cut.
 */
export interface SseCanonicalDecoder {
  take(event: EventSourceMessage, emit: (event: CanonicalStreamEvent) => void): boolean;
  end(emit: (event: CanonicalStreamEvent) => void): void;
}

export interface SseTransport {
  provider: string;
  /** The call's signal: an abort is the caller's, not a transport failure. */
  signal: AbortSignal;
}

function ignore(): void {}

/**
 * Lets the rest of a complete answer's body flow to its end, so undici reuses the connection (destroying it now
 * would close a connection whose body ends in the next bytes). An upstream that keeps the body open past the
 * grace loses the connection. Nobody waits for this.
 */
function drainFlowing(body: Readable): void {
  if (body.readableEnded || body.destroyed) return;
  body.on("error", ignore);
  body.on("data", ignore);
  const timer = setTimeout(() => body.destroy(), DRAIN_GRACE_MS);
  timer.unref();
  body.once("close", () => clearTimeout(timer));
}

/** `drainFlowing` for a body read through its async iterator (whose 'readable' listener rules the flow). */
function drainIterated(body: Readable, chunks: AsyncIterator<Uint8Array>): void {
  if (body.readableEnded || body.destroyed) return;
  const timer = setTimeout(() => body.destroy(), DRAIN_GRACE_MS);
  timer.unref();
  const rest = async () => {
    try {
      while (!(await chunks.next()).done);
    } catch {
      // Destroyed after the grace, or cut: the answer was complete already.
    } finally {
      clearTimeout(timer);
    }
  };
  void rest();
}

/**
 * Bytes → SSE events → the decoder, one read at a time. A failure of the decoder stops the reading and is kept
 * until the events before it were handed on (`failure`).
 */
class SseReads {
  readonly #decoder: SseCanonicalDecoder;
  readonly #text = new TextDecoder();
  readonly #parser: EventSourceParser;
  readonly #emit: (event: CanonicalStreamEvent) => void;
  /** The answer is complete, or the decoder failed: later events of the body are not decoded. */
  stopped = false;
  complete = false;
  failure: { error: unknown } | undefined;

  constructor(decoder: SseCanonicalDecoder, emit: (event: CanonicalStreamEvent) => void) {
    this.#decoder = decoder;
    this.#emit = emit;
    this.#parser = createParser({ onEvent: (event) => this.#take(event) });
  }

  /** The consumer needs no more events. */
  stop(): void {
    this.stopped = true;
  }

  read(chunk: Uint8Array): void {
    const text = this.#text.decode(chunk, { stream: true });
    if (text !== "") this.#parser.feed(text);
  }

  /** The body ended: an event left unterminated is still delivered, then the decoder's own end. */
  end(): void {
    const rest = this.#text.decode();
    if (rest !== "") this.#parser.feed(rest);
    // A blank line ends any event the server left unterminated (a lone newline would only end the line).
    this.#parser.feed("\n\n");
    if (this.stopped) return;
    try {
      this.#decoder.end(this.#emit);
    } catch (error) {
      this.failure = { error };
    }
  }

  #take(event: EventSourceMessage): void {
    if (this.stopped) return;
    try {
      if (this.#decoder.take(event, this.#emit)) {
        this.complete = true;
        this.stopped = true;
      }
    } catch (error) {
      this.failure = { error };
      this.stopped = true;
    }
  }
}

/** What `sseCanonicalEvents` reads: a 2xx event-stream body and its wire's decoder. */
export interface OpenedSse {
  body: Readable;
  decoder: SseCanonicalDecoder;
}

/**
 * The canonical events of the body `open` resolves with, pulled; `open` runs at the first pull (a provider's
 * `stream` throws nothing before it is read). Returning the iterator early releases the body (destroyed unless
 * the answer was complete).
 */
export async function* sseCanonicalEvents(open: () => Promise<OpenedSse>, transport: SseTransport): AsyncGenerator<CanonicalStreamEvent> {
  const { body, decoder } = await open();
  const ready: CanonicalStreamEvent[] = [];
  const reads = new SseReads(decoder, (event) => ready.push(event));
  const chunks = body[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  let ended = false;
  try {
    while (!reads.stopped) {
      let step: IteratorResult<Uint8Array>;
      try {
        step = await chunks.next();
      } catch (error) {
        ended = true;
        throw failureFromNetworkError(error, transport);
      }
      if (step.done) {
        ended = true;
        reads.end();
      } else {
        reads.read(step.value);
      }
      // Yielded by index: the next read appends to the same array only after these went out.
      for (let index = 0; index < ready.length; index += 1) yield ready[index] as CanonicalStreamEvent;
      ready.length = 0;
      if (reads.failure) throw reads.failure.error;
      if (ended) return;
    }
  } finally {
    if (!ended) {
      if (reads.complete) drainIterated(body, chunks);
      else body.destroy();
    }
  }
}

/**
 * The body's canonical events pushed as its reads arrive (flowing mode): `push` returns false once it needs no
 * more (the answer is complete, or an event failed it). Resolves when the body ended or the push stopped it;
 * rejects with the decoder's failure or a classified transport error.
 */
export function pumpSseCanonical(
  body: Readable,
  decoder: SseCanonicalDecoder,
  transport: SseTransport,
  push: (event: CanonicalStreamEvent) => boolean,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let wanted = true;
    const reads: SseReads = new SseReads(decoder, (event) => {
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
      drainFlowing(body);
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
