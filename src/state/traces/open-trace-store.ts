/**
 * Opens the run trace store of one agent on the configured backend (R-OB-4): the same place as the agent's
 * state — its SQLite file, its Redis namespace, or process memory.
 */
import type { TraceRetention, TraceStore } from "../../ports/trace-store.js";
import { MemoryTraceStore } from "../memory/memory-trace-store.js";
import { sqliteStatePath } from "../sqlite/sqlite-file.js";
import { SqliteTraceStore } from "../sqlite/sqlite-trace-store.js";
import { requireRedisUrl } from "../redis-url.js";

export interface OpenTraceStoreOptions {
  backend: "sqlite" | "redis" | "memory";
  agentId: string;
  detourHome: string;
  redis?: { url?: string; keyPrefix?: string };
  retention: TraceRetention;
}

export async function openTraceStore(options: OpenTraceStoreOptions): Promise<TraceStore> {
  const { backend, retention } = options;
  if (backend === "memory") return new MemoryTraceStore(retention);
  if (backend === "sqlite") return SqliteTraceStore.open({ path: sqliteStatePath(options.detourHome, options.agentId), retention });
  const url = requireRedisUrl(options.redis);
  // Loaded only for this backend, like the Redis state store.
  const { RedisTraceStore } = await import("../redis/redis-trace-store.js");
  return RedisTraceStore.connect({ url, keyPrefix: options.redis?.keyPrefix ?? "detour", agentId: options.agentId, retention });
}
