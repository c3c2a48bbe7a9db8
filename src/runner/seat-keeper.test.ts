import { describe, expect, it } from "vitest";
import type { SeatsStore } from "../ports/seats-store.js";
import { MemorySeats } from "../state/memory/memory-seats.js";
import { FakeClock } from "../testing/fake-clock.js";
import { SeatKeeper, type SeatStoreOperation } from "./seat-keeper.js";
import { SeatQueue } from "./seat-queue.js";

function keeper(options: { clock?: FakeClock; store?: SeatsStore; limits?: Record<string, number>; opened?: { count: number } }) {
  const clock = options.clock ?? new FakeClock();
  const store = options.store ?? new MemorySeats();
  const errors: SeatStoreOperation[] = [];
  const seats = new SeatKeeper({
    clock,
    queue: new SeatQueue(clock, { max: 10, timeoutMs: 30_000 }),
    store: async () => {
      if (options.opened) options.opened.count += 1;
      return store;
    },
    configuredLimit: (profileId) => options.limits?.[profileId],
    onStoreError: (operation) => void errors.push(operation),
  });
  return { seats, clock, store, errors };
}

describe("SeatKeeper", () => {
  it("R-PO-8 without any limit the seats store is never opened, whatever runs", async () => {
    const opened = { count: 0 };
    const { seats } = keeper({ opened });
    const taken = await Promise.all(Array.from({ length: 5 }, () => seats.take("openai:a", "openai")));
    expect(taken.every((take) => take.kind === "held")).toBe(true);
    expect(seats.localInFlight("openai:a")).toBe(5);
    expect(await seats.inFlight([{ id: "openai:a", provider: "openai" }])).toEqual({ "openai:a": 5 });
    for (const take of taken) if (take.kind === "held") take.hold.release();
    expect(seats.localInFlight("openai:a")).toBe(0);
    expect(opened.count).toBe(0);
  });

  it("R-PO-8 a seat is renewed while its attempt runs, so a long stream keeps it past the lease", async () => {
    const { seats, clock, store } = keeper({ limits: { "openai:a": 1 } });
    const first = await seats.take("openai:a", "openai");
    expect(first.kind).toBe("held");
    await clock.advanceAsync(60_000);
    expect(await store.inFlight(["openai:a"], clock.now())).toEqual({ "openai:a": 1 });
    expect((await seats.take("openai:a", "openai")).kind).toBe("full");
    if (first.kind === "held") first.hold.release();
    await clock.advanceAsync(0);
    expect(await store.inFlight(["openai:a"], clock.now())).toEqual({ "openai:a": 0 });
    expect((await seats.take("openai:a", "openai")).kind).toBe("held");
  });

  it("R-PO-8 the seats held at once are renewed together by one timer, which stops when the last is given back", async () => {
    const clock = new FakeClock();
    const memory = new MemorySeats();
    const renewedAt: number[] = [];
    const store: SeatsStore = {
      tryAcquire: (claim) => memory.tryAcquire(claim),
      renew: (seat, now, leaseMs) => {
        renewedAt.push(now);
        return memory.renew(seat, now, leaseMs);
      },
      release: (seat) => memory.release(seat),
      inFlight: (ids, now) => memory.inFlight(ids, now),
      close: () => memory.close(),
    };
    const { seats } = keeper({ clock, store, limits: { "openai:a": 3, "openai:b": 3 } });
    const first = await seats.take("openai:a", "openai");
    await clock.advanceAsync(2_000);
    const later = await Promise.all([seats.take("openai:a", "openai"), seats.take("openai:b", "openai")]);
    expect(clock.pendingSleeps).toBe(1);
    await clock.advanceAsync(3_000);
    // The seat taken 2 s after the first is renewed in the same round, 3 s after it was taken.
    expect(renewedAt).toEqual([clock.now(), clock.now(), clock.now()]);
    for (const take of [first, ...later]) if (take.kind === "held") take.hold.release();
    await clock.advanceAsync(0);
    expect(clock.pendingSleeps).toBe(0);
    await clock.advanceAsync(60_000);
    expect(renewedAt).toHaveLength(3);
    expect(await memory.inFlight(["openai:a", "openai:b"], clock.now())).toEqual({ "openai:a": 0, "openai:b": 0 });
  });

  it("R-PO-8 a holder that died without releasing (no renewals) frees its seat within 30 s", async () => {
    const clock = new FakeClock();
    const store = new MemorySeats();
    // The dead replica's seat: taken, never renewed, never released.
    await store.tryAcquire({ profileId: "openai:a", limit: 1, now: clock.now(), leaseMs: 20_000 });
    const { seats } = keeper({ clock, store, limits: { "openai:a": 1 } });
    expect((await seats.take("openai:a", "openai")).kind).toBe("full");
    await clock.advanceAsync(19_999);
    expect((await seats.take("openai:a", "openai")).kind).toBe("full");
    await clock.advanceAsync(1);
    expect((await seats.take("openai:a", "openai")).kind).toBe("held");
  });

  it("R-PO-8 a store that fails lets the attempt run without a seat and says so, instead of stopping requests", async () => {
    const broken: SeatsStore = {
      tryAcquire: async () => {
        throw new Error("Redis did not answer within 2000 ms");
      },
      renew: async () => undefined,
      release: async () => {},
      inFlight: async () => ({}),
      close: async () => {},
    };
    const { seats, errors } = keeper({ store: broken, limits: { "openai:a": 1 } });
    const take = await seats.take("openai:a", "openai");
    expect(take.kind).toBe("held");
    expect(errors).toEqual(["takeSeat"]);
  });

  it("R-PO-8 a learned cap lowers the seats for a while, then the configured limit holds again", async () => {
    const { seats, clock } = keeper({ limits: { "openai:a": 5 } });
    const held = await Promise.all([seats.take("openai:a", "openai"), seats.take("openai:a", "openai")]);
    const learned = await seats.learnFromRefusal("openai:a", "openai");
    expect(learned?.cap).toBe(2);
    expect(seats.limitOf("openai:a", "openai")).toBe(2);
    expect((await seats.take("openai:a", "openai")).kind).toBe("full");
    await clock.advanceAsync(10 * 60_000);
    expect(seats.limitOf("openai:a", "openai")).toBe(5);
    for (const take of held) if (take.kind === "held") take.hold.release();
  });

  it("R-PO-8 a concurrency refusal with nothing else in flight teaches nothing", async () => {
    const { seats } = keeper({});
    expect(await seats.learnFromRefusal("openai:a", "openai")).toBeUndefined();
    expect(seats.limitOf("openai:a", "openai")).toBeUndefined();
  });
});

describe("SeatKeeper close", () => {
  it("R-PO-8 a seat released after close does not open the store again (nothing keeps the process alive)", async () => {
    const opened = { count: 0 };
    const { seats, clock } = keeper({ limits: { "openai:a": 1 }, opened });
    const take = await seats.take("openai:a", "openai");
    expect(opened.count).toBe(1);
    await seats.close();
    if (take.kind === "held") take.hold.release();
    await clock.advanceAsync(30_000);
    expect(opened.count).toBe(1);
  });
});
