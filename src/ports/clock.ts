/** Time is injected everywhere so every timing rule can be tested with a FakeClock. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /**
   * Resolves after `ms`, or rejects with an `AbortError` as soon as `signal` aborts.
   * A zero or negative `ms` resolves without waiting on a timer.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Calls `fire` once after `ms` unless the returned cancel function runs first. Watchdogs and deadlines
   * use it: they are cancelled on almost every run, and a plain timer costs far less than a sleep with an
   * AbortController that has to be aborted (which allocates an error) to cancel it.
   */
  setTimer(ms: number, fire: () => void): () => void;
}
