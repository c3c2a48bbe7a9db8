/**
 * Gateway overhead: the same chat completion sent straight to a mock provider and through the Detour
 * gateway (sqlite store in a temp dir, one session header), measured with autocannon on loopback.
 * Reports latency percentiles of both and the difference, which is what Detour adds per request, for a plain
 * and for a streamed completion.
 * The mock provider runs in a child process so it does not share the gateway's event loop.
 * Bounded: a fixed duration per run, loopback only.
 */
import autocannon from "autocannon";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startGateway } from "../src/gateway/start-gateway.js";

async function startMockProcess(): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, ["--import", "tsx", new URL("./mock-provider.child.ts", import.meta.url).pathname], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let buffered = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`the mock provider exited early (code ${code})`)));
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const newline = buffered.indexOf("\n");
      if (newline !== -1) resolve(buffered.slice(0, newline).trim());
    });
  });
  return {
    url,
    async close() {
      child.stdin.end();
      if (child.exitCode === null) await once(child, "exit");
    },
  };
}

const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 5);
const CONNECTIONS = 10;
const KEY = "sk-bench-key-0000000000";
const body = JSON.stringify({ model: "openai/bench-gpt", messages: [{ role: "user", content: "hello" }] });
/** The same request streamed: every answer passes the commit point and the SSE re-encoding. */
const streamBody = JSON.stringify({ model: "openai/bench-gpt", stream: true, messages: [{ role: "user", content: "hello" }] });

interface Measured {
  /** Requests per second. */
  requests: number;
  /** CPU time of this process per request, µs: the load generator alone (direct) or plus the gateway. */
  cpuPerRequestUs: number;
  /** Share of wall time this process's event loop was busy (main thread only), 0–1. */
  eventLoopBusy: number;
  p50: number;
  p90: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function measure(url: string, headers: Record<string, string>, requestBody = body): Promise<Measured> {
  const cpuBefore = process.cpuUsage();
  const loopBefore = performance.eventLoopUtilization();
  const result = await autocannon({
    url,
    method: "POST",
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    headers: { "content-type": "application/json", ...headers },
    body: requestBody,
  });
  const cpu = process.cpuUsage(cpuBefore);
  const loop = performance.eventLoopUtilization(loopBefore);
  return {
    requests: result.requests.average,
    cpuPerRequestUs: Math.round((cpu.user + cpu.system) / Math.max(1, result.requests.total)),
    eventLoopBusy: Number(loop.utilization.toFixed(2)),
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export async function benchGateway(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "detour-bench-"));
  const mock = await startMockProcess();
  const gateway = await startGateway({
    port: 0,
    env: { DETOUR_HOME: home, BENCH_KEY: KEY },
    config: {
      models: { providers: { openai: { api: "openai-completions", baseUrl: `${mock.url}/v1` } } },
      auth: { profiles: { "openai:bench": { provider: "openai", mode: "api_key", keyRef: { env: "BENCH_KEY" } } } },
      agents: { defaults: { model: { primary: "openai/bench-gpt" } } },
      state: { backend: "sqlite" },
    },
  });
  try {
    // Warm both paths (JIT, connection pools) before measuring.
    await measure(`${mock.url}/v1/chat/completions`, { authorization: `Bearer ${KEY}` });
    const direct = await measure(`${mock.url}/v1/chat/completions`, { authorization: `Bearer ${KEY}` });
    const viaGateway = await measure(`${gateway.url}/v1/chat/completions`, { "x-detour-session": "bench" });
    const directStream = await measure(`${mock.url}/v1/chat/completions`, { authorization: `Bearer ${KEY}` }, streamBody);
    const viaGatewayStream = await measure(`${gateway.url}/v1/chat/completions`, { "x-detour-session": "bench" }, streamBody);
    console.log(`\ngateway overhead (${CONNECTIONS} connections, ${DURATION_SECONDS}s each, sqlite store)`);
    console.table({
      direct: direct,
      "via gateway": viaGateway,
      "direct, streamed": directStream,
      "via gateway, streamed": viaGatewayStream,
    });
    console.log(
      `added latency: p50 ${(viaGateway.p50 - direct.p50).toFixed(2)} ms, p99 ${(viaGateway.p99 - direct.p99).toFixed(2)} ms; ` +
        `throughput ${viaGateway.requests.toFixed(0)} vs ${direct.requests.toFixed(0)} req/s`,
    );
    // The upstream runs in another process, so the difference in this process's CPU per request is the
    // gateway's own work (parsing, the engine, the store, translation, the upstream HTTP client).
    console.log(
      `gateway CPU per request: ${viaGateway.cpuPerRequestUs - direct.cpuPerRequestUs} µs; ` +
        `streamed: ${viaGatewayStream.cpuPerRequestUs - directStream.cpuPerRequestUs} µs`,
    );
    for (const run of [viaGateway, viaGatewayStream]) {
      if (run.errors > 0 || run.non2xx > 0) {
        throw new Error(`the gateway answered ${run.non2xx} non-2xx responses and ${run.errors} errors`);
      }
    }
  } finally {
    await gateway.close();
    await mock.close();
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchGateway();
}
