/**
 * Headroom readings on Redis (R-PO-7), so every replica steers by the readings any replica took. One hash
 * per profile, one field per (model scope, window); the hash expires when its last reset passes, and fields past
 * their reset or beyond the model cap are deleted right after each write.
 *
 * Read, merged by the core rule, written back — not a compare-and-set: a reading is a snapshot the provider
 * restates on its next answer, so two replicas writing one profile at once lose nothing lasting. Not journaled
 * during an outage either: the provider's next answer restates it.
 */
import { isFresh, mergeReadings, readingSlot, type HeadroomReading } from "../../core/headroom/reading.js";
import type { HeadroomStore } from "../../ports/state-store.js";
import type { RedisClient } from "./redis-connection.js";
import type { Route } from "./route.js";

function parseReadings(hash: Record<string, string>): Map<string, HeadroomReading> {
  const readings = new Map<string, HeadroomReading>();
  for (const [slot, text] of Object.entries(hash)) {
    try {
      readings.set(slot, JSON.parse(text) as HeadroomReading);
    } catch {
      // A field another version wrote in a shape this one cannot read is treated as absent.
    }
  }
  return readings;
}

export class RemoteHeadroom {
  readonly #client: RedisClient;
  readonly #keyOf: (profileId: string) => string;

  constructor(client: RedisClient, keyOf: (profileId: string) => string) {
    this.#client = client;
    this.#keyOf = keyOf;
  }

  async record(profileId: string, readings: readonly HeadroomReading[], now: number): Promise<void> {
    if (!readings.some((reading) => isFresh(reading, now))) return;
    const key = this.#keyOf(profileId);
    const hash = await this.#client.hGetAll(key);
    const stored = parseReadings(hash);
    const merged = mergeReadings([...stored.values()], readings, now);
    const keptSlots = new Set(merged.map(readingSlot));
    const changed: Record<string, string> = {};
    for (const reading of merged) {
      const text = JSON.stringify(reading);
      if (hash[readingSlot(reading)] !== text) changed[readingSlot(reading)] = text;
    }
    const doomed = Object.keys(hash).filter((slot) => !keptSlots.has(slot));
    const lastReset = Math.max(...merged.map((reading) => reading.resetAt), now + 1);
    const write = this.#client.multi();
    if (Object.keys(changed).length > 0) write.hSet(key, changed);
    if (doomed.length > 0) write.hDel(key, doomed);
    // Relative, not PEXPIREAT: `now` is the caller's clock (a fake one in tests), not Redis's.
    write.pExpire(key, Math.max(1, Math.ceil(lastReset - now)));
    await write.exec();
  }

  async read(profileIds: readonly string[], now: number): Promise<Record<string, HeadroomReading[]>> {
    const ids = [...new Set(profileIds)];
    if (ids.length === 0) return {};
    const batch = this.#client.multi();
    for (const id of ids) batch.hGetAll(this.#keyOf(id));
    const hashes = (await batch.exec()) as unknown as Record<string, string>[];
    const found: Record<string, HeadroomReading[]> = {};
    ids.forEach((id, index) => {
      const fresh = [...parseReadings(hashes[index] ?? {}).values()].filter((reading) => isFresh(reading, now));
      if (fresh.length > 0) found[id] = fresh;
    });
    return found;
  }
}

export class RedisHeadroom implements HeadroomStore {
  readonly #run: Route<RemoteHeadroom>;

  constructor(run: Route<RemoteHeadroom>) {
    this.#run = run;
  }

  recordHeadroom(profileId: string, readings: readonly HeadroomReading[], now: number): Promise<void> {
    return this.#run(
      (r) => r.record(profileId, readings, now),
      (v) => v.recordHeadroom(profileId, readings, now),
      {
        mirror: (view) => view.recordHeadroom(profileId, readings, now),
      },
    );
  }

  headroomReadings(profileIds: readonly string[], now: number): Promise<Record<string, HeadroomReading[]>> {
    return this.#run(
      (r) => r.read(profileIds, now),
      (v) => v.headroomReadings(profileIds, now),
      {
        mirror: async (view, found) => {
          for (const [id, readings] of Object.entries(found)) await view.recordHeadroom(id, readings, now);
        },
      },
    );
  }
}
