/**
 * Detour against the floor: the gateway and a minimal `node:http` + undici pass-through proxy
 * (bench/floor-proxy.child.ts), each pinned to the same core with `taskset`, driven by this process in the
 * same interleaved reps, against one mock upstream in its own process. CPU per request is the target
 * process's own CPU time (/proc/<pid>/stat) over the requests it served; added latency is the target's p50
 * (or time to first byte) minus the upstream's own, measured direct in the same rep.
 *
 * Non-streamed requests are also measured against a second floor, the assembling one
 * (bench/floor-assembled.child.ts): SPEC R-ST-6 has Detour stream a non-streamed request upstream and assemble
 * the answer (so silence is caught), which the plain pipe does not do. Its ratio shows what Detour costs
 * beyond the work the rule itself asks for.
 *
 *   npm run bench                 every benchmark; this one with 3 reps of 5 s
 *   BENCH_SHORT=1 npm run bench:floor   1 rep of 2 s, for development
 *   BENCH_CPU_PROF=1              also writes a V8 CPU profile of the gateway to bench/.profiles/
 *   BENCH_ONLY=<text>             only the scenarios whose name contains the text (e.g. "1 MB"), for development
 *   BENCH_SLOW_STREAMS=<n>        how many slow streams the many-streams scenario opens at once (1000)
 *   BENCH_SETTLE_SECONDS=<n>      how long the processes sit idle after start before their settled RSS is read (12)
 *   BENCH_GATEWAY_NODE_FLAGS=<flags>  node flags for the gateway only (e.g. "--max-semi-space-size=8"), to weigh a V8 setting
 *   BENCH_DIST=1                  the gateway from dist/ on plain node, as `detour gateway` runs it (after
 *                                 `npm run build`); by default src/ runs through tsx, whose transform costs
 *                                 a `__name` call per closure and keeps every file's source map in memory
 *   BENCH_BASELINE=<checkout>     also measures another checkout's built gateway (its dist/, after `npm run build`
 *                                 there; e.g. a `git worktree add` of the code before a change) in the same
 *                                 interleaved reps, with the same setup and columns, reported beside Detour with
 *                                 its ratios to both floors and Detour ÷ baseline
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { Pool } from "undici";
import { plainChildren } from "./plain-children.js";

const SHORT = process.env.BENCH_SHORT === "1";
const REPS = Number(process.env.BENCH_REPS ?? (SHORT ? 1 : 3));
const DURATION_MS = Number(process.env.BENCH_DURATION_SECONDS ?? (SHORT ? 2 : 5)) * 1000;
const GATEWAY_CORE = process.env.BENCH_CORE ?? "1";
const UPSTREAM_CORE = process.env.BENCH_UPSTREAM_CORE ?? "0";
const CLOCK_TICK_MS = 10;
/** How long the bench lets the started processes sit idle before it reads their settled memory. */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_SECONDS ?? 12) * 1000;
/** Measure the built dist/ gateway on plain node (needs `npm run build`) instead of src/ through tsx. */
const DIST = process.env.BENCH_DIST === "1";
/** Another checkout whose built dist/ gateway is measured as one more target (the code before a change). */
const BASELINE = process.env.BENCH_BASELINE;

interface Child {
  url: string;
  pid: number;
  close(): Promise<void>;
}

export async function startChild(script: string, args: string[], core: string, nodeFlags: string[] = []): Promise<Child> {
  const path = script.startsWith("/") ? script : new URL(script, import.meta.url).pathname;
  // Plain JavaScript (the dist/ gateway, the children of plain-children.ts) runs without tsx, exactly as
  // `detour gateway` does.
  const loader = path.endsWith(".ts") ? ["--import", "tsx"] : [];
  const child: ChildProcess = spawn("taskset", ["-c", core, process.execPath, ...nodeFlags, ...loader, path, ...args], {
    stdio: ["pipe", "pipe", "ignore"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = "";
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`${script} exited early (code ${code})`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const newline = buffered.indexOf("\n");
      if (newline !== -1) resolve(buffered.slice(0, newline).trim());
    });
  });
  return {
    url,
    pid: child.pid as number,
    async close() {
      child.stdin?.end();
      if (child.exitCode === null) await once(child, "exit");
    },
  };
}

