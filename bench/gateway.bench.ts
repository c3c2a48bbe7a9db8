/**
 * Gateway overhead: the same chat completion sent straight to a mock provider and through the Detour
 * gateway (sqlite store in a temp dir, one session header), measured with autocannon on loopback.
 * Reports latency percentiles of both and the difference, which is what Detour adds per request.
 * Bounded: a fixed duration per run, loopback only.
 */
import autocannon from "autocannon";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startGateway } from "../src/gateway/start-gateway.js";
import { startMockProvider } from "../src/testing/mock-provider/index.js";

const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 5);
const CONNECTIONS = 10;
const KEY = "sk-bench-key-0000000000";
const body = JSON.stringify({ model: "openai/bench-gpt", messages: [{ role: "user", content: "hello" }] });

interface Measured {
  requests: number;
  p50: number;
  p90: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function measure(url: string, headers: Record<string, string>): Promise<Measured> {
  const result = await autocannon({
    url,
    method: "POST",
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  return {
    requests: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export async function benchGateway(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "detour-bench-"));
  const mock = await startMockProvider({ scenario: "healthy", models: ["bench-gpt"], tokenDelayMs: 0 });
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
    console.log(`\ngateway overhead (${CONNECTIONS} connections, ${DURATION_SECONDS}s each, sqlite store)`);
    console.table({
      direct: direct,
      "via gateway": viaGateway,
    });
    console.log(
      `added latency: p50 ${(viaGateway.p50 - direct.p50).toFixed(2)} ms, p99 ${(viaGateway.p99 - direct.p99).toFixed(2)} ms; ` +
        `throughput ${viaGateway.requests.toFixed(0)} vs ${direct.requests.toFixed(0)} req/s`,
    );
    if (viaGateway.errors > 0 || viaGateway.non2xx > 0) {
      throw new Error(`the gateway answered ${viaGateway.non2xx} non-2xx responses and ${viaGateway.errors} errors`);
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
