/**
 * `npm run bench:replay`: replays 10 000 recorded runs against two configs (the one that recorded them and
 * one with a fallback) and prints how long it took; the target is 10 s on the project machine (R-OB-5).
 * The trace is the 429-storm drill stretched to 10 000 runs, so most runs fail over or wait.
 */
import { performance } from "node:perf_hooks";
import { parseConfig } from "../src/config/index.js";
import { DRILL_START_MS, DRILLS, drillTarget, drillTraces, replayTraces } from "../src/engine/replay/index.js";

const RUNS = Number(process.env.BENCH_REPLAY_RUNS ?? 10_000);
const TARGET_MS = 10_000;

export async function benchReplay(): Promise<void> {
  const recording = parseConfig(
    { agents: { defaults: { model: { primary: "anthropic/claude-sonnet-4-6" } } }, state: { backend: "memory" } },
    "A",
  ).config;
  const withFallback = parseConfig(
    {
      agents: { defaults: { model: { primary: "anthropic/claude-sonnet-4-6", fallbacks: ["openai/gpt-5"] } } },
      state: { backend: "memory" },
    },
    "B",
  ).config;
  const storm = DRILLS.find((drill) => drill.name === "rate-limit-storm")!;
  // 10 000 runs in the drill's 30 minutes: one every 180 ms, the storm from minute 2 to 27.
  const everySeconds = (storm.minutes * 60) / RUNS;
  const traces = drillTraces({ ...storm, everySeconds }, drillTarget(recording), DRILL_START_MS);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const reports = [];
  for (const [name, config] of [
    ["A (recorded)", recording],
    ["B (+ fallback)", withFallback],
  ] as const) {
    reports.push((await replayTraces({ name, config, traces })).report);
  }
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  for (const report of reports)
    console.log(`  ${report.name}: ${report.answered}/${report.runs} answered, ${report.upstreamCalls} upstream calls`);
  // CPU time as well as wall time: on a shared machine the wall time says more about the neighbours.
  console.log(
    `replay: ${traces.length} runs × 2 configs in ${(elapsedMs / 1000).toFixed(2)} s wall, ${(cpuMs / 1000).toFixed(2)} s CPU (target ≤ ${TARGET_MS / 1000} s)${elapsedMs > TARGET_MS ? "  OVER TARGET (wall)" : ""}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchReplay();
