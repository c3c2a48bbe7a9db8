import { describe, expect, it } from "vitest";
import { FakeClock } from "../testing/fake-clock.js";
import { type SeatWaitOutcome, SeatQueue } from "./seat-queue.js";

function track(promise: Promise<SeatWaitOutcome>): { outcome?: SeatWaitOutcome } {
  const seen: { outcome?: SeatWaitOutcome } = {};
  void promise.then((outcome) => {
    seen.outcome = outcome;
  });
  return seen;
}

describe("SeatQueue", () => {
  it("R-PO-8 a freed seat wakes the waiters first come, first served", async () => {
    const clock = new FakeClock();
    const queue = new SeatQueue(clock, { max: 10, timeoutMs: 30_000, pollMs: 60_000 });
    const first = track(queue.wait());
    const second = track(queue.wait());
    expect(queue.length).toBe(2);
    queue.notify();
    await clock.advanceAsync(0);
    expect(first.outcome).toBe("woken");
    expect(second.outcome).toBeUndefined();
    queue.notify();
    await clock.advanceAsync(0);
    expect(second.outcome).toBe("woken");
    expect(queue.length).toBe(0);
  });

  it("R-PO-8 a waiter still waiting at gateway.queueTimeoutSeconds gets timed_out, not a moment before", async () => {
    const clock = new FakeClock();
    const queue = new SeatQueue(clock, { max: 10, timeoutMs: 30_000, pollMs: 60_000 });
    const waiter = track(queue.wait());
    await clock.advanceAsync(29_999);
    expect(waiter.outcome).toBeUndefined();
    await clock.advanceAsync(1);
    expect(waiter.outcome).toBe("timed_out");
    expect(queue.length).toBe(0);
  });

  it("R-PO-8 the line holds at most gateway.queueMax waiters; one more is refused at once", async () => {
    const clock = new FakeClock();
    const queue = new SeatQueue(clock, { max: 2, timeoutMs: 30_000 });
    void queue.wait();
    void queue.wait();
    expect(await queue.wait()).toBe("full");
    expect(queue.length).toBe(2);
    expect(await new SeatQueue(clock, { max: 0, timeoutMs: 30_000 }).wait()).toBe("full");
    expect(await new SeatQueue(clock, { max: 10, timeoutMs: 0 }).wait()).toBe("full");
  });

  it("R-PO-8 a client that disconnects leaves the line at once, and the next in line is woken instead", async () => {
    const clock = new FakeClock();
    const queue = new SeatQueue(clock, { max: 10, timeoutMs: 30_000, pollMs: 60_000 });
    const leaving = new AbortController();
    const first = track(queue.wait({ signal: leaving.signal }));
    const second = track(queue.wait());
    leaving.abort();
    await clock.advanceAsync(0);
    expect(first.outcome).toBe("left");
    expect(queue.length).toBe(1);
    queue.notify();
    await clock.advanceAsync(0);
    expect(second.outcome).toBe("woken");
    const gone = new AbortController();
    gone.abort();
    expect(await queue.wait({ signal: gone.signal })).toBe("left");
  });

  it("R-PO-8 a woken waiter that found no seat rejoins at the front with its first deadline", async () => {
    const clock = new FakeClock();
    const queue = new SeatQueue(clock, { max: 1, timeoutMs: 30_000, pollMs: 60_000 });
    const deadline = queue.deadlineFromNow();
    const first = track(queue.wait());
    queue.notify();
    await clock.advanceAsync(0);
    expect(first.outcome).toBe("woken");
    const later = track(queue.wait());
    await clock.advanceAsync(10_000);
    // The line is full (max 1) for newcomers, but a rejoining waiter had its place already.
    const again = track(queue.wait({ rejoin: { deadline } }));
    queue.notify();
    await clock.advanceAsync(0);
    expect(again.outcome).toBe("woken");
    expect(later.outcome).toBeUndefined();
    const last = track(queue.wait({ rejoin: { deadline } }));
    await clock.advanceAsync(20_000);
    expect(last.outcome).toBe("timed_out");
    expect(await queue.wait({ rejoin: { deadline } })).toBe("timed_out");
  });

  it("R-PO-8 while anyone waits, the first waiter is woken every poll to look for seats other replicas freed", async () => {
    const clock = new FakeClock();
    const queue = new SeatQueue(clock, { max: 10, timeoutMs: 30_000, pollMs: 250 });
    const first = track(queue.wait());
    const second = track(queue.wait());
    await clock.advanceAsync(249);
    expect(first.outcome).toBeUndefined();
    await clock.advanceAsync(1);
    expect(first.outcome).toBe("woken");
    expect(second.outcome).toBeUndefined();
    await clock.advanceAsync(250);
    expect(second.outcome).toBe("woken");
    expect(queue.length).toBe(0);
  });
});
