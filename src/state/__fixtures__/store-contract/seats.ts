/**
 * The one contract every `SeatsStore` backend passes (R-PO-8), run by `seats-store.test.ts` against the
 * memory, SQLite and Redis backends. Times are plain numbers, so leases run on a fake clock.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Seat, SeatsStore } from "../../../ports/seats-store.js";

export interface SeatsContractHandle {
  seats: SeatsStore;
  cleanup: () => Promise<void>;
  /** Another handle on the same state (another process or replica would hold one). Shared backends only. */
  openSibling?: () => Promise<SeatsStore>;
}

const T0 = 1_800_000_000_000;
const LEASE_MS = 20_000;

/** `shared`: several handles (processes, replicas) share one state, so `openSibling` must be provided. */
export function runSeatsContract(name: string, open: () => Promise<SeatsContractHandle>, capabilities: { shared?: boolean } = {}): void {
  describe(`SeatsStore contract: ${name}`, () => {
    let handle: SeatsContractHandle | undefined;
    const siblings: SeatsStore[] = [];

    beforeEach(async () => {
      handle = await open();
    });

    afterEach(async () => {
      for (const sibling of siblings.splice(0)) await sibling.close();
      await handle?.cleanup();
      handle = undefined;
    });

    function seats(): SeatsStore {
      if (!handle) throw new Error("the seats store is only available inside a test");
      return handle.seats;
    }

    async function sibling(): Promise<SeatsStore> {
      if (!handle?.openSibling) throw new Error("shared backends must provide openSibling");
      const opened = await handle.openSibling();
      siblings.push(opened);
      return opened;
    }

    function claim(profileId: string, limit: number, now = T0) {
      return seats().tryAcquire({ profileId, limit, now, leaseMs: LEASE_MS });
    }

    it("R-PO-8 a profile gives out seats up to its limit, then refuses until one is released", async () => {
      const first = await claim("acct-a", 2);
      const second = await claim("acct-a", 2);
      expect(first).toMatchObject({ profileId: "acct-a", expiresAt: T0 + LEASE_MS });
      expect(second).toBeDefined();
      expect(second?.seatId).not.toBe(first?.seatId);
      expect(await claim("acct-a", 2)).toBeUndefined();
      expect(await seats().inFlight(["acct-a"], T0)).toEqual({ "acct-a": 2 });

      await seats().release(first as Seat);
      expect(await seats().inFlight(["acct-a"], T0)).toEqual({ "acct-a": 1 });
      expect(await claim("acct-a", 2)).toBeDefined();
      expect(await claim("acct-a", 2)).toBeUndefined();
    });

    it("R-PO-8 releasing a seat twice frees one seat, not two", async () => {
      const first = (await claim("acct-a", 2)) as Seat;
      await claim("acct-a", 2);
      await seats().release(first);
      await seats().release(first);
      expect(await seats().inFlight(["acct-a"], T0)).toEqual({ "acct-a": 1 });
      expect(await claim("acct-a", 2)).toBeDefined();
      expect(await claim("acct-a", 2)).toBeUndefined();
    });

    it("R-PO-8 each profile counts its own seats, and every profile asked about is reported", async () => {
      expect(await claim("acct-a", 1)).toBeDefined();
      expect(await claim("acct-a", 1)).toBeUndefined();
      expect(await claim("acct-b", 1)).toBeDefined();
      expect(await seats().inFlight(["acct-a", "acct-b", "acct-c"], T0)).toEqual({ "acct-a": 1, "acct-b": 1, "acct-c": 0 });
      expect(await seats().inFlight([], T0)).toEqual({});
    });

    it("R-PO-8 a raised limit gives more seats at once; a lowered one refuses until enough are released", async () => {
      const held = [(await claim("acct-a", 3)) as Seat, (await claim("acct-a", 3)) as Seat, (await claim("acct-a", 3)) as Seat];
      expect(await claim("acct-a", 4)).toBeDefined();
      expect(await claim("acct-a", 2)).toBeUndefined();
      for (const seat of held) await seats().release(seat);
      // One seat (taken under limit 4) is still held: a limit of 2 has room for exactly one more.
      expect(await claim("acct-a", 2)).toBeDefined();
      expect(await claim("acct-a", 2)).toBeUndefined();
    });

    it("R-PO-8 a seat never renewed frees itself when its lease runs out (a holder that died leaks nothing)", async () => {
      await claim("acct-a", 1);
      expect(await claim("acct-a", 1, T0 + LEASE_MS - 1)).toBeUndefined();
      expect(await seats().inFlight(["acct-a"], T0 + LEASE_MS - 1)).toEqual({ "acct-a": 1 });
      expect(await seats().inFlight(["acct-a"], T0 + LEASE_MS)).toEqual({ "acct-a": 0 });
      const after = await claim("acct-a", 1, T0 + LEASE_MS);
      expect(after).toMatchObject({ expiresAt: T0 + 2 * LEASE_MS });
    });

    it("R-PO-8 renewing keeps a seat past its first lease; a seat whose lease ran out cannot be renewed", async () => {
      const seat = (await claim("acct-a", 1)) as Seat;
      const renewed = await seats().renew(seat, T0 + LEASE_MS - 1000, LEASE_MS);
      expect(renewed).toEqual({ ...seat, expiresAt: T0 + 2 * LEASE_MS - 1000 });
      expect(await claim("acct-a", 1, T0 + LEASE_MS + 5000)).toBeUndefined();
      expect(await seats().inFlight(["acct-a"], T0 + LEASE_MS + 5000)).toEqual({ "acct-a": 1 });

      const lapsed = await seats().renew(seat, T0 + 2 * LEASE_MS, LEASE_MS);
      expect(lapsed).toBeUndefined();
      expect(await seats().inFlight(["acct-a"], T0 + 2 * LEASE_MS)).toEqual({ "acct-a": 0 });
    });

    it("R-PO-8 a released seat cannot be renewed back into existence", async () => {
      const seat = (await claim("acct-a", 1)) as Seat;
      await seats().release(seat);
      expect(await seats().renew(seat, T0 + 1000, LEASE_MS)).toBeUndefined();
      expect(await seats().inFlight(["acct-a"], T0 + 1000)).toEqual({ "acct-a": 0 });
    });

    it("R-PO-8 many claims at once on one profile never give out more seats than its limit", async () => {
      const results = await Promise.all(Array.from({ length: 20 }, () => claim("acct-a", 3)));
      expect(results.filter(Boolean)).toHaveLength(3);
      expect(await seats().inFlight(["acct-a"], T0)).toEqual({ "acct-a": 3 });
    });

    // Registered only for backends that share state; the memory store has nothing to share.
    if (capabilities.shared)
      describe("shared state", () => {
        it("R-PO-8 seats taken through one handle count for another, and either can release them", async () => {
          const other = await sibling();
          const seat = (await claim("acct-a", 2)) as Seat;
          expect(await other.inFlight(["acct-a"], T0)).toEqual({ "acct-a": 1 });
          expect(await other.tryAcquire({ profileId: "acct-a", limit: 2, now: T0, leaseMs: LEASE_MS })).toBeDefined();
          expect(await claim("acct-a", 2)).toBeUndefined();
          await other.release(seat);
          expect(await seats().inFlight(["acct-a"], T0)).toEqual({ "acct-a": 1 });
        });

        it("R-PO-8 handles claiming at the same moment never take more seats than the limit together", async () => {
          const others = [await sibling(), await sibling()];
          const stores = [seats(), ...others];
          const results = await Promise.all(
            Array.from({ length: 30 }, (_, index) =>
              stores[index % stores.length]!.tryAcquire({ profileId: "acct-a", limit: 2, now: T0, leaseMs: LEASE_MS }),
            ),
          );
          expect(results.filter(Boolean)).toHaveLength(2);
          for (const store of stores) expect(await store.inFlight(["acct-a"], T0)).toEqual({ "acct-a": 2 });
        });
      });
  });
}
