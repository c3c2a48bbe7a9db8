/**
 * Headroom readings in process memory (R-PO-7), for the memory store and the Redis store's local view.
 * One entry per (profile, model scope, window), merged by the core rule `mergeReadings`.
 */
import { isFresh, mergeReadings, type HeadroomReading } from "../../core/headroom/reading.js";

export class MemoryHeadroomReadings {
  readonly #byProfile = new Map<string, HeadroomReading[]>();

  record(profileId: string, readings: readonly HeadroomReading[], now: number): void {
    const merged = mergeReadings(this.#byProfile.get(profileId) ?? [], structuredClone([...readings]), now);
    if (merged.length === 0) this.#byProfile.delete(profileId);
    else this.#byProfile.set(profileId, merged);
  }

  read(profileIds: readonly string[], now: number): Record<string, HeadroomReading[]> {
    const found: Record<string, HeadroomReading[]> = {};
    for (const id of new Set(profileIds)) {
      const fresh = (this.#byProfile.get(id) ?? []).filter((reading) => isFresh(reading, now));
      if (fresh.length > 0) found[id] = structuredClone(fresh);
    }
    return found;
  }
}
