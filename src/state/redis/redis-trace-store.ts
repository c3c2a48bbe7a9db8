/**
 * Run traces on Redis (R-OB-4), shared by every replica of an agent. Three keys under the agent's hash tag:
 * `traces:order` (run id scored by a write counter: recording order), `traces:started` (run id scored by
 * start time: the age bound and time-range reads) and `traces:body` (run id → trace JSON). One script
 * writes a trace and drops what the ring no longer keeps, so concurrent replicas never leave it over bound.
 */
import { createClient } from "@redis/client";
import type { RunTraceV1 } from "../../core/run-trace.js";
import {
  matchesTraceQuery,
  retentionCutoff,
  type TraceQuery,
  type TraceRetention,
  type TraceStore,
} from "../../ports/trace-store.js";
import { assertSafeAgentId } from "../sqlite/sqlite-file.js";
import { newestWithinLimit } from "../traces/trace-order.js";
import { type LuaScript, runScript } from "./lua-scripts.js";
import type { RedisClient } from "./redis-remote.js";
import { createHash } from "node:crypto";

/**
 * KEYS: counter, order, started, body. ARGV: runId, startedAt, body JSON, cutoff (epoch ms), keepRuns.
 */
const APPEND_TRACE_SOURCE = `
local function drop(id)
  redis.call('ZREM', KEYS[2], id)
  redis.call('ZREM', KEYS[3], id)
  redis.call('HDEL', KEYS[4], id)
end
local seq = redis.call('INCR', KEYS[1])
redis.call('ZADD', KEYS[2], seq, ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[4], ARGV[1], ARGV[3])
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', '(' .. ARGV[4])) do drop(id) end
local surplus = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[5])
if surplus > 0 then
  for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, surplus - 1)) do drop(id) end
end
return 1
`;
const APPEND_TRACE: LuaScript = {
  name: "append-run-trace",
  source: APPEND_TRACE_SOURCE,
  sha1: createHash("sha1").update(APPEND_TRACE_SOURCE).digest("hex"),
};

export interface RedisTraceKeys {
  counter: string;
  order: string;
  started: string;
  body: string;
}

export function redisTraceKeys(keyPrefix: string, agentId: string): RedisTraceKeys {
  assertSafeAgentId(agentId);
  const namespace = `${keyPrefix}:{${agentId}}:traces`;
  return { counter: `${namespace}:seq`, order: `${namespace}:order`, started: `${namespace}:started`, body: `${namespace}:body` };
}

export interface RedisTraceStoreOptions {
  url: string;
  keyPrefix: string;
  agentId: string;
  retention: TraceRetention;
  connectTimeoutMs?: number;
}

export class RedisTraceStore implements TraceStore {
  readonly #client: RedisClient;
  readonly #keys: RedisTraceKeys;
  readonly #retention: TraceRetention;

  private constructor(client: RedisClient, keys: RedisTraceKeys, retention: TraceRetention) {
    this.#client = client;
    this.#keys = keys;
    this.#retention = retention;
  }

  static async connect(options: RedisTraceStoreOptions): Promise<RedisTraceStore> {
    const keys = redisTraceKeys(options.keyPrefix, options.agentId);
    const client: RedisClient = createClient({
      url: options.url,
      // Traces are best effort: a write while disconnected fails at once instead of piling up in memory.
      disableOfflineQueue: true,
      socket: {
        connectTimeout: options.connectTimeoutMs ?? 2000,
        reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 1000),
      },
    });
    // Without a listener an 'error' would crash the process; failed commands still reject to the caller.
    client.on("error", () => {});
    await client.connect();
    return new RedisTraceStore(client, keys, options.retention);
  }

  async append(trace: RunTraceV1, now: number): Promise<void> {
    const { counter, order, started, body } = this.#keys;
    await runScript(this.#client, APPEND_TRACE, [counter, order, started, body], [
      trace.runId,
      trace.startedAt,
      JSON.stringify(trace),
      retentionCutoff(this.#retention, now),
      this.#retention.keepRuns,
    ]);
  }

  async list(query: TraceQuery, now: number): Promise<RunTraceV1[]> {
    const cutoff = retentionCutoff(this.#retention, now);
    const from = Math.max(cutoff, query.since ?? cutoff);
    const until = query.until !== undefined ? `(${query.until}` : "+inf";
    const ids = await this.#client.zRangeByScore(this.#keys.started, from, until);
    if (ids.length === 0) return [];
    const bodies = await this.#client.hmGet(this.#keys.body, ids);
    const traces = bodies
      .filter((text): text is string => typeof text === "string")
      .map((text) => JSON.parse(text) as RunTraceV1)
      .filter((trace) => matchesTraceQuery(trace, query, cutoff));
    return newestWithinLimit(traces, query.limit);
  }

  async count(now: number): Promise<number> {
    return this.#client.zCount(this.#keys.started, retentionCutoff(this.#retention, now), "+inf");
  }

  async close(): Promise<void> {
    if (this.#client.isOpen) await this.#client.quit();
  }
}
