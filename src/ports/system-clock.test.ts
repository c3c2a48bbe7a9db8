import { describe, expect, it, vi } from "vitest";
import { createSystemClock, systemClock } from "./system-clock.js";

describe("systemClock", () => {
  it("now() is the wall clock", () => {
    const before = Date.now();
    const now = systemClock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it("sleep waits on a real timer", async () => {
    const started = performance.now();
    await systemClock.sleep(20);
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
  });

  it("zero and negative sleeps resolve at once", async () => {
    await expect(systemClock.sleep(0)).resolves.toBeUndefined();
    await expect(systemClock.sleep(-1)).resolves.toBeUndefined();
  });

  it("aborting rejects with a DOMException AbortError without waiting for the timer", async () => {
    const controller = new AbortController();
    const started = performance.now();
    const sleep = systemClock.sleep(60_000, controller.signal);
    setTimeout(() => controller.abort(), 5);
    const error = await sleep.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe("AbortError");
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("an already aborted signal rejects at once", async () => {
    await expect(systemClock.sleep(10, AbortSignal.abort())).rejects.toMatchObject({ name: "AbortError" });
  });

  it("an unref'd clock's sleep still resolves while the process is alive", async () => {
    await expect(createSystemClock({ unref: true }).sleep(5)).resolves.toBeUndefined();
  });

  it("sleeps longer than Node's timer limit (~24.8 days) in slices instead of firing after 1 ms", async () => {
    vi.useFakeTimers();
    try {
      let done = false;
      const limit = 2_147_483_647;
      void systemClock.sleep(limit + 1_000).then(() => (done = true));
      await vi.advanceTimersByTimeAsync(limit);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("systemClock timers", () => {
  it("fires after the delay unless cancelled", async () => {
    const fired: string[] = [];
    systemClock.setTimer(5, () => fired.push("kept"));
    const cancel = systemClock.setTimer(5, () => fired.push("cancelled"));
    cancel();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(fired).toEqual(["kept"]);
  });
});
