/**
 * The trace store contract (R-OB-4, `state/__fixtures__/store-contract/traces.ts`), run against every
 * backend: memory, a real SQLite file and the real Redis on 127.0.0.1:6379.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { createClient } from "@redis/client";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deleteKeysWithPrefix, SHARED_REDIS_URL, uniquePrefix } from "../../../test/state/helpers/redis.js";
import type { TraceRetention } from "../../ports/trace-store.js";
import { runTraceStoreContract, type TraceContractBackend } from "../__fixtures__/store-contract/traces.js";
import { MemoryTraceStore } from "../memory/memory-trace-store.js";
import { RedisTraceStore, redisTraceKeys } from "../redis/redis-trace-store.js";
import { SqliteTraceStore } from "../sqlite/sqlite-trace-store.js";

function sqliteBackend(): TraceContractBackend {
  const dir = mkdtempSync(join(tmpdir(), "detour-traces-"));
  const path = join(dir, "agents", "main", "agent", "detour-agent.sqlite");
  return {
    name: "sqlite",
    open: async (retention) => SqliteTraceStore.open({ path, retention }),
    reopen: async (retention) => SqliteTraceStore.open({ path, retention }),
    footprint: async () => statSync(path).size + (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function redisBackend(): TraceContractBackend {
  const keyPrefix = uniquePrefix();
  const open = (retention: TraceRetention) => RedisTraceStore.connect({ url: SHARED_REDIS_URL, keyPrefix, agentId: "main", retention });
  const footprint = async () => {
    const client = createClient({ url: SHARED_REDIS_URL });
    await client.connect();
    try {
      const keys = redisTraceKeys(keyPrefix, "main");
      return (await client.zCard(keys.order)) + (await client.zCard(keys.started)) + (await client.hLen(keys.body));
    } finally {
      await client.quit();
    }
  };
  return { name: "redis", open, reopen: open, footprint, cleanup: () => deleteKeysWithPrefix(SHARED_REDIS_URL, keyPrefix) };
}

function memoryBackend(): TraceContractBackend {
  return { name: "memory", open: async (retention) => new MemoryTraceStore(retention), cleanup: async () => {} };
}

runTraceStoreContract("memory", memoryBackend);
runTraceStoreContract("sqlite", sqliteBackend);
runTraceStoreContract("redis", redisBackend);
