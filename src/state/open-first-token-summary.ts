/**
 * Opens the learned first-token summary (R-TT-1) of the configured state backend, beside the agent's state:
 * the same SQLite file, or the same Redis prefix and agent, so `detour status` reads what the gateway wrote.
 */
import type { FirstTokenSummaryStore } from "../ports/first-token-summary.js";
import { MemoryFirstTokenSummary } from "./memory/memory-first-token-summary.js";
import type { OpenSeatsOptions } from "./open-seats.js";
import { DEFAULT_AGENT_ID, DEFAULT_REDIS_KEY_PREFIX, resolveDetourHome } from "./open-store.js";
import { sqliteStatePath } from "./sqlite/sqlite-file.js";
import { SqliteFirstTokenSummary } from "./sqlite/sqlite-first-token-summary.js";
import { requireRedisUrl } from "./redis-url.js";
import { StateConfigError } from "./state-errors.js";

/** `readOnly`: for a look from another process, which creates nothing (no file, table or key). */
export async function openFirstTokenSummary(options: OpenSeatsOptions & { readOnly?: boolean } = {}): Promise<FirstTokenSummaryStore> {
  const backend = options.backend ?? "sqlite";
  const agentId = options.agentId ?? DEFAULT_AGENT_ID;
  if (backend === "memory") return new MemoryFirstTokenSummary();
  if (backend === "sqlite") {
    const detourHome = options.detourHome ?? resolveDetourHome(options.env ?? process.env);
    const path = sqliteStatePath(detourHome, agentId);
    return options.readOnly ? SqliteFirstTokenSummary.openForReading(path) : SqliteFirstTokenSummary.open(path);
  }
  if (backend === "redis") {
    const url = requireRedisUrl(options.redis);
    // Loaded only for this backend, as the Redis state store is.
    const { RedisFirstTokenSummary } = await import("./redis/redis-first-token-summary.js");
    return RedisFirstTokenSummary.connect({ url, keyPrefix: options.redis?.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX, agentId });
  }
  throw new StateConfigError(`Unknown state backend "${String(backend)}": use "sqlite", "redis" or "memory".`);
}
