import { describe, expect, it } from "vitest";
import type { CanonicalStreamEvent } from "../ports/canonical.js";
import { UpstreamFailure } from "../ports/provider.js";
import { FakeClock } from "../testing/fake-clock.js";
import { commitStream, type StreamCommitOptions } from "./stream-commit.js";

/** A hand-driven upstream stream: the test pushes events, ends or fails it; it honours its abort signal. */
class ManualStream {
  readonly #queue: CanonicalStreamEvent[] = [];
  #ended = false;
  #failure: unknown;
  #wake: (() => void) | undefined;
  signal: AbortSignal | undefined;
  returned = false;

  /** Events pushed but not yet pulled by the reader. */
  get unread(): number {
    return this.#queue.length;
  }

  push(...events: CanonicalStreamEvent[]): void {
    this.#queue.push(...events);
    this.#wake?.();
  }
  end(): void {
    this.#ended = true;
    this.#wake?.();
  }
  fail(error: unknown): void {
    this.#failure = error;
    this.#wake?.();
  }

  readonly open = (signal: AbortSignal): AsyncIterable<CanonicalStreamEvent> => {
    this.signal = signal;
    signal.addEventListener("abort", () => this.#wake?.());
    const self = this;
    return (async function* () {
      try {
        for (;;) {
          if (signal.aborted) throw signal.reason;
          const next = self.#queue.shift();
          if (next) {
            yield next;
            continue;
          }
          if (self.#failure !== undefined) throw self.#failure;
          if (self.#ended) return;
          await new Promise<void>((resolve) => (self.#wake = resolve));
        }
      } finally {
        self.returned = true;
      }
    })();
  };
}

const start: CanonicalStreamEvent = { type: "message-start", id: "msg-1", model: "m" };
const text = (value: string): CanonicalStreamEvent => ({ type: "text-delta", text: value });
const finish: CanonicalStreamEvent = { type: "finish", reason: "stop", usage: { inputTokens: 3, outputTokens: 2 } };

function setup(overrides: Partial<StreamCommitOptions> = {}) {
  const clock = new FakeClock();
  const upstream = new ManualStream();
  const options: StreamCommitOptions = {
    open: upstream.open,
    clock,
    ttftTimeoutMs: 1_000,
    stallTimeoutMs: 5_000,
    provider: "openai",
    model: "gpt-test",
    ...overrides,
  };
  return { clock, upstream, options };
}

async function collect(iterable: AsyncIterable<CanonicalStreamEvent>): Promise<CanonicalStreamEvent[]> {
  const events: CanonicalStreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

function failureCode(error: unknown): string | undefined {
  return error instanceof UpstreamFailure ? error.failure.code : undefined;
}

describe("commitStream", () => {
  it("R-ST-1: holds lifecycle frames back until the first content and hands them out together", async () => {
    const { upstream, options } = setup();
    upstream.push(start, text(""));
    const pending = commitStream(options);
    let settled = false;
    void pending.then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);

    upstream.push(text("Hel"), text("lo"), finish);
    const committed = await pending;
    expect(committed.head).toEqual([start, text("Hel")]);
    expect(await collect(committed.rest)).toEqual([text("lo"), finish]);
  });

  it("R-ST-1: a tool-call delta commits like text", async () => {
    const { upstream, options } = setup();
    const toolDelta: CanonicalStreamEvent = { type: "tool-call-delta", index: 0, id: "call_1", name: "lookup" };
    upstream.push(start, toolDelta);
    const committed = await commitStream(options);
    expect(committed.head).toEqual([start, toolDelta]);
  });

  it("R-ST-1: no first token within ttftTimeoutSeconds throws a timeout and aborts the upstream call", async () => {
    const { clock, upstream, options } = setup({ ttftTimeoutMs: 1_000 });
    upstream.push(start);
    const pending = commitStream(options);
    const outcome = pending.catch((error: unknown) => error);
    await clock.advanceAsync(999);
    expect(upstream.signal?.aborted).toBe(false);
    await clock.advanceAsync(1);
    const error = await outcome;
    expect(failureCode(error)).toBe("ETIMEDOUT");
    expect(String((error as Error).message)).toContain("ttftTimeoutSeconds");
    expect(upstream.signal?.aborted).toBe(true);
  });

  it("R-ST-6: before the first token only the first-token budget applies: a thinking pause longer than the stall budget is not cut", async () => {
    const { clock, upstream, options } = setup({ ttftTimeoutMs: 10_000, stallTimeoutMs: 2_000 });
    upstream.push(start);
    let settled = false;
    const outcome = commitStream(options)
      .catch((error: unknown) => error)
      .finally(() => (settled = true));
    await clock.advanceAsync(9_000);
    expect(settled).toBe(false);
    await clock.advanceAsync(1_000);
    const error = await outcome;
    expect(failureCode(error)).toBe("ETIMEDOUT");
    expect(String((error as Error).message)).toContain("ttftTimeoutSeconds");
  });

  it("R-ST-1: an in-band error event before commit throws the upstream failure unchanged", async () => {
    const { upstream, options } = setup();
    const failure = new UpstreamFailure("overloaded", { provider: "anthropic", errorType: "overloaded_error" });
    upstream.push(start, { type: "error", error: failure });
    await expect(commitStream(options)).rejects.toBe(failure);
  });

  it("R-ST-1: an error status thrown by the provider before commit propagates for failover", async () => {
    const { upstream, options } = setup();
    const failure = new UpstreamFailure("HTTP 429", { provider: "openai", status: 429 });
    upstream.fail(failure);
    await expect(commitStream(options)).rejects.toBe(failure);
  });

  it("R-ST-1: a cut connection before any content is a failure, not an empty answer", async () => {
    const { upstream, options } = setup();
    upstream.push(start);
    upstream.end();
    const error = await commitStream(options).catch((caught: unknown) => caught);
    expect(failureCode(error)).toBe("ECONNRESET");
  });

  it("R-ST-1: a finish with stop reason error before content fails over", async () => {
    const { upstream, options } = setup();
    upstream.push(start, { type: "finish", reason: "error" });
    const error = await commitStream(options).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamFailure);
  });

  it("R-ST-2: a cut after the commit makes the rest throw (never a clean finish)", async () => {
    const { upstream, options } = setup();
    upstream.push(start, text("partial"));
    const committed = await commitStream(options);
    upstream.push(text(" more"));
    upstream.end();
    const seen: CanonicalStreamEvent[] = [];
    const error = await (async () => {
      for await (const event of committed.rest) seen.push(event);
    })().catch((caught: unknown) => caught);
    expect(seen).toEqual([text(" more")]);
    expect(failureCode(error)).toBe("ECONNRESET");
  });

  it("R-ST-2: a stall after the commit throws a timeout and aborts the upstream call", async () => {
    const { clock, upstream, options } = setup({ stallTimeoutMs: 3_000 });
    upstream.push(start, text("partial"));
    const committed = await commitStream(options);
    const outcome = collect(committed.rest).catch((error: unknown) => error);
    await clock.advanceAsync(3_000);
    const error = await outcome;
    expect(failureCode(error)).toBe("ETIMEDOUT");
    expect(upstream.signal?.aborted).toBe(true);
  });

  it("R-ST-2: an in-band error event after the commit throws from the rest", async () => {
    const { upstream, options } = setup();
    upstream.push(start, text("partial"));
    const committed = await commitStream(options);
    const failure = new UpstreamFailure("boom", { provider: "openai", errorType: "server_error" });
    upstream.push({ type: "error", error: failure });
    await expect(collect(committed.rest)).rejects.toBe(failure);
  });

  it("R-ST-2: a finish completes at once, without waiting for the upstream to close; the call is released, not aborted", async () => {
    const { upstream, options } = setup();
    upstream.push(start, text("all"), finish);
    const committed = await commitStream(options);
    // The upstream never ends (no [DONE]); the rest still completes with the finish and its usage.
    expect(await collect(committed.rest)).toEqual([finish]);
    // Returned, so the provider lets its body drain and the connection is reused; an abort would cut it.
    expect(upstream.returned).toBe(true);
    expect(upstream.signal?.aborted).toBe(false);
  });

  it("R-ST-1: the attempt's signal is obeyed before the commit", async () => {
    const attempt = new AbortController();
    const { upstream, options } = setup({ attemptSignal: attempt.signal });
    upstream.push(start);
    const outcome = commitStream(options).catch((error: unknown) => error);
    attempt.abort(new Error("attempt watchdog"));
    expect(await outcome).toEqual(new Error("attempt watchdog"));
    expect(upstream.signal?.aborted).toBe(true);
  });

  it("R-ST-2: after the commit the attempt's signal no longer cuts the stream; the caller's still does", async () => {
    const attempt = new AbortController();
    const caller = new AbortController();
    const { upstream, options } = setup({ attemptSignal: attempt.signal, callerSignal: caller.signal });
    upstream.push(start, text("a"));
    const committed = await commitStream(options);
    attempt.abort(new Error("runner cleanup"));
    expect(upstream.signal?.aborted).toBe(false);
    upstream.push(text("b"));
    const iterator = committed.rest[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: text("b") });
    const pending = iterator.next();
    caller.abort(new DOMException("client went away", "AbortError"));
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    expect(upstream.signal?.aborted).toBe(true);
  });

  it("R-ST-1: time to first token is measured on the injected clock", async () => {
    const { clock, upstream, options } = setup({ ttftTimeoutMs: 10_000 });
    const pending = commitStream(options);
    await clock.advanceAsync(250);
    upstream.push(start, text("x"));
    const committed = await pending;
    expect(committed.timeToFirstTokenMs).toBe(250);
  });

  it("R-ST-2: the stall budget restarts with every pull, so a steady stream slower than the TTFT never times out", async () => {
    const { clock, upstream, options } = setup({ ttftTimeoutMs: 1_000, stallTimeoutMs: 3_000 });
    upstream.push(start, text("a"));
    const committed = await commitStream(options);
    const seen: CanonicalStreamEvent[] = [];
    const outcome = (async () => {
      for await (const event of committed.rest) seen.push(event);
    })().catch((error: unknown) => error);
    for (const piece of ["b", "c", "d", "e"]) {
      await clock.advanceAsync(2_900);
      upstream.push(text(piece));
      await clock.advanceAsync(0);
    }
    expect(seen).toEqual([text("b"), text("c"), text("d"), text("e")]);
    expect(upstream.signal?.aborted).toBe(false);
    // Silence now: the stall fires exactly 3 s after the last pull started, not earlier.
    await clock.advanceAsync(2_999);
    expect(upstream.signal?.aborted).toBe(false);
    await clock.advanceAsync(1);
    expect(failureCode(await outcome)).toBe("ETIMEDOUT");
  });

  it("R-ST-2: one watchdog timer per stream phase, not one per event, and none left behind", async () => {
    const clock = new FakeClock();
    let sleeps = 0;
    const countingClock = {
      now: () => clock.now(),
      sleep: (ms: number, signal?: AbortSignal) => {
        sleeps += 1;
        return clock.sleep(ms, signal);
      },
      setTimer: (ms: number, fire: () => void) => {
        sleeps += 1;
        return clock.setTimer(ms, fire);
      },
    };
    const upstream = new ManualStream();
    const pieces = Array.from({ length: 200 }, (_, index) => text(`t${index}`));
    upstream.push(start, ...pieces, finish);
    const committed = await commitStream({ ...setup().options, open: upstream.open, clock: countingClock });
    // Between the commit and the consumer's first read nothing runs on a timer.
    expect(clock.pendingSleeps).toBe(0);
    const rest = await collect(committed.rest);
    expect(rest).toHaveLength(pieces.length);
    expect(sleeps).toBeLessThanOrEqual(2);
    expect(clock.pendingSleeps).toBe(0);
  });

  it("R-ST-1: a complete answer without content (finish only) resolves with an empty rest", async () => {
    const { upstream, options } = setup();
    upstream.push(start, finish);
    const committed = await commitStream(options);
    expect(committed.head).toEqual([start, finish]);
    expect(await collect(committed.rest)).toEqual([]);
  });

  it("R-ST-2: the rest skips a repeated message-start and, after an error, every later pull is done", async () => {
    const { upstream, options } = setup();
    upstream.push(start, text("a"));
    const committed = await commitStream(options);
    upstream.push(start, text("b"), { type: "error", error: new UpstreamFailure("boom", { provider: "openai" }) });
    const iterator = committed.rest[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: text("b") });
    await expect(iterator.next()).rejects.toThrow("boom");
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    expect(upstream.signal?.aborted).toBe(true);
    expect(upstream.returned).toBe(true);
  });

  it("a return() while a pull waits stops the call at once: the waiting pull ends, and every later pull is done", async () => {
    const { upstream, options } = setup();
    upstream.push(start, text("a"));
    const committed = await commitStream(options);
    const iterator = committed.rest[Symbol.asyncIterator]();
    const pending = iterator.next().catch((error: unknown) => error);
    await iterator.return?.();
    expect(upstream.signal?.aborted).toBe(true);
    expect(await pending).toBe(upstream.signal?.reason);
    upstream.push(text("b"));
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it("R-ST-2: a consumer that falls behind stops the pulling from the provider, and gets every event in order once it reads on", async () => {
    const { upstream, options } = setup();
    upstream.push(start, text("a"));
    const committed = await commitStream(options);
    const pieces = Array.from({ length: 1_000 }, (_, index) => text(`t${index}`));
    upstream.push(...pieces, finish);
    await new Promise((resolve) => setImmediate(resolve));
    // Nobody reads: a bounded number of events is taken ahead, the rest stays with the provider.
    expect(upstream.unread).toBeGreaterThan(500);
    expect(await collect(committed.rest)).toEqual([...pieces, finish]);
    expect(upstream.signal?.aborted).toBe(false);
  });

  it("a rest returned before its first pull stops the upstream call", async () => {
    const { upstream, options } = setup();
    upstream.push(start, text("a"));
    const committed = await commitStream(options);
    await committed.rest[Symbol.asyncIterator]().return?.();
    expect(upstream.signal?.aborted).toBe(true);
  });
});
