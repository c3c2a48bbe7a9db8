/**
 * A provider's canonical events as a pushed source for the one commit point: the events are pulled one at a time
 * and handed to the `data` listener, so canonical events and forwarded bytes go through the same flowing read.
 * `pause` stops pulling (a slow consumer holds the upstream back); `destroy` returns the provider's iterator
 * (its connection drains and is kept; an abort is the commit point's to send through the call's signal).
 */
import type { PushedFrames } from "./commit-point.js";

export function pushedFromIterable<T>(items: AsyncIterable<T>): PushedFrames<T> {
  return new IterablePush(items);
}

class IterablePush<T> implements PushedFrames<T> {
  #onData: ((frame: T) => void) | undefined;
  #onEnd: (() => void) | undefined;
  #onError: ((error: unknown) => void) | undefined;
  #iterator: AsyncIterator<T> | undefined;
  #started = false;
  #paused = false;
  #resume: (() => void) | undefined;
  #destroyed = false;

  constructor(private readonly items: AsyncIterable<T>) {}

  on(event: "data" | "end" | "error", listener: ((frame: T) => void) | (() => void) | ((error: unknown) => void)): this {
    if (event === "data") this.#onData = listener as (frame: T) => void;
    else if (event === "end") this.#onEnd = listener as () => void;
    else this.#onError = listener as (error: unknown) => void;
    if (event === "data" && !this.#started) {
      this.#started = true;
      // The reading starts once the caller had its turn to attach `end` and `error` too.
      queueMicrotask(() => void this.#run());
    }
    return this;
  }

  off(event: "data" | "end" | "error", listener: unknown): this {
    if (event === "data" && this.#onData === listener) this.#onData = undefined;
    else if (event === "end" && this.#onEnd === listener) this.#onEnd = undefined;
    else if (event === "error" && this.#onError === listener) this.#onError = undefined;
    return this;
  }

  pause(): this {
    this.#paused = true;
    return this;
  }

  resume(): this {
    this.#paused = false;
    const wake = this.#resume;
    this.#resume = undefined;
    wake?.();
    return this;
  }

  destroy(): this {
    if (this.#destroyed) return this;
    this.#destroyed = true;
    this.resume();
    // Not awaited: a generator busy in next() answers return() only after that next() settles.
    this.#iterator?.return?.()?.catch(() => {});
    return this;
  }

  async #run(): Promise<void> {
    if (this.#destroyed) return;
    try {
      const iterator = this.items[Symbol.asyncIterator]();
      this.#iterator = iterator;
      for (;;) {
        if (this.#paused) await new Promise<void>((resolve) => (this.#resume = resolve));
        if (this.#destroyed) return;
        const step = await iterator.next();
        if (this.#destroyed) return;
        if (step.done) {
          this.#onEnd?.();
          return;
        }
        this.#onData?.(step.value);
      }
    } catch (error) {
      if (!this.#destroyed) this.#onError?.(error);
    }
  }
}
