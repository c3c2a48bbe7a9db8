/**
 * R-CF-3 `state` / R-SB-1 through the library entry point: `createDetour` opens the backend the config
 * names, sqlite when it names none, in `$DETOUR_HOME` from the environment it is given.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createDetour } from "../../src/engine/create-detour.js";
import { MemoryStateStore } from "../../src/state/memory/memory-store.js";
import { RedisStateStore } from "../../src/state/redis/redis-store.js";
import { sqliteStatePath } from "../../src/state/sqlite/sqlite-file.js";
import { SqliteStateStore } from "../../src/state/sqlite/sqlite-store.js";
import { deleteKeysWithPrefix, requireSharedRedis, SHARED_REDIS_URL, uniquePrefix } from "./helpers/redis.js";

const MODEL = { agents: { defaults: { model: { primary: "openai/gpt-5" } } } };
const directories: string[] = [];
const cleanups: (() => Promise<void>)[] = [];

function environment(): { DETOUR_HOME: string; DETOUR_SECRET_KEY: string } {
  const home = mkdtempSync(join(tmpdir(), "detour-backend-"));
  directories.push(home);
  return { DETOUR_HOME: home, DETOUR_SECRET_KEY: randomBytes(32).toString("base64") };
}

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe("createDetour picks the state backend from config", () => {
  it("R-SB-1: without a state section it opens the agent's SQLite file under $DETOUR_HOME", async () => {
    const env = environment();
    const detour = await createDetour({ config: MODEL, env });
    cleanups.push(() => detour.close());
    const store = await detour.store();
    expect(store).toBeInstanceOf(SqliteStateStore);
    expect((store as SqliteStateStore).path).toBe(sqliteStatePath(env.DETOUR_HOME, "main"));
    await store.upsertProfile({ id: "openai:default", credential: { type: "api_key", provider: "openai", key: "sk-1" } });
    expect(existsSync(sqliteStatePath(env.DETOUR_HOME, "main"))).toBe(true);
    const other = await detour.store("ops");
    expect((other as SqliteStateStore).path).toBe(sqliteStatePath(env.DETOUR_HOME, "ops"));
  });

  it("R-SB-1: state.backend memory keeps everything in the process and writes no file", async () => {
    const env = environment();
    const detour = await createDetour({ config: { ...MODEL, state: { backend: "memory" } }, env });
    cleanups.push(() => detour.close());
    const store = await detour.store();
    expect(store).toBeInstanceOf(MemoryStateStore);
    await store.upsertProfile({ id: "openai:default", credential: { type: "api_key", provider: "openai", key: "sk-1" } });
    expect(readdirSync(env.DETOUR_HOME)).toEqual([]);
  });
});

const redis = await requireSharedRedis("createDetour with the redis backend");
if (redis === "available") {
  describe("createDetour with state.backend redis", () => {
    it("R-SB-1: state.backend redis shares the store through Redis under the configured prefix", async () => {
      const env = environment();
      const keyPrefix = uniquePrefix();
      cleanups.push(() => deleteKeysWithPrefix(SHARED_REDIS_URL, keyPrefix));
      const config = { ...MODEL, state: { backend: "redis" as const, redis: { url: SHARED_REDIS_URL, keyPrefix } } };
      const first = await createDetour({ config, env });
      cleanups.push(() => first.close());
      const second = await createDetour({ config, env });
      cleanups.push(() => second.close());
      const store = await first.store();
      expect(store).toBeInstanceOf(RedisStateStore);
      await store.upsertProfile({ id: "openai:default", credential: { type: "api_key", provider: "openai", key: "sk-1" } });
      expect((await (await second.store()).getProfile("openai:default"))?.credential).toMatchObject({ key: "sk-1" });
      expect(existsSync(sqliteStatePath(env.DETOUR_HOME, "main"))).toBe(false);
    });
  });
}
