import { randomBytes } from "node:crypto";
import { createClient } from "@redis/client";
import { afterEach, describe, expect, it } from "vitest";
import {
  deleteKeysWithPrefix,
  dumpKeysWithPrefix,
  requireSharedRedis,
  SHARED_REDIS_URL,
  uniquePrefix,
} from "../../../test/state/helpers/redis.js";
import { openStateStore } from "../open-store.js";
import type { SecretKey } from "../secrets.js";
import { SecretKeyNotSharedError } from "../state-errors.js";
import { CONTRACT_COOLDOWNS, runStoreContract } from "../__fixtures__/store-contract/index.js";
import { RedisStateStore } from "./redis-store.js";

const availability = await requireSharedRedis("Redis state backend");

function newKey(): SecretKey {
  return { key: randomBytes(32), source: "a test key" };
}

function connect(keyPrefix: string, secretKey: SecretKey, agentId = "main"): Promise<RedisStateStore> {
  return RedisStateStore.connect({ url: SHARED_REDIS_URL, keyPrefix, agentId, secretKey });
}

if (availability === "available") {
  runStoreContract(
    "redis",
    async () => {
      const prefix = uniquePrefix();
      const key = newKey();
      const store = await connect(prefix, key);
      return {
        store,
        cleanup: async () => {
          await store.close();
          await deleteKeysWithPrefix(SHARED_REDIS_URL, prefix);
        },
        openSibling: () => connect(prefix, key),
        readAtRest: async () => JSON.stringify(await dumpKeysWithPrefix(SHARED_REDIS_URL, prefix)),
      };
    },
    { sharedState: true, encryptsAtRest: true },
  );

  describe("redis backend", () => {
    const prefixes: string[] = [];
    const stores: RedisStateStore[] = [];

    function prefix(): string {
      const created = uniquePrefix();
      prefixes.push(created);
      return created;
    }

    async function open(keyPrefix: string, secretKey: SecretKey, agentId = "main"): Promise<RedisStateStore> {
      const store = await connect(keyPrefix, secretKey, agentId);
      stores.push(store);
      return store;
    }

    afterEach(async () => {
      for (const store of stores.splice(0)) await store.close();
      for (const created of prefixes.splice(0)) await deleteKeysWithPrefix(SHARED_REDIS_URL, created);
    });

    it("R-SB-1: keys are namespaced by prefix and agent (beside the prefix's one key check), and agents do not see each other", async () => {
      const keyPrefix = prefix();
      const key = newKey();
      const main = await open(keyPrefix, key, "main");
      const ops = await open(keyPrefix, key, "ops");
      await main.upsertProfile({ id: "openai:default", credential: { type: "api_key", provider: "openai", key: "sk-1" } });
      await main.recordFailure("openai:default", { reason: "rate_limit", provider: "openai", now: 1, cooldowns: CONTRACT_COOLDOWNS });
      await main.patchSession("s1", { modelOverride: "gpt-4o" });
      await main.tryClaimProbe("openai", 1, 30_000);
      await ops.patchSession("s1", { modelOverride: "other" });
      const keys = Object.keys(await dumpKeysWithPrefix(SHARED_REDIS_URL, keyPrefix));
      expect(keys.length).toBeGreaterThan(4);
      for (const name of keys) expect(name).toMatch(new RegExp(`^${keyPrefix}:(\\{(main|ops)\\}:|key-check$)`));
      expect(await ops.getProfile("openai:default")).toBeUndefined();
      expect(await ops.getUsageStats("openai:default")).toBeUndefined();
      expect((await main.getSession("s1"))?.modelOverride).toBe("gpt-4o");
      expect(main.mode).toBe("shared");
    });

    it("R-FB-4: a probe claim is a SET NX PX key that expires with the interval", async () => {
      const keyPrefix = prefix();
      const store = await open(keyPrefix, newKey());
      expect(await store.tryClaimProbe("openai", 1_000, 30_000)).toBe(true);
      const client = createClient({ url: SHARED_REDIS_URL });
      await client.connect();
      try {
        const ttl = await client.pTTL(`${keyPrefix}:{main}:probe:openai`);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(30_000);
      } finally {
        client.destroy();
      }
    });

    it("R-SB-4: connecting with another key fails with a typed error saying every replica needs the same key", async () => {
      const keyPrefix = prefix();
      const first = await open(keyPrefix, newKey());
      await first.upsertProfile({ id: "openai:default", credential: { type: "api_key", provider: "openai", key: "sk-1" } });
      await expect(connect(keyPrefix, { key: randomBytes(32), source: "DETOUR_SECRET_KEY" })).rejects.toSatisfy(
        (error: unknown) =>
          error instanceof SecretKeyNotSharedError &&
          error.code === "DETOUR_SECRET_KEY_NOT_SHARED" &&
          error.message.includes("the same value on every replica"),
      );
    });

    /**
     * Every command Redis executes on keys under `keyPrefix` while `run` runs, as Redis's MONITOR reports
     * them (commands run inside a script are reported too, marked `lua`).
     */
    async function commandsDuring(keyPrefix: string, run: () => Promise<void>): Promise<{ command: string; lua: boolean }[]> {
      const monitor = createClient({ url: SHARED_REDIS_URL });
      const marker = createClient({ url: SHARED_REDIS_URL });
      await Promise.all([monitor.connect(), marker.connect()]);
      const seen: { command: string; lua: boolean }[] = [];
      let done: () => void = () => {};
      const finished = new Promise<void>((resolve) => (done = resolve));
      const end = `${keyPrefix}:end-of-monitoring`;
      try {
        await monitor.monitor((reply) => {
          // `1700000000.123456 [0 127.0.0.1:50000] "EVALSHA" "…" …`, or `[0 lua]` for a script's commands.
          const line = String(reply);
          const source = /\[\d+ ([^\]]+)\]/.exec(line)?.[1];
          const args = [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1] as string);
          if (args.length === 0) return;
          if (!args.some((arg) => arg.startsWith(`${keyPrefix}:`))) return;
          if (args.includes(end)) return done();
          seen.push({ command: (args[0] as string).toUpperCase(), lua: source === "lua" });
        });
        await run();
        // MONITOR replies arrive after the commands; a marker command tells when all before it were seen.
        await marker.exists(end);
        await finished;
        return seen;
      } finally {
        monitor.destroy();
        marker.destroy();
      }
    }

    it("R-SB-2: a healthy profile's success is one script call that writes only lastUsed, and never retries", async () => {
      const keyPrefix = prefix();
      const store = await open(keyPrefix, newKey());
      await store.recordFailure("openai:a", { reason: "overloaded", provider: "openai", now: 1_000, cooldowns: CONTRACT_COOLDOWNS });
      await store.recordSuccess("openai:a", { provider: "openai", now: 2_000 });
      const successes = 10;
      const commands = await commandsDuring(keyPrefix, async () => {
        for (let index = 1; index <= successes; index += 1) {
          const stats = await store.recordSuccess("openai:a", { provider: "openai", now: 2_000 + index });
          expect(stats).toMatchObject({ errorCount: 0, failureCounts: {}, lastUsed: 2_000 + index });
        }
      });
      const sent = commands.filter((entry) => !entry.lua);
      expect(sent.map((entry) => entry.command)).toEqual(Array.from({ length: successes }, () => "EVALSHA"));
      const writes = commands.filter((entry) => entry.lua && !["HGET", "HGETALL"].includes(entry.command));
      expect(writes).toHaveLength(successes);
      expect(writes.every((entry) => entry.command === "HSET")).toBe(true);
      expect((await store.getUsageStats("openai:a"))?.lastUsed).toBe(2_000 + successes);
    });

    it("R-CD-7: a success after another replica's failure resets it in two script calls, without a read", async () => {
      const keyPrefix = prefix();
      const key = newKey();
      const store = await open(keyPrefix, key);
      const other = await open(keyPrefix, key);
      await store.recordSuccess("openai:a", { provider: "openai", now: 1_000 });
      await other.recordFailure("openai:a", { reason: "overloaded", provider: "openai", now: 2_000, cooldowns: CONTRACT_COOLDOWNS });
      let stats: Awaited<ReturnType<RedisStateStore["recordSuccess"]>> | undefined;
      const commands = await commandsDuring(keyPrefix, async () => {
        stats = await store.recordSuccess("openai:a", { provider: "openai", now: 3_000 });
      });
      expect(commands.filter((entry) => !entry.lua).map((entry) => entry.command)).toEqual(["EVALSHA", "EVALSHA"]);
      expect(stats).toMatchObject({ errorCount: 0, failureCounts: {}, lastFailureAt: 2_000, lastUsed: 3_000 });
      expect(stats?.cooldownUntil).toBeUndefined();
      expect(await other.getUsageStats("openai:a")).toEqual(stats);
    });

    it("R-SB-1: openStateStore picks the redis backend from the state options", async () => {
      const keyPrefix = prefix();
      const store = await openStateStore({
        backend: "redis",
        agentId: "main",
        redis: { url: SHARED_REDIS_URL, keyPrefix },
        secretKey: randomBytes(32),
      });
      stores.push(store as RedisStateStore);
      expect(store).toBeInstanceOf(RedisStateStore);
      await store.setStoredOrder("openai", ["openai:a"]);
      expect(Object.keys(await dumpKeysWithPrefix(SHARED_REDIS_URL, keyPrefix))).toContain(`${keyPrefix}:{main}:order`);
    });
  });
}
