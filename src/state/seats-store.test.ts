import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@redis/client";
import { afterEach, describe, expect, it } from "vitest";
import { deleteKeysWithPrefix, requireSharedRedis, SHARED_REDIS_URL, uniquePrefix } from "../../test/state/helpers/redis.js";
import { MemorySeats } from "./memory/memory-seats.js";
import { redisKeys } from "./redis/redis-keys.js";
import { RedisSeats } from "./redis/redis-seats.js";
import { openSeatsStore } from "./open-seats.js";
import { runSeatsContract } from "./__fixtures__/store-contract/seats.js";
import { sqliteStatePath } from "./sqlite/sqlite-file.js";
import { SqliteSeats } from "./sqlite/sqlite-seats.js";
import { SqliteStateStore } from "./sqlite/sqlite-store.js";
import { SecretBox } from "./secrets.js";
import { randomBytes } from "node:crypto";

runSeatsContract("memory", async () => {
  const seats = new MemorySeats();
  return { seats, cleanup: () => seats.close() };
});

runSeatsContract(
  "sqlite",
  async () => {
    const directory = mkdtempSync(join(tmpdir(), "detour-seats-"));
    const path = join(directory, "detour-agent.sqlite");
    const seats = SqliteSeats.open(path);
    return {
      seats,
      cleanup: async () => {
        await seats.close();
        rmSync(directory, { recursive: true, force: true });
      },
      openSibling: async () => SqliteSeats.open(path),
    };
  },
  { shared: true },
);

describe("sqlite seats beside the state store", () => {
  it("R-PO-8 the seats table shares the agent's file with the state store, and each opens after the other", async () => {
    const directory = mkdtempSync(join(tmpdir(), "detour-seats-"));
    const path = join(directory, "detour-agent.sqlite");
    try {
      const secrets = new SecretBox({ key: randomBytes(32), source: "a test key" }, path);
      const store = await SqliteStateStore.open({ path, secrets });
      const seats = SqliteSeats.open(path);
      expect(await seats.tryAcquire({ profileId: "acct-a", limit: 1, now: 1000, leaseMs: 20_000 })).toBeDefined();
      await store.upsertProfile({ id: "acct-a", credential: { type: "api_key", provider: "openai", key: "sk-test" } });
      await seats.close();
      await store.close();

      const reopened = await SqliteStateStore.open({ path, secrets });
      const seatsAgain = SqliteSeats.open(path);
      expect((await reopened.listProfiles()).map((profile) => profile.id)).toEqual(["acct-a"]);
      expect(await seatsAgain.inFlight(["acct-a"], 2000)).toEqual({ "acct-a": 1 });
      await seatsAgain.close();
      await reopened.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

const availability = await requireSharedRedis("Redis seats");

if (availability === "available") {
  runSeatsContract(
    "redis",
    async () => {
      const keyPrefix = uniquePrefix();
      const open = () => RedisSeats.connect({ url: SHARED_REDIS_URL, keyPrefix, agentId: "main" });
      const seats = await open();
      return {
        seats,
        cleanup: async () => {
          await seats.close();
          await deleteKeysWithPrefix(SHARED_REDIS_URL, keyPrefix);
        },
        openSibling: open,
      };
    },
    { shared: true },
  );

  describe("redis seats", () => {
    const prefixes: string[] = [];
    afterEach(async () => {
      for (const prefix of prefixes.splice(0)) await deleteKeysWithPrefix(SHARED_REDIS_URL, prefix);
    });

    it("R-PO-8 a profile's seats key expires on Redis once its longest lease has, so idle profiles leave nothing", async () => {
      const keyPrefix = uniquePrefix();
      prefixes.push(keyPrefix);
      const seats = await RedisSeats.connect({ url: SHARED_REDIS_URL, keyPrefix, agentId: "main" });
      const client = createClient({ url: SHARED_REDIS_URL });
      await client.connect();
      try {
        const key = redisKeys(keyPrefix, "main").seats("acct-a");
        await seats.tryAcquire({ profileId: "acct-a", limit: 2, now: 1000, leaseMs: 60_000 });
        await seats.tryAcquire({ profileId: "acct-a", limit: 2, now: 1000, leaseMs: 300 });
        const ttl = await client.pTTL(key);
        // The shorter second lease did not shorten the key's life below the first one's.
        expect(ttl).toBeGreaterThan(50_000);
        expect(ttl).toBeLessThanOrEqual(60_000);

        const short = uniquePrefix();
        prefixes.push(short);
        const briefly = await RedisSeats.connect({ url: SHARED_REDIS_URL, keyPrefix: short, agentId: "main" });
        await briefly.tryAcquire({ profileId: "acct-a", limit: 1, now: 1000, leaseMs: 150 });
        await new Promise((resolve) => setTimeout(resolve, 400));
        expect(await client.exists(redisKeys(short, "main").seats("acct-a"))).toBe(0);
        await briefly.close();
      } finally {
        await client.close();
        await seats.close();
      }
    });
  });
}

describe("openSeatsStore", () => {
  it("R-PO-8 the sqlite backend counts seats in the agent's own state file, shared by a second opening", async () => {
    const detourHome = mkdtempSync(join(tmpdir(), "detour-seats-home-"));
    try {
      const first = await openSeatsStore({ backend: "sqlite", detourHome, agentId: "main" });
      const second = await openSeatsStore({ backend: "sqlite", detourHome, agentId: "main" });
      const otherAgent = await openSeatsStore({ backend: "sqlite", detourHome, agentId: "night" });
      expect(await first.tryAcquire({ profileId: "acct-a", limit: 1, now: 1000, leaseMs: 20_000 })).toBeDefined();
      expect(await second.tryAcquire({ profileId: "acct-a", limit: 1, now: 1000, leaseMs: 20_000 })).toBeUndefined();
      expect(await otherAgent.inFlight(["acct-a"], 1000)).toEqual({ "acct-a": 0 });
      expect(existsSync(sqliteStatePath(detourHome, "main"))).toBe(true);
      for (const seats of [first, second, otherAgent]) await seats.close();
    } finally {
      rmSync(detourHome, { recursive: true, force: true });
    }
  });

  it("R-PO-8 the memory backend counts in the process only, and redis without a url is refused with advice", async () => {
    const one = await openSeatsStore({ backend: "memory" });
    const two = await openSeatsStore({ backend: "memory" });
    await one.tryAcquire({ profileId: "acct-a", limit: 1, now: 1000, leaseMs: 20_000 });
    expect(await two.inFlight(["acct-a"], 1000)).toEqual({ "acct-a": 0 });
    await expect(openSeatsStore({ backend: "redis" })).rejects.toThrow(/state\.redis\.url is not set/);
  });
});
