/** The spend facet (R-GW-7): hourly buckets per profile, the last 24 kept (core/spend.ts). */
export interface SpendStore {
  /**
   * Adds `costUsd` to the profile's bucket for the hour of `now` and drops its buckets older than 24 hours.
   * Concurrent calls from several processes all count. Best-effort bookkeeping: callers never await it on
   * an answer's path.
   */
  recordSpend(profileId: string, costUsd: number, now: number): Promise<void>;
  /** Dollars per profile over the 24 hour buckets up to `now`; profiles with nothing recorded are absent. */
  spendByProfile(now: number): Promise<Record<string, number>>;
}
