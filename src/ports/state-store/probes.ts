/** The probe-throttle facet (R-FB-4). */
export interface ProbesStore {
  /**
   * Claims the probe slot for `key` if none was claimed within the last `intervalMs`.
   * Returns true when this caller may probe now.
   */
  tryClaimProbe(key: string, now: number, intervalMs: number): Promise<boolean>;
  /** When the slot for `key` was last claimed, if ever (for availability decisions). */
  getLastProbeAt(key: string): Promise<number | undefined>;
}
