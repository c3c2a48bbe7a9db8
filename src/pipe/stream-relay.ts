/**
 * One client stream made of committed segments (SPEC R-ST-4, R-ST-5): the first attempt's stream, then — when
 * it fails after its commit — the continuations the runner makes. Each attempt hands its committed segment to
 * `play` and stays pending until the segment ends, so the run settles when the client's stream does. The
 * consumer reads `output()`: segment after segment, waiting at a seam for the next one; when the run ends
 * without one, the stream ends with the first post-commit failure (R-ST-2's explicit error).
 */
import type { DeliveredAnswer } from "../wire/shared/sse-bytes.js";

export interface StreamSegment<Out> {
  /** The held output up to the commit, in the client's form. */
  head: readonly Out[];
  /** The rest of the segment's output; throws on a stall, cut or error event. */
  rest: AsyncIterable<Out>;
  /** Sees every item as it goes to the client (what the client holds, without another generator layer). */
  observe?(item: Out): void;
  /** What of the answer this segment delivered so far. */
  delivered(): DeliveredAnswer;
  /** The segment carried the answer's end (a consumer that stops reading after it completed the answer). */
  complete(): boolean;
  /** R-GW-11: the answer ended with a refusal stop reason (asked once the segment was played). */
  refused?(): boolean;
  abort(reason?: unknown): void;
  /**
   * A complete segment the consumer is done with lets go of its call without cutting it, so the connection
   * is reused. Absent: the segment released its call itself when it completed (the same-wire pump).
   */
  release?(): void;
}

interface Playing<Out> {
  segment: StreamSegment<Out>;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Why an upstream call is aborted once its consumer stopped reading (the relay, both commit points). Allocated
 * once: a consumer that stops early aborts its upstream on every request, and a fresh DOMException captures a
 * stack trace each time.
 */
export const CONSUMER_STOPPED = new DOMException("The stream consumer stopped reading.", "AbortError");

export class StreamRelay<Out> {
  readonly #played: StreamSegment<Out>[] = [];
  #pending: Playing<Out> | undefined;
  #waiter: { resolve(playing: Playing<Out> | undefined): void } | undefined;
  #ended = false;
  #endError: unknown;
  #firstFailure: unknown;
  #stopped = false;
  #current: Playing<Out> | undefined;

  /** Whether a failure now could still be continued: the consumer is reading and no tool call was cut. */
  get continuable(): boolean {
    return !this.#stopped && this.delivered().toolCalls.length === 0;
  }

  /** The answer the client holds: every segment's delivered text, in order. */
  delivered(): DeliveredAnswer {
    const answer: DeliveredAnswer = { text: "", toolCalls: [] };
    for (const segment of this.#played) {
      const part = segment.delivered();
      answer.text += part.text;
      answer.toolCalls.push(...part.toolCalls);
      if (part.blocks) answer.blocks = part.blocks;
      // The answer is the first segment's: every later one goes on under its name (R-GW-10).
      if (part.identity && !answer.identity) answer.identity = part.identity;
    }
    return answer;
  }

  /** Resolves when the segment completed the answer; rejects with its failure or when the consumer stopped. */
  play(segment: StreamSegment<Out>): Promise<void> {
    if (this.#stopped) {
      segment.abort(CONSUMER_STOPPED);
      return Promise.reject(CONSUMER_STOPPED);
    }
    return new Promise<void>((resolve, reject) => {
      const playing = { segment, resolve, reject };
      this.#played.push(segment);
      const waiter = this.#waiter;
      this.#waiter = undefined;
      if (waiter) waiter.resolve(playing);
      else this.#pending = playing;
    });
  }

  /** Stops the stream from outside (the client went away before reading): the upstream call is aborted. */
  abort(reason: unknown = CONSUMER_STOPPED): void {
    this.#stopped = true;
    const pending = this.#pending;
    this.#pending = undefined;
    pending?.segment.abort(reason);
    pending?.reject(reason);
    this.#current?.segment.abort(reason);
  }

  /** The run is over: with an error when it ended without completing the stream. */
  end(error?: unknown): void {
    this.#ended = true;
    this.#endError = error;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.resolve(undefined);
  }

  async *output(): AsyncGenerator<Out> {
    let playing: Playing<Out> | undefined;
    let settled = true;
    try {
      for (;;) {
        playing = await this.#next();
        this.#current = playing;
        if (!playing) throw this.#firstFailure ?? this.#endError ?? new Error("The stream ended before its answer.");
        settled = false;
        const { segment } = playing;
        try {
          const observe = segment.observe;
          for (const item of segment.head) {
            observe?.(item);
            yield item;
          }
          if (observe) {
            for await (const item of segment.rest) {
              observe(item);
              yield item;
            }
          } else {
            yield* segment.rest;
          }
        } catch (error) {
          this.#firstFailure ??= error;
          settled = true;
          // The runner records it and makes a continuation, or ends the run (then `end` wakes us).
          playing.reject(error);
          continue;
        }
        settled = true;
        playing.resolve();
        return;
      }
    } finally {
      this.#current = undefined;
      if (!settled && playing) {
        // The consumer stopped reading (client gone, or the answer's end was written).
        this.#stopped = true;
        if (playing.segment.complete()) {
          // A complete answer's call is let go, not aborted: its connection is kept.
          playing.segment.release?.();
          playing.resolve();
        } else {
          playing.segment.abort(CONSUMER_STOPPED);
          playing.reject(CONSUMER_STOPPED);
        }
      } else if (playing === undefined || settled) {
        this.#stopped = true;
      }
    }
  }

  #next(): Promise<Playing<Out> | undefined> {
    const pending = this.#pending;
    if (pending) {
      this.#pending = undefined;
      return Promise.resolve(pending);
    }
    if (this.#ended) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.#waiter = { resolve };
    });
  }
}