export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
}

/**
 * Resets the process's peak RSS (VmHWM) to its current RSS (Linux `clear_refs` 5), so a scenario's peak is its
 * own and not the start-up's or an earlier scenario's; false where /proc does not allow it.
 */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

interface Request {
  path: string;
  body: string;
  /** The text a whole answer ends with: a stream that ends without it was lost (cut or failed). */
  endsWith?: string;
}

interface LoadResult {
  requests: number;
  seconds: number;
  latencies: number[];
  ttfbs: number[];
  failures: number;
}

async function send(pool: Pool, request: Request): Promise<{ ok: boolean; latencyMs: number; ttfbMs: number }> {
  const started = performance.now();
  let ttfb = Number.NaN;
  try {
    const answer = await pool.request({
      path: request.path,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: request.body,
    });
    let last: Buffer | undefined;
    for await (const chunk of answer.body as AsyncIterable<Buffer>) {
      if (Number.isNaN(ttfb)) ttfb = performance.now() - started;
      last = chunk;
    }
    const whole = request.endsWith === undefined || (last?.toString("utf8").trimEnd().endsWith(request.endsWith) ?? false);
    return { ok: answer.statusCode === 200 && whole, latencyMs: performance.now() - started, ttfbMs: ttfb };
  } catch {
    return { ok: false, latencyMs: performance.now() - started, ttfbMs: ttfb };
  }
}

export async function closedLoop(url: string, request: Request, connections: number, durationMs: number): Promise<LoadResult> {
  const pool = new Pool(url, { connections, pipelining: 1 });
  const result: LoadResult = { requests: 0, seconds: durationMs / 1000, latencies: [], ttfbs: [], failures: 0 };
  const until = performance.now() + durationMs;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const one = await send(pool, request);
        if (one.ok) result.requests += 1;
        else result.failures += 1;
      }
    }),
  );
  await pool.close();
  return result;
}

async function openLoop(url: string, request: Request, rate: number, durationMs: number): Promise<LoadResult> {
  const pool = new Pool(url, { connections: 64, pipelining: 1 });
  const result: LoadResult = { requests: 0, seconds: durationMs / 1000, latencies: [], ttfbs: [], failures: 0 };
  const interval = 1000 / rate;
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let index = 0; index < Math.round((durationMs / 1000) * rate); index += 1) {
    const due = started + index * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(
      send(pool, request).then((one) => {
        if (!one.ok) {
          result.failures += 1;
          return;
        }
        result.requests += 1;
        result.latencies.push(one.latencyMs);
        result.ttfbs.push(one.ttfbMs);
      }),
    );
  }
  await Promise.all(pending);
  await pool.close();
  return result;
}

