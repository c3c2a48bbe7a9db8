/**
 * A Map that keeps at most `capacity` keys; writing a key makes it the newest, and the oldest key is evicted
 * when the map would grow past the capacity. Used for process-local throttles (R-FB-4: 256 keys) so a
 * long-running gateway with many agents and providers cannot grow without bound.
 */
export class BoundedRecencyMap<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #capacity: number;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`BoundedRecencyMap capacity must be a positive integer, got ${capacity}.`);
    }
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  set(key: K, value: V): void {
    // Re-inserting moves the key to the newest position of the Map's insertion order.
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  keys(): K[] {
    return [...this.#entries.keys()];
  }
}
