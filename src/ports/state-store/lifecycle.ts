/** What every backend answers beside its facets: availability (R-SB-5), change stamps, closing. */
export interface StoreLifecycle {
  /** Resolves when the backend answers; else throws `StoreUnavailableError` naming it (doctor, R-SB-5). */
  checkAvailable(): Promise<void>;
  /**
   * A number that changes whenever anything a run's decision reads — profiles, stored orders, usage stats,
   * headroom readings — may have changed: this process's writes (each counts once: +1) and other processes'
   * or replicas' alike. The runner keeps its decision inputs in memory while the stamp holds
   * (runner/decision-snapshot.ts), so it must be cheap and synchronous. Absent: the backend cannot tell, and
   * every decision reads the store.
   */
  changeStamp?(): number;
  close(): Promise<void>;
}
