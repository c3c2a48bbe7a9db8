/**
 * Stores for commands that only look (`detour status`, `detour auth list`): they never create state. An
 * agent without a SQLite file has nothing stored, so it is shown from an empty in-memory view instead of
 * creating the folder, the file and `secret.key`. On Redis without `DETOUR_SECRET_KEY` or a key file there is
 * no key to read the shared credentials with: making one would only report a key mismatch, so the command
 * says what to set instead.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { DetourConfig } from "../config/index.js";
import type { Logger } from "../ports/events.js";
import type { StateStore } from "../ports/state-store.js";
import { MemoryStateStore } from "../state/memory/memory-store.js";
import { openStateStore } from "../state/open-store.js";
import { SECRET_KEY_ENV, SECRET_KEY_FILE_NAME } from "../state/secrets.js";
import { sqliteStatePath } from "../state/sqlite/sqlite-file.js";
import { SecretKeyMissingError } from "../state/state-errors.js";

export interface ReadOnlyStoreOptions {
  config: DetourConfig;
  detourHome: string;
  env: Readonly<Record<string, string | undefined>>;
  secretKey?: string;
  logger: Logger;
}

export async function openReadOnlyStore(options: ReadOnlyStoreOptions, agentId: string): Promise<StateStore> {
  const { config, detourHome } = options;
  const backend = config.state.backend;
  if (backend === "memory") return new MemoryStateStore();
  if (backend === "sqlite" && !existsSync(sqliteStatePath(detourHome, agentId))) return new MemoryStateStore();
  const keyFile = join(detourHome, SECRET_KEY_FILE_NAME);
  const envKey = options.secretKey ?? options.env[SECRET_KEY_ENV];
  if (backend === "redis" && (envKey === undefined || envKey.trim() === "") && !existsSync(keyFile)) {
    throw new SecretKeyMissingError(`redis (${config.state.redis?.url ?? "state.redis.url"}, agent ${agentId})`, keyFile);
  }
  return openStateStore({
    backend,
    agentId,
    detourHome,
    redis: config.state.redis,
    env: options.env as NodeJS.ProcessEnv,
    logger: options.logger,
    ...(options.secretKey !== undefined ? { secretKey: options.secretKey } : {}),
  });
}
