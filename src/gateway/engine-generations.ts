/**
 * Hot reload's bookkeeping: every request is counted on the engine generation that was current when it
 * arrived, so an old engine is closed only after the requests that started on it (streams included) have
 * finished — they finish on the config they started with.
 */
export class EngineGenerations {
  #current = 0;
  readonly #inFlight = new Map<number, number>();
  readonly #drainWaiters = new Map<number, (() => void)[]>();

  get current(): number {
    return this.#current;
  }

  /** Counts a request on the current generation; call the returned function once when it has finished. */
  enter(): () => void {
    const generation = this.#current;
    this.#inFlight.set(generation, (this.#inFlight.get(generation) ?? 0) + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#leave(generation);
    };
  }

  inFlight(generation: number): number {
    return this.#inFlight.get(generation) ?? 0;
  }

  /** Makes a new generation current; resolves once the previous one has no request left. */
  advance(): { previous: number; drained: Promise<void> } {
    const previous = this.#current;
    this.#current = previous + 1;
    const drained = new Promise<void>((resolve) => {
      if (this.inFlight(previous) === 0) {
        this.#inFlight.delete(previous);
        resolve();
        return;
      }
      const waiters = this.#drainWaiters.get(previous) ?? [];
      waiters.push(resolve);
      this.#drainWaiters.set(previous, waiters);
    });
    return { previous, drained };
  }

  #leave(generation: number): void {
    const remaining = (this.#inFlight.get(generation) ?? 1) - 1;
    if (remaining > 0) {
      this.#inFlight.set(generation, remaining);
      return;
    }
    this.#inFlight.delete(generation);
    if (generation === this.#current) return;
    for (const resolve of this.#drainWaiters.get(generation) ?? []) resolve();
    this.#drainWaiters.delete(generation);
  }
}