/** `streams` requests opened at once and each read to its end: what many slow streams in flight cost. */
async function burst(url: string, request: Request, streams: number): Promise<LoadResult> {
  const pool = new Pool(url, { connections: streams, pipelining: 1 });
  const started = performance.now();
  const answers = await Promise.all(Array.from({ length: streams }, () => send(pool, request)));
  await pool.close();
  const ok = answers.filter((answer) => answer.ok);
  return {
    requests: ok.length,
    seconds: (performance.now() - started) / 1000,
    latencies: ok.map((answer) => answer.latencyMs),
    ttfbs: ok.map((answer) => answer.ttfbMs),
    failures: streams - ok.length,
  };
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const openaiBody = (model: string, stream: boolean) =>
  JSON.stringify({ model, ...(stream ? { stream: true } : {}), messages: [{ role: "user", content: "hello" }] });

/** A long agent conversation of about 1 MB: many turns of text with escapes, as agents send them. */
function megabyteBody(): string {
  const turn = 'Here is the file you asked for:\n```ts\nexport const value = "x";\n```\nand a "quoted" note.\t'.repeat(40);
  const messages: { role: string; content: string }[] = [{ role: "system", content: "You are a coding agent." }];
  while (JSON.stringify(messages).length < 1024 * 1024) {
    messages.push({ role: "user", content: turn }, { role: "assistant", content: turn });
  }
  messages.push({ role: "user", content: "continue" });
  return JSON.stringify({ model: "openai/bench-gpt", messages });
}

interface Scenario {
  name: string;
  /** What the floor is sent (it cannot translate: cross-wire is compared with the same-wire floor). */
  floor: Request;
  detour: Request;
  /** Upstream path for the direct baseline. */
  direct: Request;
  load: { kind: "closed"; connections: number } | { kind: "open"; rate: number } | { kind: "burst"; streams: number };
  /** Non-streamed: Detour assembles a streamed upstream answer (R-ST-6); compared with the assembling floor too. */
  assembled?: boolean;
  figures: readonly ("reqPerSec" | "cpuPerReq" | "addedP50" | "addedTtfb" | "peakRss")[];
}

/** The many-streams scenario: this many slow streams (40 events, 50 ms apart) opened at once. */
const SLOW_STREAMS = Number(process.env.BENCH_SLOW_STREAMS ?? 1000);
const slowStream = (model: string): Request => ({ path: CHAT, body: openaiBody(model, true), endsWith: "data: [DONE]" });

const CHAT = "/v1/chat/completions";
const scenarios: Scenario[] = [
  {
    name: "same-wire, closed loop 32 connections",
    assembled: true,
    floor: { path: CHAT, body: openaiBody("bench-gpt", false) },
    detour: { path: CHAT, body: openaiBody("openai/bench-gpt", false) },
    direct: { path: CHAT, body: openaiBody("bench-gpt", false) },
    load: { kind: "closed", connections: 32 },
    figures: ["reqPerSec", "cpuPerReq", "peakRss"],
  },
  {
    name: "same-wire, 100 req/s",
    assembled: true,
    floor: { path: CHAT, body: openaiBody("bench-gpt", false) },
    detour: { path: CHAT, body: openaiBody("openai/bench-gpt", false) },
    direct: { path: CHAT, body: openaiBody("bench-gpt", false) },
    load: { kind: "open", rate: 100 },
    figures: ["cpuPerReq", "addedP50"],
  },
  {
    name: "same-wire streamed (20 chunks), 50 req/s",
    floor: { path: CHAT, body: openaiBody("bench-gpt", true) },
    detour: { path: CHAT, body: openaiBody("openai/bench-gpt", true) },
    direct: { path: CHAT, body: openaiBody("bench-gpt", true) },
    load: { kind: "open", rate: 50 },
    figures: ["cpuPerReq", "addedTtfb"],
  },
  {
    name: "cross-wire (OpenAI client, Anthropic wire), 100 req/s",
    assembled: true,
    floor: { path: CHAT, body: openaiBody("bench-gpt", false) },
    detour: { path: CHAT, body: openaiBody("anthropic/bench-claude", false) },
    direct: { path: CHAT, body: openaiBody("bench-gpt", false) },
    load: { kind: "open", rate: 100 },
    figures: ["cpuPerReq", "addedP50"],
  },
  {
    name: "cross-wire streamed, 50 req/s",
    floor: { path: CHAT, body: openaiBody("bench-gpt", true) },
    detour: { path: CHAT, body: openaiBody("anthropic/bench-claude", true) },
    direct: { path: CHAT, body: openaiBody("bench-gpt", true) },
    load: { kind: "open", rate: 50 },
    figures: ["cpuPerReq", "addedTtfb"],
  },
  {
    // CPU per request is CPU per stream here; a failure (a stream cut or ended without [DONE]) fails the bench.
    name: `${SLOW_STREAMS} slow streams in flight at once (40 events, 50 ms apart)`,
    floor: slowStream("bench-slow"),
    detour: slowStream("openai/bench-slow"),
    direct: slowStream("bench-slow"),
    load: { kind: "burst", streams: SLOW_STREAMS },
    figures: ["cpuPerReq", "peakRss"],
  },
  {
    name: "same-wire 1 MB request body, 20 req/s",
    assembled: true,
    floor: { path: CHAT, body: megabyteBody().replace('"openai/bench-gpt"', '"bench-gpt"') },
    detour: { path: CHAT, body: megabyteBody() },
    direct: { path: CHAT, body: megabyteBody().replace('"openai/bench-gpt"', '"bench-gpt"') },
    load: { kind: "open", rate: 20 },
    figures: ["cpuPerReq", "addedP50"],
  },
];

const ONLY = process.env.BENCH_ONLY;
const selected = ONLY ? scenarios.filter((scenario) => scenario.name.includes(ONLY)) : scenarios;

type Figures = Partial<Record<Scenario["figures"][number], number>>;
type Target = "floor" | "assembling" | "detour" | "baseline";
type Samples = Record<Target, Figures[]>;

/** The highest VmHWM each process reached before a reset (per-scenario peaks reset it). */
const runPeaks = new Map<number, number>();

function notePeak(pid: number): number {
  const peak = Math.max(runPeaks.get(pid) ?? 0, memoryMb(pid).peak);
  runPeaks.set(pid, peak);
  return peak;
}

/** Whether every scenario peak was measured from a reset VmHWM (else it is the peak since the process started). */
let peakResettable = true;

async function runLoad(url: string, request: Request, load: Scenario["load"], durationMs: number): Promise<LoadResult> {
  if (load.kind === "burst") return burst(url, request, load.streams);
  return load.kind === "closed" ? closedLoop(url, request, load.connections, durationMs) : openLoop(url, request, load.rate, durationMs);
}

async function measureTarget(target: Child, request: Request, scenario: Scenario, direct: LoadResult): Promise<Figures> {
  if (scenario.figures.includes("peakRss")) {
    // The peak so far is kept before it is reset, so the whole run's peak is still known at the end.
    notePeak(target.pid);
    peakResettable = resetPeak(target.pid) && peakResettable;
  }
  const cpuBefore = cpuMs(target.pid);
  const result = await runLoad(target.url, request, scenario.load, DURATION_MS);
  const cpu = cpuMs(target.pid) - cpuBefore;
  if (result.failures > 0) throw new Error(`${scenario.name}: ${result.failures} requests failed`);
  return {
    reqPerSec: result.requests / result.seconds,
    cpuPerReq: cpu / Math.max(1, result.requests),
    addedP50: median(result.latencies) - median(direct.latencies),
    addedTtfb: median(result.ttfbs) - median(direct.ttfbs),
    peakRss: memoryMb(target.pid).peak,
  };
}

const FORMAT: Record<Scenario["figures"][number], (value: number) => string> = {
  reqPerSec: (value) => `${value.toFixed(0)} req/s`,
  cpuPerReq: (value) => `${value.toFixed(3)} ms CPU/req`,
  addedP50: (value) => `+${value.toFixed(2)} ms p50`,
  addedTtfb: (value) => `+${value.toFixed(2)} ms TTFB`,
  peakRss: (value) => `${value.toFixed(0)} MB peak RSS`,
};

export async function benchFloor(): Promise<void> {
  const [upstreamScript, floorScript, assemblingScript] = plainChildren([
    "upstream.child.ts",
    "floor-proxy.child.ts",
    "floor-assembled.child.ts",
  ]) as [string, string, string];
  const upstream = await startChild(upstreamScript, [], UPSTREAM_CORE);
  const floor = await startChild(floorScript, [upstream.url], GATEWAY_CORE);
  const profile =
    process.env.BENCH_CPU_PROF === "1" ? ["--cpu-prof", `--cpu-prof-dir=${new URL("./.profiles", import.meta.url).pathname}`] : [];
  const assembling = await startChild(assemblingScript, [upstream.url], GATEWAY_CORE);
  const gatewayFlags = (process.env.BENCH_GATEWAY_NODE_FLAGS ?? "").split(" ").filter((flag) => flag !== "");
  const gateway = await startChild(DIST ? "./gateway-dist.child.mjs" : "./gateway.child.ts", [upstream.url], GATEWAY_CORE, [
    ...gatewayFlags,
    ...profile,
  ]);
  // The baseline runs through this checkout's dist child (same setup), pointed at the other checkout's dist/.
  const baseline = BASELINE
    ? await startChild("./gateway-dist.child.mjs", [upstream.url, `${BASELINE.replace(/\/$/, "")}/dist`], GATEWAY_CORE, gatewayFlags)
    : undefined;
  const samples = new Map<string, Samples>();
  const rss = (child: Child | undefined) => (child ? memoryMb(child.pid).rss : Number.NaN);
  try {
    const idle = { floor: memoryMb(floor.pid).rss, detour: memoryMb(gateway.pid).rss, baseline: rss(baseline) };
    // V8 keeps the young generation start-up grew until its memory reducer runs, some seconds into idleness:
    // what an idle process holds is read once that happened too.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const settled = { floor: memoryMb(floor.pid).rss, detour: memoryMb(gateway.pid).rss, baseline: rss(baseline) };
    for (let rep = 0; rep < REPS; rep += 1) {
      for (const scenario of selected) {
        if (rep === 0) {
          // Warm JIT and connection pools of every path just before its first measurement, so a scenario's first
          // rep runs on processes that have served nothing heavier before it (its peak RSS is its own).
          const warm = [
            [floor, scenario.floor],
            [gateway, scenario.detour],
            ...(baseline ? [[baseline, scenario.detour] as const] : []),
            ...(scenario.assembled ? [[assembling, scenario.floor] as const] : []),
          ] as const;
          for (const [target, request] of warm) {
            const load = scenario.load;
            const warming =
              load.kind === "open" ? { kind: "open" as const, rate: 100 } : load.kind === "burst" ? { ...load, streams: 100 } : load;
            await runLoad(target.url, request, warming, 500);
          }
        }
        const direct = await runLoad(upstream.url, scenario.direct, scenario.load, Math.min(DURATION_MS, 2000));
        const entry = samples.get(scenario.name) ?? { floor: [], assembling: [], detour: [], baseline: [] };
        samples.set(scenario.name, entry);
        // Alternate which target goes first, so drift on the shared machine does not favour one.
        const targets: Target[] = [
          "floor",
          ...(scenario.assembled ? (["assembling"] as const) : []),
          "detour",
          ...(baseline ? (["baseline"] as const) : []),
        ];
        const order = rep % 2 === 0 ? [...targets] : [...targets].reverse();
        const children: Record<Target, Child | undefined> = { floor, assembling, detour: gateway, baseline };
        for (const which of order) {
          const request = which === "detour" || which === "baseline" ? scenario.detour : scenario.floor;
          const figures = await measureTarget(children[which] as Child, request, scenario, direct);
          entry[which].push(figures);
        }
      }
    }
    console.log(
      `\nDetour (${DIST ? "dist/ on node" : "src/ through tsx"}) vs the floor (node:http + undici pass-through): ${REPS} interleaved rep(s) of ${DURATION_MS / 1000} s, both pinned to core ${GATEWAY_CORE}`,
    );
    if (baseline) console.log(`baseline: the dist/ gateway of ${BASELINE}, measured in the same reps`);
    console.log("median of the reps; [min–max] across reps shows the noise\n");
    for (const scenario of selected) {
      const entry = samples.get(scenario.name) as Samples;
      console.log(scenario.name);
      for (const figure of scenario.figures) {
        // A peak is the first rep's: later reps run on heaps that heavier scenarios (the 1 MB bodies) grew.
        const reps = (samples: Figures[]) => (figure === "peakRss" ? samples.slice(0, 1) : samples);
        const floorValues = reps(entry.floor).map((sample) => sample[figure] as number);
        const detourValues = reps(entry.detour).map((sample) => sample[figure] as number);
        const f = median(floorValues);
        const d = median(detourValues);
        const compare = (base: number, name: string, value = d, who = "Detour") =>
          figure.startsWith("added")
            ? `${who} − ${name} ${(value - base).toFixed(2)} ms`
            : `${who} ÷ ${name} ${(value / base).toFixed(2)}×`;
        const spread = (values: number[]) => `[${FORMAT[figure](Math.min(...values))} – ${FORMAT[figure](Math.max(...values))}]`;
        console.log(
          `  ${figure.padEnd(10)} floor ${FORMAT[figure](f).padEnd(22)} Detour ${FORMAT[figure](d).padEnd(22)} ${compare(f, "floor")}`,
        );
        if (figure === "peakRss") {
          console.log(
            `  ${"".padEnd(10)} ${peakResettable ? "peak during this scenario's first rep (VmHWM reset before it)" : "peak since the process started (/proc/<pid>/clear_refs not writable)"}`,
          );
        } else if (REPS > 1) console.log(`  ${"".padEnd(10)} floor ${spread(floorValues)}  Detour ${spread(detourValues)}`);
        if (entry.assembling.length > 0 && figure !== "peakRss") {
          const assemblingValues = entry.assembling.map((sample) => sample[figure] as number);
          const a = median(assemblingValues);
          console.log(`  ${"".padEnd(10)} assembling floor (R-ST-6) ${FORMAT[figure](a).padEnd(22)} ${compare(a, "assembling floor")}`);
        }
        if (entry.baseline.length > 0) {
          const baselineValues = reps(entry.baseline).map((sample) => sample[figure] as number);
          const b = median(baselineValues);
          const assemblingRatio =
            entry.assembling.length > 0 && figure !== "peakRss"
              ? `, ${compare(median(entry.assembling.map((sample) => sample[figure] as number)), "assembling floor", b, "baseline")}`
              : "";
          console.log(
            `  ${"".padEnd(10)} baseline ${FORMAT[figure](b).padEnd(22)} ${compare(f, "floor", b, "baseline")}${assemblingRatio}; ${compare(b, "baseline")}`,
          );
          if (REPS > 1 && figure !== "peakRss") console.log(`  ${"".padEnd(10)} baseline ${spread(baselineValues)}`);
        }
      }
    }
    const after = { floor: notePeak(floor.pid), detour: notePeak(gateway.pid), baseline: baseline ? notePeak(baseline.pid) : Number.NaN };
    const and = (value: number) => (baseline ? `, baseline ${value.toFixed(0)} MB` : "");
    console.log(
      `idle RSS: right after start floor ${idle.floor.toFixed(0)} MB, Detour ${idle.detour.toFixed(0)} MB${and(idle.baseline)}; ` +
        `after ${SETTLE_MS / 1000} s idle floor ${settled.floor.toFixed(0)} MB, Detour ${settled.detour.toFixed(0)} MB${and(settled.baseline)}; ` +
        `peak RSS over the whole run: floor ${after.floor.toFixed(0)} MB, Detour ${after.detour.toFixed(0)} MB${and(after.baseline)}`,
    );
  } finally {
    await baseline?.close();
    await gateway.close();
    await assembling.close();
    await floor.close();
    await upstream.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchFloor();
}
