/**
 * What the Redis backend's facets share when they talk to Redis: the client, the agent's key layout, the
 * secret box, the injected clock and randomness, and how a Lua script is run.
 */
import { createClient } from "@redis/client";
import type { Clock } from "../../ports/clock.js";
import type { Random } from "../../ports/random.js";
import type { SecretBox } from "../secrets.js";
import { type LuaScript, runScript } from "./lua-scripts.js";
import type { RedisKeys } from "./redis-keys.js";
import { REDIS_CONNECT_TIMEOUT_MS } from "./redis-timeouts.js";

export type RedisClient = ReturnType<typeof createClient>;

/** How long to wait before reconnect attempt `retries`: doubling from 50 ms, at most a second. */
export function redisReconnectDelay(retries: number): number {
  return Math.min(50 * 2 ** retries, 1000);
}

/**
 * Connects a client for data that is best effort (traces, the first-token summary): a write while
 * disconnected fails at once instead of piling up in memory, and failed commands reject to the caller.
 */
export async function connectBestEffortRedis(options: { url: string; connectTimeoutMs?: number }): Promise<RedisClient> {
  const client: RedisClient = createClient({
    url: options.url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: options.connectTimeoutMs ?? REDIS_CONNECT_TIMEOUT_MS,
      reconnectStrategy: redisReconnectDelay,
    },
  });
  // Without a listener an 'error' would crash the process.
  client.on("error", () => {});
  await client.connect();
  return client;
}

export class RedisConnection {
  readonly client: RedisClient;
  readonly keys: RedisKeys;
  readonly secrets: SecretBox;
  /** Waits out compare-and-set contention (jittered by `random`). */
  readonly clock: Clock;
  readonly random: Random;
  /** Dates session writes for idle pruning (R-GW-8); replicas' clocks only need to agree to within hours. */
  readonly now: () => number;

  constructor(options: { client: RedisClient; keys: RedisKeys; secrets: SecretBox; clock: Clock; random: Random; now: () => number }) {
    this.client = options.client;
    this.keys = options.keys;
    this.secrets = options.secrets;
    this.clock = options.clock;
    this.random = options.random;
    this.now = options.now;
  }

  run(lua: LuaScript, keys: string[], args: (string | number)[]): Promise<unknown> {
    return runScript(this.client as unknown as Parameters<typeof runScript>[0], lua, keys, args);
  }

  /** The keys a session script touches: its hash, the index and the write times. */
  sessionKeys(sessionKey: string): string[] {
    return [this.keys.session(sessionKey), this.keys.sessionIndex, this.keys.sessionTouched];
  }
}
