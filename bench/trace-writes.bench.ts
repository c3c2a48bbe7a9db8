/**
 * What recording run traces costs (R-OB-4 target: at most 3 % of the gateway's CPU per request).
 *
 * 1. The same gateway twice — run traces on and off (`createDetour({ recordTraces })`, SQLite store, the
 *    production logger) — each in its own process pinned to the same core, driven in interleaved reps by this
 *    process against one canned upstream on another core. CPU per request is the gateway process's own CPU time
 *    (/proc/<pid>/stat) over the requests it answered; the figure is the median over the reps. Plain and
 *    streamed chat completions.
 * 2. Where the recording gateway's CPU goes: a third gateway, traces on, under a V8 CPU profile (sampled every
 *    100 µs) through the same load; the share of its busy samples whose stack passes through the trace code
 *    (the recorder, the trace builder, the SQLite trace store, the session-key hash they call). This is the
 *    steady figure on a busy machine, where the on/off difference of (1) moves with the neighbours' load.
 * 3. The recorder alone, in this process: the events of one real run replayed through a TraceRecorder into a
 *    real SQLite trace store, N times, one run per turn of the event loop — written in batches (as the gateway
 *    does: the runs of up to 200 ms, at most 200, in one transaction) and one transaction per run (how traces
 *    were written before batching) — as CPU microseconds per run.
 *
 *   npm run bench:traces                                 8 reps of 3 s per mode and request kind
 *   BENCH_SHORT=1 …                                      1 rep of 2 s, for development
 *   BENCH_REPS=<n> BENCH_DURATION_SECONDS=<s>            more reps or longer ones on a noisy machine
 *   BENCH_ONLY=profile                                   only the profile share (2)
 *   BENCH_CPU_PROF_DIR=<dir>                             keeps the recording gateway's profile there (gateway.cpuprofile)
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DetourConfigInput } from "../src/config/index.js";
import { createDetour } from "../src/engine/create-detour.js";
import { TraceRecorder } from "../src/engine/trace-recorder.js";
import type { DetourEvent } from "../src/ports/events.js";
import { systemClock } from "../src/ports/system-clock.js";
import { SqliteTraceStore } from "../src/state/sqlite/sqlite-trace-store.js";
import { closedLoop, cpuMs, median, startChild } from "./floor.bench.js";
import setup from "./gateway-setup.json" with { type: "json" };
import { plainChildren } from "./plain-children.js";

const SHORT = process.env.BENCH_SHORT === "1";
const REPS = Number(process.env.BENCH_REPS ?? (SHORT ? 1 : 8));
const DURATION_MS = Number(process.env.BENCH_DURATION_SECONDS ?? (SHORT ? 2 : 3)) * 1000;
/** Load before anything is measured, per gateway and request kind: JIT, connection pools, the SQLite file. */
const WARM_MS = SHORT ? 1000 : 6000;
const GATEWAY_CORE = process.env.BENCH_CORE ?? "1";
const UPSTREAM_CORE = process.env.BENCH_UPSTREAM_CORE ?? "0";
const CONNECTIONS = 10;
const RECORDER_RUNS = SHORT ? 5_000 : 20_000;

const chat = (stream: boolean) => ({
  path: "/v1/chat/completions",
  body: JSON.stringify({ model: "openai/bench-gpt", ...(stream ? { stream: true } : {}), messages: [{ role: "user", content: "hello" }] }),
});

interface ModeFigures {
  cpuUsPerRequest: number[];
  requestsPerSecond: number[];
}

