import { describe, expect, it } from "vitest";
import { UpstreamFailure } from "../ports/provider.js";
import { FakeClock } from "../testing/fake-clock.js";
import { readWatchedPushed, readWatchedStream, type WatchedItem, type WatchedStreamOptions } from "./watched-stream.js";

type Item = "start" | "token" | "finish";

function failureCode(error: unknown): string | undefined {
  return error instanceof UpstreamFailure ? error.failure.code : undefined;
}

function options(clock: FakeClock, open: WatchedStreamOptions<Item>["open"], extra: Partial<WatchedStreamOptions<Item>> = {}) {
  const accepted: Item[] = [];
  const result: WatchedStreamOptions<Item> = {
    open,
    accept: (item): WatchedItem => {
      accepted.push(item);
      return item === "start" ? "lifecycle" : item === "token" ? "token" : "complete";
    },
    end: () => false,
    clock,
    ttftTimeoutMs: 15_000,
    stallTimeoutMs: 30_000,
    attemptSignal: new AbortController().signal,
    provider: "openai",
    model: "gpt-4o-mini",
    ...extra,
  };
  return { result, accepted };
}

/**
 * The same source pushing its items (as an upstream body in flowing mode does): `push` returning false
 * stops it, as the real pump destroys the body. A source that ignores its signal keeps ignoring it here.
 */
function readPushed(options: WatchedStreamOptions<Item>) {
  return readWatchedPushed<Item>({
    ...options,
    open: async (signal, push) => {
      for await (const item of options.open(signal)) if (!push(item)) return;
    },
  });
}

type Reader = (options: WatchedStreamOptions<Item>) => Promise<{ timeToFirstTokenMs: number | undefined }>;

describe.each<[string, Reader]>([
  ["readWatchedStream, items pulled", readWatchedStream],
  ["readWatchedPushed, items pushed", readPushed],
])("%s (R-ST-6: the watchdogs of a non-streamed answer read from a stream)", (_name, read) => {
  it("R-ST-6: an upstream that ignores its signal cannot hold the attempt past the first-token budget", async () => {
    const clock = new FakeClock();
    const { result } = options(clock, async function* () {
      yield "start";
      await new Promise(() => {});
    });
    const outcome = read(result).catch((error: unknown) => error);
    await clock.advanceAsync(15_000);
    const error = await outcome;
    expect(failureCode(error)).toBe("ETIMEDOUT");
    expect(String(error)).toContain("no first token within 15 s (ttftTimeoutSeconds)");
  });

  it("R-ST-6: before the first token only the first-token budget counts (a gap longer than the stall budget is thinking, not a stall)", async () => {
    const clock = new FakeClock();
    const { result, accepted } = options(
      clock,
      async function* (signal) {
        yield "start";
        await clock.sleep(50_000, signal);
        yield "token";
        // Then steady tokens, each gap just inside the stall budget.
        for (let index = 0; index < 5; index += 1) {
          await clock.sleep(29_000, signal);
          yield "token";
        }
        yield "finish";
      },
      { ttftTimeoutMs: 60_000, stallTimeoutMs: 30_000 },
    );
    const outcome = read(result);
    await clock.advanceAsync(50_000 + 5 * 29_000);
    await expect(outcome).resolves.toEqual({ timeToFirstTokenMs: 50_000 });
    expect(accepted).toEqual(["start", "token", "token", "token", "token", "token", "token", "finish"]);
  });

  it("R-ST-6: after the first token a gap longer than streamStallSeconds is a stall", async () => {
    const clock = new FakeClock();
    const { result } = options(clock, async function* (signal) {
      yield "token";
      await clock.sleep(31_000, signal);
      yield "finish";
    });
    const outcome = read(result).catch((error: unknown) => error);
    await clock.advanceAsync(30_000);
    const error = await outcome;
    expect(failureCode(error)).toBe("ETIMEDOUT");
    expect(String(error)).toContain("stream stalled for 30 s (streamStallSeconds)");
  });

  it("R-ST-6: an upstream that ends without the answer's end is a cut; with it (R-ST-2) the answer is complete", async () => {
    const clock = new FakeClock();
    const cut = options(clock, async function* () {
      yield "token";
    });
    const error = await read(cut.result).catch((caught: unknown) => caught);
    expect(failureCode(error)).toBe("ECONNRESET");
    expect(String(error)).toContain("stream closed before it finished");
    const complete = options(
      clock,
      async function* () {
        yield "token";
      },
      { end: () => true },
    );
    await expect(read(complete.result)).resolves.toEqual({ timeToFirstTokenMs: 0 });
  });

  it("R-ST-6: the attempt's deadline and the caller's abort stop the upstream at any point, also mid-answer", async () => {
    const clock = new FakeClock();
    const attempt = new AbortController();
    let upstreamSignal: AbortSignal | undefined;
    const { result } = options(
      clock,
      async function* (signal) {
        upstreamSignal = signal;
        for (;;) {
          yield "token";
          await clock.sleep(1_000, signal);
        }
      },
      { attemptSignal: attempt.signal },
    );
    const outcome = read(result).catch((error: unknown) => error);
    await clock.advanceAsync(120_000);
    const deadline = new DOMException("attempt timed out", "TimeoutError");
    attempt.abort(deadline);
    expect(await outcome).toBe(deadline);
    expect(upstreamSignal?.aborted).toBe(true);

    const caller = new AbortController();
    const second = options(
      clock,
      async function* () {
        yield "start";
        await new Promise(() => {});
      },
      { callerSignal: caller.signal },
    );
    const stopped = read(second.result).catch((error: unknown) => error);
    caller.abort(new DOMException("client went away", "AbortError"));
    expect(((await stopped) as DOMException).name).toBe("AbortError");
  });
});

describe("readWatchedPushed (R-ST-6)", () => {
  it("R-ST-6: an in-band failure thrown by accept stops the source at once and fails the attempt with it", async () => {
    const clock = new FakeClock();
    const inBand = new Error("overloaded, in band");
    let pushedAfterFailure = 0;
    let failed = false;
    const outcome = readWatchedPushed<Item>({
      ...options(clock, async function* () {}).result,
      accept: (item) => {
        if (failed) pushedAfterFailure += 1;
        if (item === "finish") {
          failed = true;
          throw inBand;
        }
        return "token";
      },
      open: async (_signal, push) => {
        for (const item of ["token", "finish", "token", "token"] as const) if (!push(item)) return;
      },
    }).catch((error: unknown) => error);
    expect(await outcome).toBe(inBand);
    expect(pushedAfterFailure).toBe(0);
  });
});
