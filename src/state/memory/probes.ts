/** The memory store's probe throttle (R-FB-4): bounded, the oldest keys evicted first. */
import type { ProbesStore } from "../../ports/state-store.js";
import { BoundedRecencyMap } from "./bounded-recency-map.js";

/** R-FB-4: the probe throttle remembers at most this many (agent, provider) keys, oldest evicted. */
export const PROBE_THROTTLE_MAX_KEYS = 256;

export class MemoryProbes implements ProbesStore {
  readonly #probeClaims: BoundedRecencyMap<string, number>;

  constructor(maxKeys: number = PROBE_THROTTLE_MAX_KEYS) {
    this.#probeClaims = new BoundedRecencyMap(maxKeys);
  }

  async tryClaimProbe(key: string, now: number, intervalMs: number): Promise<boolean> {
    const last = this.#probeClaims.get(key);
    if (last !== undefined && now - last < intervalMs) return false;
    this.#probeClaims.set(key, now);
    return true;
  }

  async getLastProbeAt(key: string): Promise<number | undefined> {
    return this.#probeClaims.get(key);
  }
}
