import { describe, expect, it } from "vitest";
import { MemoryStateStore, PROBE_THROTTLE_MAX_KEYS } from "./memory-store.js";
import { BoundedRecencyMap } from "./bounded-recency-map.js";

describe("bounded recency map", () => {
  it("keeps at most its capacity, evicting the least recently written key", () => {
    const map = new BoundedRecencyMap<string, number>(2);
    map.set("a", 1);
    map.set("b", 2);
    map.set("a", 3);
    map.set("c", 4);
    expect(map.keys()).toEqual(["a", "c"]);
    expect(map.get("b")).toBeUndefined();
    expect(() => new BoundedRecencyMap(0)).toThrow(RangeError);
  });

  it("R-FB-4: the memory store's probe throttle remembers at most 256 keys, oldest evicted", async () => {
    expect(PROBE_THROTTLE_MAX_KEYS).toBe(256);
    const store = new MemoryStateStore();
    for (let index = 0; index <= 256; index += 1) {
      expect(await store.tryClaimProbe(`main:provider-${index}`, 1_000, 30_000)).toBe(true);
    }
    // Key 0 was the oldest and has been forgotten: it may probe again at once; key 1 is still throttled.
    expect(await store.getLastProbeAt("main:provider-0")).toBeUndefined();
    expect(await store.tryClaimProbe("main:provider-1", 1_001, 30_000)).toBe(false);
    expect(await store.tryClaimProbe("main:provider-0", 1_001, 30_000)).toBe(true);
  });
});
