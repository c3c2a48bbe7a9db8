/**
 * Run traces on Redis (R-OB-4), shared by every replica of an agent. Three keys under the agent's hash tag:
 * `traces:order` (run id scored by a write counter: recording order), `traces:started` (run id scored by
 * start time: the age bound and time-range reads) and `traces:body` (run id → trace JSON). One script
 * writes a trace and drops what the ring no longer keeps, so concurrent replicas never leave it over bound.
 */
import type { RunTraceV1 } from "../../core/run-trace.js";
import { matchesTraceQuery, retentionCutoff, type TraceQuery, type TraceRetention, type TraceStore } from "../../ports/trace-store.js";
import { assertSafeAgentId } from "../shared/agent-id.js";
import { newestWithinLimit } from "../traces/trace-order.js";
import { type LuaScript, runScript } from "./lua-scripts.js";
import { connectBestEffortRedis, type RedisClient } from "./redis-connection.js";
import { createHash } from "node:crypto";

/**
 * KEYS: counter, order, started, body. ARGV: cutoff (epoch ms), keepRuns, then per trace: runId, startedAt,
 * body JSON. A batch of runs is one script call: one round trip, and the ring is pruned once.
 */
const APPEND_TRACES_SOURCE = `
local function drop(id)
  redis.call('ZREM', KEYS[2], id)
  redis.call('ZREM', KEYS[3], id)
  redis.call('HDEL', KEYS[4], id)
end
for i = 3, #ARGV, 3 do
  local seq = redis.call('INCR', KEYS[1])
  redis.call('ZADD', KEYS[2], seq, ARGV[i])
  redis.call('ZADD', KEYS[3], ARGV[i + 1], ARGV[i])
  redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 2])
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', '(' .. ARGV[1])) do drop(id) end
local surplus = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[2])
if surplus > 0 then
  for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, surplus - 1)) do drop(id) end
end
return 1
`;
const APPEND_TRACES: LuaScript = {
  name: "append-run-traces",
  source: APPEND_TRACES_SOURCE,
  sha1: createHash("sha1").update(APPEND_TRACES_SOURCE).digest("hex"),
};

/** Run ids read per page when a limited list is read newest first. */
const NEWEST_PAGE = 200;

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
    const client = await connectBestEffortRedis(options);
    return new RedisTraceStore(client, keys, options.retention);
  }

  async append(trace: RunTraceV1, now: number): Promise<void> {
    await this.appendMany([trace], now);
  }

  async appendMany(traces: readonly RunTraceV1[], now: number): Promise<void> {
    if (traces.length === 0) return;
    const { counter, order, started, body } = this.#keys;
    const args: (string | number)[] = [retentionCutoff(this.#retention, now), this.#retention.keepRuns];
    for (const trace of traces) args.push(trace.runId, trace.startedAt, JSON.stringify(trace));
    await runScript(this.#client, APPEND_TRACES, [counter, order, started, body], args);
  }

  async list(query: TraceQuery, now: number): Promise<RunTraceV1[]> {
    const cutoff = retentionCutoff(this.#retention, now);
    const from = Math.max(cutoff, query.since ?? cutoff);
    const until = query.until !== undefined ? `(${query.until}` : "+inf";
    if (query.limit !== undefined) return this.#newest(query, cutoff, from, until, query.limit);
    const ids = await this.#client.zRangeByScore(this.#keys.started, from, until);
    if (ids.length === 0) return [];
    const bodies = await this.#client.hmGet(this.#keys.body, ids);
    const traces = bodies
      .filter((text): text is string => typeof text === "string")
      .map((text) => JSON.parse(text) as RunTraceV1)
      .filter((trace) => matchesTraceQuery(trace, query, cutoff));
    return newestWithinLimit(traces, query.limit);
  }

  /** Newest first, a page of ids at a time, until `limit` runs match: a page of recent runs reads only that. */
  async #newest(query: TraceQuery, cutoff: number, from: number, until: string, limit: number): Promise<RunTraceV1[]> {
    const newest: RunTraceV1[] = [];
    for (let offset = 0; newest.length < limit; offset += NEWEST_PAGE) {
      const ids = await this.#client.zRange(this.#keys.started, until, from, {
        BY: "SCORE",
        REV: true,
        LIMIT: { offset, count: NEWEST_PAGE },
      });
      if (ids.length === 0) break;
      const bodies = await this.#client.hmGet(this.#keys.body, ids);
      for (const text of bodies) {
        if (typeof text !== "string") continue;
        const trace = JSON.parse(text) as RunTraceV1;
        if (!matchesTraceQuery(trace, query, cutoff)) continue;
        newest.push(trace);
        if (newest.length >= limit) break;
      }
      if (ids.length < NEWEST_PAGE) break;
    }
    // Equal start times come back in member order; the shared order sorts them the way every store lists.
    return newestWithinLimit(newest, limit);
  }

  async count(now: number): Promise<number> {
    return this.#client.zCount(this.#keys.started, retentionCutoff(this.#retention, now), "+inf");
  }

  async close(): Promise<void> {
    if (this.#client.isOpen) await this.#client.quit();
  }
}
