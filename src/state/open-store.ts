/**
 * Picks and opens the configured state backend (SPEC R-CF-3 `state`, §16). The engine's only entry into
 * state/: it hands in the resolved config values and gets a `StateStore`.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { type Logger, silentLogger } from "../ports/events.js";
import type { StateStore } from "../ports/state-store.js";
import { MemoryStateStore } from "./memory/memory-store.js";
import { resolveSecretKey, SecretBox } from "./secrets.js";
import { sqliteStatePath } from "./sqlite/sqlite-file.js";
import { SqliteStateStore } from "./sqlite/sqlite-store.js";
import { requireRedisUrl } from "./redis-url.js";
import { StateConfigError } from "./state-errors.js";

export type StateBackend = "sqlite" | "redis" | "memory";

export const DEFAULT_AGENT_ID = "main";
export const DEFAULT_REDIS_KEY_PREFIX = "detour";

export interface OpenStateStoreOptions {
  /** Default `sqlite` (R-CF-3). */
  backend?: StateBackend;
  /** Default `main`. */
  agentId?: string;
  /** Default `$DETOUR_HOME`, else `~/.detour` (R-CF-1). */
  detourHome?: string;
  redis?: { url?: string; keyPrefix?: string };
  /** Explicit secret key (base64 or 32 raw bytes); else `DETOUR_SECRET_KEY`, else the key file (R-SB-4). */
  secretKey?: string | Uint8Array;
  logger?: Logger;
  env?: NodeJS.ProcessEnv;
  /** `sessions.idleTtlDays`: when given, the store prunes idle sessions on open and periodically (R-GW-8). */
  sessionIdleTtlDays?: number;
  /** `sessions.maxCount`: with `sessionIdleTtlDays`, the same sweeps keep at most this many sessions (R-GW-8). */
  sessionMaxCount?: number;
}

export function resolveDetourHome(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.DETOUR_HOME?.trim();
  return configured ? configured : join(homedir(), ".detour");
}

export async function openStateStore(options: OpenStateStoreOptions = {}): Promise<StateStore> {
  const backend = options.backend ?? "sqlite";
  const agentId = options.agentId ?? DEFAULT_AGENT_ID;
  const env = options.env ?? process.env;
  const logger = options.logger ?? silentLogger;
  const sessionRetention =
    options.sessionIdleTtlDays !== undefined
      ? { idleTtlDays: options.sessionIdleTtlDays, ...(options.sessionMaxCount !== undefined ? { maxCount: options.sessionMaxCount } : {}) }
      : undefined;
  if (backend === "memory") return new MemoryStateStore({ logger, ...(sessionRetention ? { sessionRetention } : {}) });

  const detourHome = options.detourHome ?? resolveDetourHome(env);
  if (backend === "sqlite") {
    const path = sqliteStatePath(detourHome, agentId);
    const secretKey = resolveSecretKey({
      detourHome,
      env,
      secretKey: options.secretKey,
      createKeyFile: !existsSync(path),
      storeLabel: path,
    });
    return SqliteStateStore.open({
      path,
      secrets: new SecretBox(secretKey, path),
      logger,
      ...(sessionRetention ? { sessionRetention } : {}),
    });
  }
  if (backend === "redis") {
    const url = requireRedisUrl(options.redis);
    const secretKey = resolveSecretKey({ detourHome, env, secretKey: options.secretKey });
    // Loaded only for this backend: the Redis client is hundreds of modules a SQLite gateway never runs.
    const { RedisStateStore } = await import("./redis/redis-store.js");
    return RedisStateStore.connect({
      url,
      keyPrefix: options.redis?.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX,
      agentId,
      secretKey,
      logger,
      ...(sessionRetention ? { sessionRetention } : {}),
    });
  }
  throw new StateConfigError(`Unknown state backend "${String(backend)}": use "sqlite", "redis" or "memory".`);
}
