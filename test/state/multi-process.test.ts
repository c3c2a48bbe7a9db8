/**
 * R-SB-2 across processes: 4 child processes record 250 failures each on the same profile at the same
 * time; every one of the 1000 counts, and no SQLITE_BUSY (or Redis conflict) escapes.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SecretBox } from "../../src/state/secrets.js";
import { RedisStateStore } from "../../src/state/redis/redis-store.js";
import { SqliteStateStore } from "../../src/state/sqlite/sqlite-store.js";
import type { ChildStoreSpec } from "./children/open-child-store.js";
import { startChild } from "./helpers/children.js";
import { deleteKeysWithPrefix, requireSharedRedis, SHARED_REDIS_URL, uniquePrefix } from "./helpers/redis.js";

const PROCESSES = 4;
const FAILURES_EACH = 250;
const startNow = Date.UTC(2025, 0, 15);

async function recordFromChildren(spec: ChildStoreSpec): Promise<void> {
  const children = Array.from({ length: PROCESSES }, (_, index) =>
    startChild("record-failures.ts", {
      store: spec,
      profileId: "openai:shared",
      count: FAILURES_EACH,
      // Interleaved clocks, all well inside the failure window (R-CD-1).
      startNow: startNow + index * FAILURES_EACH,
    }),
  );
  await Promise.all(children.map((child) => child.waitForLine((line) => line === "ready")));
  for (const child of children) child.process.stdin?.write("go\n");
  const codes = await Promise.all(children.map((child) => child.exited));
  for (const [index, code] of codes.entries()) {
    expect(code, children[index]?.stderr()).toBe(0);
    expect(children[index]?.stderr() ?? "").not.toMatch(/SQLITE_BUSY|database is locked/);
  }
}

const secretKey = randomBytes(32);
const directory = mkdtempSync(join(tmpdir(), "detour-multiprocess-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("several processes share one store", () => {
  it("R-SB-2: 4 processes × 250 failures on one profile in one SQLite file all count", async () => {
    const path = join(directory, "shared.sqlite");
    // Opened and read before the children write: its cached reads must not hide their commits afterwards.
    const store = SqliteStateStore.open({ path, secrets: new SecretBox({ key: secretKey, source: "test" }, path) });
    expect(await store.getUsageStats("openai:shared")).toBeUndefined();
    expect(await store.getAllUsageStats()).toEqual({});
    await recordFromChildren({ backend: "sqlite", path, secretKey: secretKey.toString("base64") });
    expect((await store.getAllUsageStats())["openai:shared"]?.errorCount).toBe(PROCESSES * FAILURES_EACH);
    const stats = await store.getUsageStats("openai:shared");
    expect(stats?.errorCount).toBe(PROCESSES * FAILURES_EACH);
    expect(stats?.failureCounts).toEqual({ overloaded: PROCESSES * FAILURES_EACH });
    expect(store.integrityCheck()).toBe("ok");
    await store.close();
  });
});

const redis = await requireSharedRedis("multi-process Redis");
if (redis === "available") {
  describe("several replicas share one Redis", () => {
    it("R-SB-2: 4 processes × 250 failures on one profile in one Redis all count", async () => {
      const keyPrefix = uniquePrefix();
      try {
        await recordFromChildren({ backend: "redis", url: SHARED_REDIS_URL, keyPrefix, secretKey: secretKey.toString("base64") });
        const store = await RedisStateStore.connect({
          url: SHARED_REDIS_URL,
          keyPrefix,
          agentId: "main",
          secretKey: { key: secretKey, source: "test" },
        });
        const stats = await store.getUsageStats("openai:shared");
        await store.close();
        expect(stats?.errorCount).toBe(PROCESSES * FAILURES_EACH);
        expect(stats?.failureCounts).toEqual({ overloaded: PROCESSES * FAILURES_EACH });
      } finally {
        await deleteKeysWithPrefix(SHARED_REDIS_URL, keyPrefix);
      }
    });
  });
}