async function gatewayShare(upstreamUrl: string): Promise<void> {
  const on = await startChild("./trace-gateway.child.ts", [upstreamUrl, "on"], GATEWAY_CORE);
  const off = await startChild("./trace-gateway.child.ts", [upstreamUrl, "off"], GATEWAY_CORE);
  try {
    const rows: Record<string, Record<string, string | number>> = {};
    for (const [kind, request] of [
      ["plain", chat(false)],
      ["streamed", chat(true)],
    ] as const) {
      await closedLoop(on.url, request, CONNECTIONS, WARM_MS);
      await closedLoop(off.url, request, CONNECTIONS, WARM_MS);
      const figures = {
        on: { cpuUsPerRequest: [], requestsPerSecond: [] } as ModeFigures,
        off: { cpuUsPerRequest: [], requestsPerSecond: [] } as ModeFigures,
      };
      for (let rep = 0; rep < REPS; rep += 1) {
        // Alternate which goes first, so a drift of the machine's load weighs on both alike.
        const order = rep % 2 === 0 ? (["off", "on"] as const) : (["on", "off"] as const);
        for (const mode of order) {
          const target = mode === "on" ? on : off;
          const before = cpuMs(target.pid);
          const load = await closedLoop(target.url, request, CONNECTIONS, DURATION_MS);
          const cpu = cpuMs(target.pid) - before;
          if (load.failures > 0) throw new Error(`the ${mode} gateway failed ${load.failures} requests`);
          figures[mode].cpuUsPerRequest.push((cpu * 1000) / Math.max(1, load.requests));
          figures[mode].requestsPerSecond.push(load.requests / load.seconds);
        }
      }
      const cpuOn = median(figures.on.cpuUsPerRequest);
      const cpuOff = median(figures.off.cpuUsPerRequest);
      // The least disturbed rep of each: on a shared machine the neighbours only ever add CPU time.
      const minOn = Math.min(...figures.on.cpuUsPerRequest);
      const minOff = Math.min(...figures.off.cpuUsPerRequest);
      rows[kind] = {
        "CPU µs/req, traces off": Math.round(cpuOff),
        "CPU µs/req, traces on": Math.round(cpuOn),
        "difference µs": Math.round(cpuOn - cpuOff),
        "share of gateway CPU": `${(((cpuOn - cpuOff) / cpuOff) * 100).toFixed(1)} %`,
        "best rep off · on": `${Math.round(minOff)} · ${Math.round(minOn)} (${(((minOn - minOff) / minOff) * 100).toFixed(1)} %)`,
        "req/s off": Math.round(median(figures.off.requestsPerSecond)),
        "req/s on": Math.round(median(figures.on.requestsPerSecond)),
        "reps (on)": figures.on.cpuUsPerRequest.map((value) => Math.round(value)).join(" "),
        "reps (off)": figures.off.cpuUsPerRequest.map((value) => Math.round(value)).join(" "),
      };
    }
    // The "on" gateway did record, the "off" one did not: the comparison measures what it claims to.
    const recorded = async (url: string) =>
      ((await (await fetch(`${url}/admin/runs?limit=200`)).json()) as { runs: unknown[] }).runs.length;
    const [recordedOn, recordedOff] = [await recorded(on.url), await recorded(off.url)];
    if (recordedOn === 0 || recordedOff !== 0) throw new Error(`traces recorded: on ${recordedOn}, off ${recordedOff}`);
    console.log(
      `\nrun traces on vs off: the gateway's own CPU per request (${REPS} reps × ${DURATION_MS / 1000} s, ${CONNECTIONS} connections, SQLite store, median)`,
    );
    console.table(rows);
  } finally {
    await on.close();
    await off.close();
  }
}

/** The events of one real run (a chat completion through the engine to the bench upstream), in order. */
async function eventsOfOneRun(upstreamUrl: string): Promise<DetourEvent[]> {
  const providers = Object.fromEntries(
    Object.entries(setup.config.models.providers).map(([id, provider]) => [
      id,
      { ...provider, baseUrl: `${upstreamUrl}${provider.baseUrl}` },
    ]),
  );
  const config = { ...setup.config, models: { providers }, state: { backend: "memory" } } as DetourConfigInput;
  const detour = await createDetour({ config, env: setup.env, recordTraces: false });
  const events: DetourEvent[] = [];
  try {
    await detour.run({
      request: { messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }] },
      sessionKey: "bench-session",
    });
    const off = detour.on("*", (event) => events.push(event));
    await detour.run({
      request: { messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }] },
      sessionKey: "bench-session",
    });
    off();
  } finally {
    await detour.close();
  }
  if (!events.some((event) => event.type === "run_finished")) throw new Error("the sample run reported no run_finished");
  return events;
}

