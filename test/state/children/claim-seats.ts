/**
 * Child process of the seats tests (R-PO-8): opens the seats of a SQLite file or a Redis prefix, waits for
 * the parent's go, tries `attempts` claims on one profile at once, prints how many it got, and then holds
 * its seats (never releasing them) until it is killed or told to exit.
 */
import type { SeatsStore } from "../../../src/ports/seats-store.js";
import { waitForGo } from "./open-child-store.js";

type SeatsSpec = { backend: "sqlite"; path: string } | { backend: "redis"; url: string; keyPrefix: string };

const {
  seats: spec,
  profileId,
  limit,
  attempts,
  leaseMs,
} = JSON.parse(process.argv[2] ?? "{}") as {
  seats: SeatsSpec;
  profileId: string;
  limit: number;
  attempts: number;
  leaseMs: number;
};

async function openSeats(): Promise<SeatsStore> {
  if (spec.backend === "sqlite") {
    const { SqliteSeats } = await import("../../../src/state/sqlite/sqlite-seats.js");
    return SqliteSeats.open(spec.path);
  }
  const { RedisSeats } = await import("../../../src/state/redis/redis-seats.js");
  return RedisSeats.connect({ url: spec.url, keyPrefix: spec.keyPrefix, agentId: "main" });
}

const seats = await openSeats();
console.log("ready");
await waitForGo();
const claims = await Promise.all(Array.from({ length: attempts }, () => seats.tryAcquire({ profileId, limit, now: Date.now(), leaseMs })));
console.log(`taken ${claims.filter(Boolean).length}`);
await waitForGo();
await seats.close();
process.exit(0);
