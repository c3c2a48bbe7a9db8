/** The headroom-readings facet (R-PO-7). */
import type { HeadroomReading } from "../../core/headroom/reading.js";

export interface HeadroomStore {
  /**
   * Keeps the latest reading of each (profile, model scope, window) it is given, as `core/headroom`'s
   * `mergeReadings` defines: readings past their reset are dropped, model scopes are capped per profile.
   */
  recordHeadroom(profileId: string, readings: readonly HeadroomReading[], now: number): Promise<void>;
  /** The fresh readings (reset still ahead of `now`) of these profiles; profiles without any are absent. */
  headroomReadings(profileIds: readonly string[], now: number): Promise<Record<string, HeadroomReading[]>>;
}
