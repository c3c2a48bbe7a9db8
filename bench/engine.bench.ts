/**
 * Engine decision cost: a full `runWith` (selection, chain, availability, ordering, pin, attempt, success
 * recording) on the memory store with an attempt that answers at once, so only Detour's own work is timed.
 * Also the cost of one failover step (a 429 on the first profile, answered by the second).
 */
import { performance } from "node:perf_hooks";
import { createDetour } from "../src/engine/create-detour.js";
import { UpstreamFailure } from "../src/ports/provider.js";
import { MemoryStateStore } from "../src/state/memory/memory-store.js";

const RUNS = Number(process.env.BENCH_ENGINE_RUNS ?? 20_000);
const ROUNDS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export async function benchEngine(): Promise<void> {
  const store = new MemoryStateStore();
  for (const name of ["a", "b", "c"]) {
    await store.upsertProfile({ id: `openai:${name}`, credential: { type: "api_key", provider: "openai", key: `sk-${name}` } });
  }
  const detour = await createDetour({
    config: { agents: { defaults: { model: { primary: "openai/gpt-bench", fallbacks: ["anthropic/claude-bench"] } } } },
    store,
    env: {},
  });
  const ok = async () => "ok";
  let fail = true;
  // Alternates: even runs fail once with a 429 on the first profile tried, so each measures one rotation.
  const failingOnce = async () => {
    fail = !fail;
    if (!fail) throw new UpstreamFailure("429 Too Many Requests", { status: 429, provider: "openai" });
    return "ok";
  };

  const healthy: number[] = [];
  const rotating: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    let start = performance.now();
    for (let i = 0; i < RUNS; i += 1) await detour.runWith({ sessionKey: `s${i % 64}`, attempt: ok });
    healthy.push(((performance.now() - start) * 1000) / RUNS);

    // Reset windows so every rotation run starts from usable profiles.
    for (const name of ["a", "b", "c"]) await store.resetUsageStats(`openai:${name}`);
    start = performance.now();
    const rotationRuns = Math.floor(RUNS / 10);
    for (let i = 0; i < rotationRuns; i += 1) {
      await detour.runWith({ attempt: failingOnce });
      for (const name of ["a", "b", "c"]) await store.resetUsageStats(`openai:${name}`);
    }
    rotating.push(((performance.now() - start) * 1000) / rotationRuns);
  }
  await detour.close();
  console.log(`\nengine decision cost (memory store, median of ${ROUNDS} rounds)`);
  console.table({
    "healthy run (µs)": { median: median(healthy).toFixed(1) },
    "run with one rotation, incl. 3 resets (µs)": { median: median(rotating).toFixed(1) },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchEngine();
}
