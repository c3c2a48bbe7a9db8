/**
 * Bytes allocated and CPU per request, counted rather than timed: each target (the dist/ gateway, the two
 * floors, optionally another checkout's gateway) runs with `--trace-gc` and a fixed young generation, and
 * the bytes its heap grew between collections over a fixed number of requests are summed. On a shared,
 * noisy machine this figure moves with the code, not with the neighbours, so a cut on the hot path shows
 * as fewer kilobytes per request even when the CPU figure drowns in noise.
 *
 *   node --import tsx bench/allocations.bench.ts     after `npm run build`
 *   BENCH_REQUESTS=<n>       measured requests per target (20000), after as many again to warm up
 *   BENCH_STREAM=1           the streamed request instead of the non-streamed one
 *   BENCH_MODEL=<model>      the model the gateway is asked for (openai/bench-gpt; anthropic/bench-claude is cross-wire)
 *   BENCH_BASELINE=<checkout>  also another checkout's built dist/ gateway (see floor.bench.ts)
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { cpuMs, closedLoop } from "./floor.bench.js";
import { plainChildren } from "./plain-children.js";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20000);
const STREAM = process.env.BENCH_STREAM === "1";
const MODEL = process.env.BENCH_MODEL ?? "openai/bench-gpt";
const CONNECTIONS = 32;
const CORE = process.env.BENCH_CORE ?? "1";
const GC_FLAGS = ["--trace-gc", "--min-semi-space-size=16", "--max-semi-space-size=16"];

interface Traced {
  url: string;
  pid: number;
  /** Bytes allocated so far: the heap's growth between collections plus its growth since the last one. */
  allocated(): number;
  close(): Promise<void>;
}

/** One `--trace-gc` line: `[pid:addr:gc] 123 ms: Scavenge 20.1 (35.2) -> 12.3 (36.0) MB, …`. */
const GC_LINE = /: (?:Scavenge|Mark-Compact|Minor Mark-Compact|Mark-sweep)[^\d]*([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/;

async function startTraced(script: string, args: string[], flags: string[]): Promise<Traced> {
  const loader = script.endsWith(".ts") ? ["--import", "tsx"] : [];
  const child = spawn("taskset", ["-c", CORE, process.execPath, ...GC_FLAGS, ...flags, ...loader, script, ...args], {
    stdio: ["pipe", "pipe", "ignore"],
  });
  let url: string | undefined;
  let grown = 0;
  let lastAfter = Number.NaN;
  let buffered = "";
  const ready = new Promise<string>((resolve, reject) => {
    child.on("exit", (code) => reject(new Error(`${script} exited early (code ${code})`)));
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      for (let newline = buffered.indexOf("\n"); newline !== -1; newline = buffered.indexOf("\n")) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        const gc = GC_LINE.exec(line);
        if (gc) {
          const before = Number(gc[1]);
          if (!Number.isNaN(lastAfter)) grown += Math.max(0, before - lastAfter);
          lastAfter = Number(gc[2]);
        } else if (url === undefined && line.startsWith("http")) {
          url = line.trim();
          resolve(url);
        }
      }
    });
  });
  return {
    url: await ready,
    pid: child.pid as number,
    allocated: () => grown * 1024 * 1024,
    async close() {
      child.stdin.end();
      if (child.exitCode === null) await once(child, "exit");
    },
  };
}

const body = (model: string) =>
  JSON.stringify({ model, ...(STREAM ? { stream: true } : {}), messages: [{ role: "user", content: "hello" }] });

/** Requests at a closed loop until `count` were answered (closedLoop runs for a time, so it is run in slices). */
async function drive(target: Traced, model: string, count: number): Promise<number> {
  let answered = 0;
  while (answered < count)
    answered += (await closedLoop(target.url, { path: "/v1/chat/completions", body: body(model) }, CONNECTIONS, 500)).requests;
  return answered;
}

async function measure(name: string, target: Traced, model: string): Promise<void> {
  await drive(target, model, REQUESTS);
  const allocatedBefore = target.allocated();
  const cpuBefore = cpuMs(target.pid);
  const answered = await drive(target, model, REQUESTS);
  const kb = (target.allocated() - allocatedBefore) / 1024 / answered;
  const cpu = (cpuMs(target.pid) - cpuBefore) / answered;
  console.log(`${name.padEnd(18)} ${kb.toFixed(1).padStart(7)} KB allocated/req  ${cpu.toFixed(3)} ms CPU/req  (${answered} requests)`);
}

const [upstreamScript, floorScript, assemblingScript] = plainChildren([
  "upstream.child.ts",
  "floor-proxy.child.ts",
  "floor-assembled.child.ts",
]);
const upstream = spawn("taskset", ["-c", process.env.BENCH_UPSTREAM_CORE ?? "0", process.execPath, upstreamScript as string], {
  stdio: ["pipe", "pipe", "ignore"],
});
const [upstreamLine] = (await once(upstream.stdout, "data")) as [Buffer];
const upstreamUrl = upstreamLine.toString("utf8").trim();
const gatewayScript = new URL("./gateway-dist.child.mjs", import.meta.url).pathname;
const targets: (readonly [string, () => Promise<Traced>, string])[] = [
  ["plain floor", () => startTraced(floorScript as string, [upstreamUrl], []), "bench-gpt"],
  ...(STREAM ? [] : ([["assembling floor", () => startTraced(assemblingScript as string, [upstreamUrl], []), "bench-gpt"]] as const)),
  ["Detour", () => startTraced(gatewayScript, [upstreamUrl], []), MODEL],
  ...(process.env.BENCH_BASELINE
    ? ([["baseline", () => startTraced(gatewayScript, [upstreamUrl, `${process.env.BENCH_BASELINE}/dist`], []), MODEL]] as const)
    : []),
];
console.log(
  `${STREAM ? "streamed" : "non-streamed"} ${MODEL}, ${REQUESTS} requests at ${CONNECTIONS} connections after as many to warm up`,
);
try {
  for (const [name, start, model] of targets) {
    const target = await start();
    try {
      await measure(name, target, model);
    } finally {
      await target.close();
    }
  }
} finally {
  upstream.stdin.end();
}