function withRunId(events: readonly DetourEvent[], runId: string): DetourEvent[] {
  return events.map((event) => ("runId" in event && event.runId !== null ? ({ ...event, runId } as DetourEvent) : event));
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** CPU µs per run of feeding `runs` runs (in bursts of `perTurn` per event-loop turn) to `listener`, then `done`. */
async function cpuPerRun(
  runs: readonly DetourEvent[][],
  perTurn: number,
  listener: ((event: DetourEvent) => void) | undefined,
  done: () => Promise<void>,
): Promise<number> {
  const before = process.cpuUsage();
  for (let index = 0; index < runs.length; index += 1) {
    if (listener) for (const event of runs[index]!) listener(event);
    if (index % perTurn === perTurn - 1) await nextTurn();
  }
  await done();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / runs.length;
}

async function recorderAlone(upstreamUrl: string): Promise<void> {
  const sample = await eventsOfOneRun(upstreamUrl);
  const dir = mkdtempSync(join(tmpdir(), "detour-bench-recorder-"));
  const rows: Record<string, Record<string, string | number>> = {};
  try {
    const measure = async (name: string, perTurn: number, limits: { maxBatch?: number; flushMs?: number }) => {
      const store = SqliteTraceStore.open({
        path: join(dir, `${name.replace(/\W+/g, "-")}.sqlite`),
        retention: { keepRuns: 10_000, keepHours: 24 },
      });
      const recorder = new TraceRecorder({ clock: systemClock, logger: { log() {} }, storeFor: async () => store, ...limits });
      // Fresh run ids made beforehand, so only the recorder's work is inside the measurement.
      const warm = Array.from({ length: 2000 }, (_, index) => withRunId(sample, `warm-${name}-${index}`));
      await cpuPerRun(warm, perTurn, recorder.onEvent, () => recorder.flush());
      const runs = Array.from({ length: RECORDER_RUNS }, (_, index) => withRunId(sample, `${name}-${index}`));
      const empty = await cpuPerRun(runs, perTurn, undefined, async () => {});
      const used = await cpuPerRun(runs, perTurn, recorder.onEvent, () => recorder.flush());
      const stats = recorder.stats();
      await store.close();
      if (stats.dropped > 0) throw new Error(`${name}: ${stats.dropped} traces dropped`);
      rows[name] = { "CPU µs per run": Number((used - empty).toFixed(1)), "runs per turn": perTurn, "runs written": stats.written };
    };
    await measure("batched (as the gateway writes)", 1, {});
    await measure("one transaction per run (before batching)", 1, { maxBatch: 1, flushMs: 0 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `\nthe trace recorder alone: ${RECORDER_RUNS} runs of ${sample.length} events each into a SQLite trace store (this process's CPU)`,
  );
  console.table(rows);
}

/** Files whose functions are the trace writing: a sample with one of them on its stack is trace work. */
const TRACE_CODE = [
  "/src/engine/trace-recorder.ts",
  "/src/runner/run-trace-builder.ts",
  "/src/state/sqlite/sqlite-trace-store.ts",
  "/src/ports/trace-store.ts",
  "/src/engine/run-traces.ts",
];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** Share of the profile's busy samples (all but idle) with trace code anywhere on their stack. */
function traceShareOfProfile(path: string): { share: number; busySamples: number } {
  const profile = JSON.parse(readFileSync(path, "utf8")) as { nodes: ProfileNode[]; samples: number[] };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const tracing = new Map<number, boolean>();
  const isTrace = (id: number): boolean => {
    const known = tracing.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id)!;
    const above = parent.get(id);
    const result = TRACE_CODE.some((file) => node.callFrame.url.endsWith(file)) || (above !== undefined && isTrace(above));
    tracing.set(id, result);
    return result;
  };
  let busy = 0;
  let trace = 0;
  for (const id of profile.samples) {
    if (byId.get(id)!.callFrame.functionName === "(idle)") continue;
    busy += 1;
    if (isTrace(id)) trace += 1;
  }
  return { share: trace / Math.max(1, busy), busySamples: busy };
}

/** The recording gateway with a profiler it starts and stops on command (bench/trace-gateway.child.ts). */
async function startProfiledGateway(upstreamUrl: string, profilePath: string) {
  const script = new URL("./trace-gateway.child.ts", import.meta.url).pathname;
  const child = spawn("taskset", ["-c", GATEWAY_CORE, process.execPath, "--import", "tsx", script, upstreamUrl, "on", profilePath], {
    stdio: ["pipe", "pipe", "ignore"],
  });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffered = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    for (let newline = buffered.indexOf("\n"); newline !== -1; newline = buffered.indexOf("\n")) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
    }
  });
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      const early = lines.shift();
      if (early !== undefined) return resolve(early);
      waiting.push(resolve);
      child.once("exit", (code) => reject(new Error(`the profiled gateway exited (code ${code})`)));
    });
  const url = await nextLine();
  return {
    url,
    async command(name: "start" | "stop", answer: string) {
      child.stdin.write(`${name}\n`);
      const line = await nextLine();
      if (line !== answer) throw new Error(`the profiled gateway answered "${line}" to ${name}`);
    },
    async close() {
      child.stdin.end();
      if (child.exitCode === null) await once(child, "exit");
    },
  };
}

async function profiledShare(upstreamUrl: string): Promise<void> {
  const kept = process.env.BENCH_CPU_PROF_DIR;
  const dir = kept ?? mkdtempSync(join(tmpdir(), "detour-bench-trace-prof-"));
  const path = join(dir, "gateway.cpuprofile");
  try {
    const gateway = await startProfiledGateway(upstreamUrl, path);
    let requests = 0;
    try {
      for (const request of [chat(false), chat(true)]) await closedLoop(gateway.url, request, CONNECTIONS, WARM_MS);
      // Only the measured load is profiled: start-up, module loading and warm-up are not the gateway's per-request work.
      await gateway.command("start", "started");
      for (const request of [chat(false), chat(true)])
        requests += (await closedLoop(gateway.url, request, CONNECTIONS, DURATION_MS * 2)).requests;
      await gateway.command("stop", "stopped");
    } finally {
      await gateway.close();
    }
    const { share, busySamples } = traceShareOfProfile(path);
    console.log(
      `\ntrace writing in a recording gateway's CPU profile (plain then streamed, ${requests} requests, ${busySamples} busy samples): ` +
        `${(share * 100).toFixed(2)} % of its CPU`,
    );
  } finally {
    if (!kept) rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchTraceWrites(): Promise<void> {
  const [upstreamScript] = plainChildren(["upstream.child.ts"]) as [string];
  const upstream = await startChild(upstreamScript, [], UPSTREAM_CORE);
  try {
    if (process.env.BENCH_ONLY !== "profile") await gatewayShare(upstream.url);
    await profiledShare(upstream.url);
    if (process.env.BENCH_ONLY !== "profile") await recorderAlone(upstream.url);
  } finally {
    await upstream.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchTraceWrites();
}
