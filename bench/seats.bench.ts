/**
 * `npm run bench:seats`: what seat bookkeeping (R-PO-8) costs per attempt. Target: ≤ 5 % of the gateway's
 * CPU per request.
 *
 * 1. The engine's healthy run with and without `maxConcurrent` on every profile (memory seats): the whole
 *    added decision work (limit lookup, take, release, the waiting line's wake-up), CPU µs per run.
 * 2. One attempt's seat on each backend — take (a Lua script on Redis, a write transaction on SQLite) and
 *    release — CPU µs of this process and wall µs, so the share of a gateway request can be read off.
 * Runs with no limit configured never touch the seats store; (1) measures that path too.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createDetour } from "../src/engine/create-detour.js";
import type { SeatsStore } from "../src/ports/seats-store.js";
import { systemClock } from "../src/ports/system-clock.js";
import { SeatKeeper } from "../src/runner/seat-keeper.js";
import { SeatQueue } from "../src/runner/seat-queue.js";
import { MemorySeats } from "../src/state/memory/memory-seats.js";
import { MemoryStateStore } from "../src/state/memory/memory-store.js";
import { RedisSeats } from "../src/state/redis/redis-seats.js";
import { SqliteSeats } from "../src/state/sqlite/sqlite-seats.js";
import { LOCAL_REDIS_URL, localRedisAnswers } from "./local-redis.js";

const RUNS = Number(process.env.BENCH_SEATS_RUNS ?? 20_000);
const ROUNDS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function cpuUs(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

async function engineRuns(limit: number | undefined): Promise<{ cpu: number[]; wall: number[] }> {
  const store = new MemoryStateStore();
  const names = ["a", "b", "c"];
  for (const name of names) {
    await store.upsertProfile({ id: `openai:${name}`, credential: { type: "api_key", provider: "openai", key: `sk-${name}` } });
  }
  const profiles = Object.fromEntries(
    names.map((name) => [`openai:${name}`, { provider: "openai", mode: "api_key" as const, ...(limit ? { maxConcurrent: limit } : {}) }]),
  );
  const detour = await createDetour({
    config: { auth: { profiles }, agents: { defaults: { model: { primary: "openai/gpt-bench", fallbacks: [] } } } },
    store,
    env: {},
  });
  const ok = async () => "ok";
  for (let i = 0; i < 2000; i += 1) await detour.runWith({ sessionKey: `s${i % 64}`, attempt: ok });
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const startCpu = cpuUs();
    const start = performance.now();
    for (let i = 0; i < RUNS; i += 1) await detour.runWith({ sessionKey: `s${i % 64}`, attempt: ok });
    wall.push(((performance.now() - start) * 1000) / RUNS);
    cpu.push((cpuUs() - startCpu) / RUNS);
  }
  await detour.close();
  return { cpu, wall };
}

async function seatOps(store: SeatsStore, runs: number): Promise<{ cpu: number; wall: number }> {
  const keeper = new SeatKeeper({
    clock: systemClock,
    queue: new SeatQueue(systemClock, { max: 10, timeoutMs: 30_000 }),
    store: async () => store,
    configuredLimit: () => 4,
  });
  for (let i = 0; i < 500; i += 1) {
    const take = await keeper.take("openai:bench", "openai");
    if (take.kind === "held") take.hold.release();
  }
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const startCpu = cpuUs();
    const start = performance.now();
    for (let i = 0; i < runs; i += 1) {
      const take = await keeper.take("openai:bench", "openai");
      if (take.kind !== "held") throw new Error("the bench profile should never be full");
      take.hold.release();
      // The release runs in the background, as it does after a real attempt; wait for it so rounds stay honest.
      await store.inFlight([], 0);
    }
    wall.push(((performance.now() - start) * 1000) / runs);
    cpu.push((cpuUs() - startCpu) / runs);
  }
  await keeper.close();
  return { cpu: median(cpu), wall: median(wall) };
}

export async function benchSeats(): Promise<void> {
  const without = await engineRuns(undefined);
  const withSeats = await engineRuns(4);
  console.log(`\nseat bookkeeping (median of ${ROUNDS} rounds)`);
  console.table({
    "engine healthy run, no limit (µs CPU)": { median: median(without.cpu).toFixed(1), wall: median(without.wall).toFixed(1) },
    "engine healthy run, maxConcurrent 4, memory seats (µs CPU)": {
      median: median(withSeats.cpu).toFixed(1),
      wall: median(withSeats.wall).toFixed(1),
    },
  });

  const rows: Record<string, { cpuUs: string; wallUs: string }> = {};
  const memory = await seatOps(new MemorySeats(), RUNS);
  rows["memory: take + release"] = { cpuUs: memory.cpu.toFixed(1), wallUs: memory.wall.toFixed(1) };
  const directory = mkdtempSync(join(tmpdir(), "detour-seats-bench-"));
  try {
    const sqlite = await seatOps(SqliteSeats.open(join(directory, "state.sqlite")), Math.floor(RUNS / 4));
    rows["sqlite: take + release"] = { cpuUs: sqlite.cpu.toFixed(1), wallUs: sqlite.wall.toFixed(1) };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  if (await localRedisAnswers()) {
    const prefix = `detour-bench-seats-${process.pid}`;
    const redis = await seatOps(
      await RedisSeats.connect({ url: LOCAL_REDIS_URL, keyPrefix: prefix, agentId: "main" }),
      Math.floor(RUNS / 4),
    );
    rows["redis: take + release"] = { cpuUs: redis.cpu.toFixed(1), wallUs: redis.wall.toFixed(1) };
  } else {
    console.log("(no Redis on 127.0.0.1:6379: the Redis row is left out)");
  }
  console.table(rows);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchSeats();
}
