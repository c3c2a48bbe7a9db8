/**
 * A deterministic `Random` for tests: the same seed always yields the same sequence, so jittered
 * backoffs and shuffles can be asserted exactly. Uses mulberry32 — tiny, fast and well distributed
 * for this purpose; not for anything that needs unpredictability.
 */
import type { Random } from "../ports/random.js";

export class SeededRandom implements Random {
  /** The seed this generator started from, as an unsigned 32-bit integer. */
  readonly seed: number;
  #state: number;

  constructor(seed = 1) {
    if (!Number.isFinite(seed)) throw new RangeError(`SeededRandom: seed must be a finite number, got ${seed}`);
    this.seed = Math.trunc(seed) >>> 0;
    this.#state = this.seed;
  }

  /** A float in [0, 1) with 32 bits of randomness. */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }
}
