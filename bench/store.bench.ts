/**
 * `npm run bench:store`: per-operation cost of the state backends (SPEC §16), median of several rounds.
 *
 * "run read" is what one run reads before its first attempt: the stored profiles, the provider's stored
 * order, every profile's usage stats and the session. Target: ≤ 20 µs on sqlite. recordSuccess is measured
 * on a healthy profile, the steady state of the success path (batched `lastUsed`, no disk write per call).
 * Every operation starts in its own event-loop turn, as a run does; the cost of the turn is subtracted.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_COOLDOWNS } from "../src/config/defaults.js";
import type { CooldownSettings } from "../src/core/types.js";
import type { StateStore } from "../src/ports/state-store.js";
import { RedisStateStore } from "../src/state/redis/redis-store.js";
import { SecretBox } from "../src/state/secrets.js";
import { SqliteStateStore } from "../src/state/sqlite/sqlite-store.js";
import { LOCAL_REDIS_URL, localRedisAnswers } from "./local-redis.js";

const ROUNDS = 7;

const cooldowns: CooldownSettings = DEFAULT_COOLDOWNS;

const PROFILES = ["openai:a", "openai:b", "openai:c", "openai:d"];
let clock = Date.UTC(2025, 0, 15);
const tick = () => (clock += 1);

async function seed(store: StateStore): Promise<void> {
  for (const id of PROFILES) {
    await store.upsertProfile({ id, credential: { type: "api_key", provider: "openai", key: `sk-bench-${id}` } });
    await store.recordSuccess(id, { provider: "openai", now: tick() });
  }
  await store.setStoredOrder("openai", PROFILES);
  await store.patchSession("bench-session", { modelOverride: "gpt-4o", modelOverrideSource: "auto" });
}

const operations: Record<string, (store: StateStore, index: number) => Promise<unknown>> = {
  "run read": async (store) => {
    await store.listProfiles();
    await store.getStoredOrder("openai");
    await store.getAllUsageStats();
    await store.getSession("bench-session");
  },
  recordFailure: (store, index) =>
    store.recordFailure(`openai:failing-${index % 8}`, { reason: "overloaded", provider: "openai", now: tick(), cooldowns }),
  recordSuccess: (store) => store.recordSuccess("openai:a", { provider: "openai", now: tick() }),
  "session CAS": (store, index) =>
    store.compareAndSetSession("bench-cas", [
      { field: "modelOverride", expected: index === 0 ? undefined : `m-${index - 1}`, value: `m-${index}` },
    ]),
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Resolves in a later turn of the event loop: how a real run starts (a request, a timer). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Median over rounds of the mean µs per operation within a round. Each operation starts in its own
 * event-loop turn, as a run does in the gateway, so per-turn work (the SQLite store's one freshness check
 * per turn, batched lastUsed flushes) is paid by every operation; the cost of the turn itself is measured
 * alone and subtracted.
 */
async function measure(
  store: StateStore,
  operation: (store: StateStore, index: number) => Promise<unknown>,
  perRound: number,
): Promise<number> {
  let index = 0;
  for (let warm = 0; warm < Math.min(200, perRound); warm += 1) {
    await nextTurn();
    await operation(store, index++);
  }
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const start = process.hrtime.bigint();
    for (let call = 0; call < perRound; call += 1) {
      await nextTurn();
      await operation(store, index++);
    }
    rounds.push(Number(process.hrtime.bigint() - start) / 1000 / perRound);
  }
  return median(rounds);
}

/** µs of one empty event-loop turn, subtracted from every measurement. */
async function turnCost(perRound: number): Promise<number> {
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const start = process.hrtime.bigint();
    for (let call = 0; call < perRound; call += 1) await nextTurn();
    rounds.push(Number(process.hrtime.bigint() - start) / 1000 / perRound);
  }
  return median(rounds);
}

async function bench(name: string, store: StateStore, perRound: number): Promise<void> {
  await seed(store);
  const turn = await turnCost(perRound);
  for (const [label, operation] of Object.entries(operations)) {
    const micros = Math.max(0, (await measure(store, operation, perRound)) - turn);
    console.log(`${name.padEnd(7)} ${label.padEnd(14)} ${micros.toFixed(1).padStart(9)} µs/op (median of ${ROUNDS} rounds × ${perRound})`);
  }
  await store.close();
}

const secretKey = { key: randomBytes(32), source: "bench" };
const directory = mkdtempSync(join(tmpdir(), "detour-bench-"));
try {
  const path = join(directory, "detour-agent.sqlite");
  await bench("sqlite", SqliteStateStore.open({ path, secrets: new SecretBox(secretKey, path) }), 2000);
  if (await localRedisAnswers()) {
    const keyPrefix = `detour-bench-${randomBytes(4).toString("hex")}`;
    const store = await RedisStateStore.connect({ url: LOCAL_REDIS_URL, keyPrefix, agentId: "main", secretKey });
    await bench("redis", store, 300);
    const { createClient } = await import("@redis/client");
    const client = createClient({ url: LOCAL_REDIS_URL });
    await client.connect();
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${keyPrefix}:*` })) keys.push(...batch);
    if (keys.length > 0) await client.del(keys);
    client.destroy();
  } else {
    console.log("redis   skipped: no Redis answers on 127.0.0.1:6379");
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
