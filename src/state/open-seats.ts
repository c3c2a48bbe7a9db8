/**
 * Opens the seats (R-PO-8) of the configured state backend, beside the `StateStore` `openStateStore`
 * opens: the same SQLite file of the agent, or the same Redis prefix and agent, so every process or
 * replica that shares the state shares the seat counts too.
 */
import type { SeatsStore } from "../ports/seats-store.js";
import { MemorySeats } from "./memory/memory-seats.js";
import { DEFAULT_AGENT_ID, DEFAULT_REDIS_KEY_PREFIX, resolveDetourHome, type StateBackend } from "./open-store.js";
import { sqliteStatePath } from "./sqlite/sqlite-file.js";
import { SqliteSeats } from "./sqlite/sqlite-seats.js";
import { requireRedisUrl } from "./redis-url.js";
import { StateConfigError } from "./state-errors.js";

export interface OpenSeatsOptions {
  /** Default `sqlite` (R-CF-3). */
  backend?: StateBackend;
  /** Default `main`. */
  agentId?: string;
  /** Default `$DETOUR_HOME`, else `~/.detour` (R-CF-1). */
  detourHome?: string;
  redis?: { url?: string; keyPrefix?: string };
  env?: NodeJS.ProcessEnv;
}

export async function openSeatsStore(options: OpenSeatsOptions = {}): Promise<SeatsStore> {
  const backend = options.backend ?? "sqlite";
  const agentId = options.agentId ?? DEFAULT_AGENT_ID;
  if (backend === "memory") return new MemorySeats();
  if (backend === "sqlite") {
    const detourHome = options.detourHome ?? resolveDetourHome(options.env ?? process.env);
    return SqliteSeats.open(sqliteStatePath(detourHome, agentId));
  }
  if (backend === "redis") {
    const url = requireRedisUrl(options.redis);
    // Loaded only for this backend, as the Redis state store is.
    const { RedisSeats } = await import("./redis/redis-seats.js");
    return RedisSeats.connect({ url, keyPrefix: options.redis?.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX, agentId });
  }
  throw new StateConfigError(`Unknown state backend "${String(backend)}": use "sqlite", "redis" or "memory".`);
}
