/**
 * R-PO-8 across real processes: children claiming one profile's seats at the same moment never take more
 * than its limit together, and the seats of a child killed with SIGKILL free themselves when their lease
 * runs out — on one SQLite file and on one Redis prefix.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import type { SeatsStore } from "../../src/ports/seats-store.js";
import { RedisSeats } from "../../src/state/redis/redis-seats.js";
import { SqliteSeats } from "../../src/state/sqlite/sqlite-seats.js";
import { startChild, type RunningChild } from "./helpers/children.js";
import { deleteKeysWithPrefix, requireSharedRedis, SHARED_REDIS_URL, uniquePrefix } from "./helpers/redis.js";

const PROCESSES = 4;
const ATTEMPTS_EACH = 10;
const LIMIT = 3;
const SHORT_LEASE_MS = 1500;

type SeatsSpec = { backend: "sqlite"; path: string } | { backend: "redis"; url: string; keyPrefix: string };

const directory = mkdtempSync(join(tmpdir(), "detour-seats-processes-"));
const prefixes: string[] = [];
afterAll(async () => {
  rmSync(directory, { recursive: true, force: true });
  for (const prefix of prefixes) await deleteKeysWithPrefix(SHARED_REDIS_URL, prefix);
});

async function claimFromChildren(spec: SeatsSpec, leaseMs: number): Promise<{ children: RunningChild[]; taken: number }> {
  const children = Array.from({ length: PROCESSES }, () =>
    startChild("claim-seats.ts", { seats: spec, profileId: "acct-a", limit: LIMIT, attempts: ATTEMPTS_EACH, leaseMs }),
  );
  await Promise.all(children.map((child) => child.waitForLine((line) => line === "ready")));
  for (const child of children) child.process.stdin?.write("go\n");
  const lines = await Promise.all(children.map((child) => child.waitForLine((line) => line.startsWith("taken "))));
  const taken = lines.reduce((sum, line) => sum + Number(line.slice("taken ".length)), 0);
  return { children, taken };
}

/** Runs `check` with the test process's own handle on the seats (the parent of the children), closed after. */
async function asParent(open: () => SeatsStore | Promise<SeatsStore>, check: (parent: SeatsStore) => Promise<void>): Promise<void> {
  const parent = await open();
  try {
    await check(parent);
  } finally {
    await parent.close();
  }
}

async function checkBackend(spec: SeatsSpec, parent: SeatsStore): Promise<void> {
  // Long leases: every child's claims are counted while they are all alive.
  const crowd = await claimFromChildren(spec, 60_000);
  expect(crowd.taken).toBe(LIMIT);
  expect(await parent.inFlight(["acct-a"], Date.now())).toEqual({ "acct-a": LIMIT });
  for (const child of crowd.children) child.process.stdin?.write("exit\n");
  for (const child of crowd.children) expect(await child.exited, child.stderr()).toBe(0);
}

async function checkKilledHolder(spec: SeatsSpec, parent: SeatsStore): Promise<void> {
  const holder = startChild("claim-seats.ts", { seats: spec, profileId: "acct-b", limit: 2, attempts: 2, leaseMs: SHORT_LEASE_MS });
  await holder.waitForLine((line) => line === "ready");
  holder.process.stdin?.write("go\n");
  expect(await holder.waitForLine((line) => line.startsWith("taken "))).toBe("taken 2");
  holder.process.kill("SIGKILL");
  await holder.exited;
  expect(await parent.tryAcquire({ profileId: "acct-b", limit: 2, now: Date.now(), leaseMs: 60_000 })).toBeUndefined();
  await sleep(SHORT_LEASE_MS + 200);
  expect(await parent.inFlight(["acct-b"], Date.now())).toEqual({ "acct-b": 0 });
  expect(await parent.tryAcquire({ profileId: "acct-b", limit: 2, now: Date.now(), leaseMs: 60_000 })).toBeDefined();
}

describe("seats shared by processes on one SQLite file", () => {
  const path = join(directory, "detour-agent.sqlite");
  const spec: SeatsSpec = { backend: "sqlite", path };

  it("R-PO-8 4 processes claiming 10 seats each at once on a 3-seat profile get 3 in all", async () => {
    await asParent(
      () => SqliteSeats.open(path),
      (parent) => checkBackend(spec, parent),
    );
  }, 60_000);

  it("R-PO-8 a process killed with SIGKILL frees its seats when their lease runs out", async () => {
    await asParent(
      () => SqliteSeats.open(path),
      (parent) => checkKilledHolder(spec, parent),
    );
  }, 60_000);
});

const availability = await requireSharedRedis("Redis seats across processes");
if (availability === "available") {
  describe("seats shared by replicas on one Redis", () => {
    const keyPrefix = uniquePrefix();
    prefixes.push(keyPrefix);
    const spec: SeatsSpec = { backend: "redis", url: SHARED_REDIS_URL, keyPrefix };

    it("R-PO-8 4 replicas claiming 10 seats each at once on a 3-seat profile get 3 in all", async () => {
      await asParent(
        () => RedisSeats.connect({ url: SHARED_REDIS_URL, keyPrefix, agentId: "main" }),
        (parent) => checkBackend(spec, parent),
      );
    }, 60_000);

    it("R-PO-8 a replica killed with SIGKILL frees its seats when their lease runs out", async () => {
      await asParent(
        () => RedisSeats.connect({ url: SHARED_REDIS_URL, keyPrefix, agentId: "main" }),
        (parent) => checkKilledHolder(spec, parent),
      );
    }, 60_000);
  });
}
