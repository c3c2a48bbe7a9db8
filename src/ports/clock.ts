/** Time is injected everywhere so every timing rule can be tested with a FakeClock. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /**
   * Resolves after `ms`, or rejects with an `AbortError` as soon as `signal` aborts.
   * A zero or negative `ms` resolves without waiting on a timer.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
