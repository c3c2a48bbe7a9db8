/**
 * `npm run bench:one-key`: one key and no fallback through Detour against the client calling the provider
 * directly (SPEC R-FB-9), under seeded random faults — 429 with and without `Retry-After`, 500s, 529s — plus
 * the fallback row trust-once (R-CD-6) is for. Prints a Markdown table (docs/operations.md keeps one).
 * Knobs: BENCH_ONE_KEY_RATE (requests/s, default 20), BENCH_ONE_KEY_SECONDS (default 10),
 * BENCH_ONE_KEY_CLIENT_TIMEOUT_SECONDS (each request's deadline, default 30). Loopback only.
 */
import {
  FALLBACK_SCENARIO,
  ONE_KEY_SCENARIOS,
  measureDetour,
  measureDirect,
  type TrafficOptions,
  type TrafficResult,
} from "./one-key-traffic.js";

const options: TrafficOptions = {
  ratePerSecond: Number(process.env.BENCH_ONE_KEY_RATE ?? 20),
  durationMs: Number(process.env.BENCH_ONE_KEY_SECONDS ?? 10) * 1000,
  clientTimeoutMs: Number(process.env.BENCH_ONE_KEY_CLIENT_TIMEOUT_SECONDS ?? 30) * 1000,
};

const percent = (result: TrafficResult) => `${((100 * result.answered) / result.requests).toFixed(1)} %`;
const perRequest = (result: TrafficResult) => (result.upstreamCalls / result.requests).toFixed(2);
const latency = (result: TrafficResult) => `${result.p50Ms} / ${result.maxMs}`;

// Warm-up (module loading, JIT) so that the first row's latencies are not the process's start-up.
const warmUp = { ratePerSecond: 10, durationMs: 1000, clientTimeoutMs: options.clientTimeoutMs };
await measureDetour({ name: "healthy", seed: 0, steps: ["ok"] }, warmUp);

console.log(
  `One key, no fallback: ${options.ratePerSecond} requests/s for ${options.durationMs / 1000} s, ` +
    `client deadline ${options.clientTimeoutMs / 1000} s, seeded faults.\n`,
);
console.log("| faults | direct answered | Detour answered | direct calls/request | Detour calls/request | Detour p50 / max ms |");
console.log("|---|---|---|---|---|---|");
for (const scenario of ONE_KEY_SCENARIOS) {
  const direct = await measureDirect(scenario, options);
  const detour = await measureDetour(scenario, options);
  console.log(
    `| ${scenario.name} | ${percent(direct)} | ${percent(detour)} | ${perRequest(direct)} | ${perRequest(detour)} | ${latency(detour)} |`,
  );
}
const fallback = await measureDetour(FALLBACK_SCENARIO, options);
console.log(`| ${FALLBACK_SCENARIO.name} | — | ${percent(fallback)} | — | ${perRequest(fallback)} | ${latency(fallback)} |`);
