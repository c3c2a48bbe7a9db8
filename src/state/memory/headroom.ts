/** The memory store's headroom facet (R-PO-7). */
import type { HeadroomReading } from "../../core/headroom/reading.js";
import type { HeadroomStore } from "../../ports/state-store.js";
import { MemoryHeadroomReadings } from "./headroom-readings.js";

export class MemoryHeadroom implements HeadroomStore {
  readonly #headroom = new MemoryHeadroomReadings();
  readonly #changed: () => void;

  constructor(changed: () => void) {
    this.#changed = changed;
  }

  async recordHeadroom(profileId: string, readings: readonly HeadroomReading[], now: number): Promise<void> {
    this.#changed();
    this.#headroom.record(profileId, readings, now);
  }

  async headroomReadings(profileIds: readonly string[], now: number): Promise<Record<string, HeadroomReading[]>> {
    return this.#headroom.read(profileIds, now);
  }
}
