import { describe, expect, it } from "vitest";
import { FAKE_CLOCK_DEFAULT_START_MS, FakeClock } from "./fake-clock.js";

/** Records whether a promise settled, without awaiting it. */
function track(promise: Promise<unknown>) {
  const state = { settled: false, error: undefined as unknown };
  promise.then(
    () => (state.settled = true),
    (error: unknown) => {
      state.settled = true;
      state.error = error;
    },
  );
  return state;
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("FakeClock", () => {
  it("starts at a realistic epoch by default, or where told", () => {
    expect(new FakeClock().now()).toBe(FAKE_CLOCK_DEFAULT_START_MS);
    expect(new FakeClock(1_000).now()).toBe(1_000);
  });

  it("a sleep resolves only when the test advances past its deadline", async () => {
    const clock = new FakeClock(0);
    const sleep = track(clock.sleep(1_000));
    await flush();
    expect(sleep.settled).toBe(false);
    expect(clock.pendingSleeps).toBe(1);

    clock.advance(999);
    await flush();
    expect(sleep.settled).toBe(false);

    clock.advance(1);
    await flush();
    expect(sleep.settled).toBe(true);
    expect(clock.pendingSleeps).toBe(0);
    expect(clock.now()).toBe(1_000);
  });

  it("wakes due sleepers in deadline order, ties in start order, each at its own deadline", async () => {
    const clock = new FakeClock(0);
    const woke: string[] = [];
    const at = (name: string, ms: number) => clock.sleep(ms).then(() => woke.push(`${name}@${clock.now()}`));
    const all = Promise.all([at("c", 300), at("a", 100), at("b1", 200), at("b2", 200)]);
    await clock.advanceAsync(1_000);
    await all;
    expect(woke).toEqual(["a@100", "b1@200", "b2@200", "c@300"]);
    expect(clock.now()).toBe(1_000);
  });

  it("advanceAsync also completes sleeps started by woken code inside the window", async () => {
    const clock = new FakeClock(0);
    const times: number[] = [];
    const backoffs = (async () => {
      for (const ms of [300, 1_200, 2_400]) {
        await clock.sleep(ms);
        times.push(clock.now());
      }
    })();
    await clock.advanceAsync(5_000);
    await backoffs;
    expect(times).toEqual([300, 1_500, 3_900]);
  });

  it("synchronous advance does not reach sleeps that woken code starts later", async () => {
    const clock = new FakeClock(0);
    let second = false;
    void clock.sleep(100).then(async () => {
      await clock.sleep(100);
      second = true;
    });
    clock.advance(1_000);
    await flush();
    expect(second).toBe(false);
    expect(clock.pendingSleeps).toBe(1);
    expect(clock.nextSleepInMs).toBe(100);
  });

  it("zero, negative and NaN sleeps resolve without waiting for time", async () => {
    const clock = new FakeClock(0);
    await clock.sleep(0);
    await clock.sleep(-5);
    await clock.sleep(Number.NaN);
    expect(clock.pendingSleeps).toBe(0);
    expect(clock.now()).toBe(0);
  });

  it("aborting rejects the sleep with a DOMException AbortError and forgets it", async () => {
    const clock = new FakeClock(0);
    const controller = new AbortController();
    const sleep = clock.sleep(10_000, controller.signal);
    expect(clock.pendingSleeps).toBe(1);
    controller.abort(new Error("caller gave up"));
    const error = await sleep.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe("AbortError");
    expect(clock.pendingSleeps).toBe(0);
    clock.advance(20_000);
  });

  it("an already aborted signal rejects at once, even for a zero sleep", async () => {
    const clock = new FakeClock(0);
    const signal = AbortSignal.abort();
    await expect(clock.sleep(1_000, signal)).rejects.toMatchObject({ name: "AbortError" });
    await expect(clock.sleep(0, signal)).rejects.toMatchObject({ name: "AbortError" });
    expect(clock.pendingSleeps).toBe(0);
  });

  it("aborting after the sleep resolved changes nothing", async () => {
    const clock = new FakeClock(0);
    const controller = new AbortController();
    const sleep = clock.sleep(10, controller.signal);
    clock.advance(10);
    await expect(sleep).resolves.toBeUndefined();
    controller.abort();
  });

  it("set() moves the wall clock only: sleeps keep their duration, like timers across a clock step", async () => {
    const clock = new FakeClock(1_000);
    const sleep = track(clock.sleep(500));
    clock.set(10_000_000);
    await flush();
    expect(sleep.settled).toBe(false);
    expect(clock.now()).toBe(10_000_000);
    clock.set(0);
    clock.advance(500);
    await flush();
    expect(sleep.settled).toBe(true);
    expect(clock.now()).toBe(500);
  });

  it("nextSleepInMs reports the earliest pending deadline", () => {
    const clock = new FakeClock(0);
    expect(clock.nextSleepInMs).toBeUndefined();
    void clock.sleep(700);
    void clock.sleep(300);
    expect(clock.nextSleepInMs).toBe(300);
    clock.advance(100);
    expect(clock.nextSleepInMs).toBe(200);
  });

  it("refuses to move time backwards or by a non-finite amount", async () => {
    const clock = new FakeClock(0);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(Number.POSITIVE_INFINITY)).toThrow(/use set\(\)/);
    await expect(clock.advanceAsync(-1)).rejects.toThrow(RangeError);
    expect(() => clock.set(Number.NaN)).toThrow(RangeError);
    expect(() => new FakeClock(Number.NaN)).toThrow(RangeError);
  });
});

describe("FakeClock timers", () => {
  it("fires a timer when time passes its due moment, in order with sleeps, and never after cancel", async () => {
    const clock = new FakeClock(0);
    const fired: string[] = [];
    clock.setTimer(20, () => fired.push("timer-20"));
    const cancel = clock.setTimer(10, () => fired.push("cancelled"));
    void clock.sleep(15).then(() => fired.push("sleep-15"));
    cancel();
    expect(clock.pendingSleeps).toBe(2);
    await clock.advanceAsync(25);
    expect(fired).toEqual(["sleep-15", "timer-20"]);
    expect(clock.now()).toBe(25);
  });
});
