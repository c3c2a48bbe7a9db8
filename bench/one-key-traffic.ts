/**
 * One key and no fallback against the provider itself (SPEC R-FB-9): the same open-loop traffic — a request
 * every 1/rate seconds, each with its own client deadline — sent straight to a fault-injecting mock provider
 * and through a Detour gateway with one key, counting the requests answered and the upstream calls made.
 * The mock's random rule is seeded, so both sides meet the same sequence of faults.
 * Shared by `npm run bench:one-key` and the end-to-end test that asserts "answered ≥ direct".
 */
import { startGateway } from "../src/gateway/start-gateway.js";
import { startMockProvider, type MockRuleInput, type MockStepInput } from "../src/testing/mock-provider/index.js";

const CLIENT_TOKEN = "one-key-bench-client-token";
const PRIMARY_KEY = "sk-one-key-primary-0000000000";
const FALLBACK_KEY = "sk-ant-one-key-fallback-000000";

export interface OneKeyScenario {
  name: string;
  /** The primary's steps, drawn at random (weighted by `times`) from a generator seeded with `seed`. */
  steps: MockStepInput[];
  seed: number;
  /** A healthy fallback (another provider, another key) behind the primary. */
  withFallback?: boolean;
}

export interface TrafficOptions {
  ratePerSecond: number;
  durationMs: number;
  /** Each request's own deadline, as a client's timeout. */
  clientTimeoutMs: number;
}

export interface TrafficResult {
  requests: number;
  answered: number;
  upstreamCalls: number;
  /** Median and slowest time of the answered requests, ms. */
  p50Ms: number;
  maxMs: number;
}

export const ONE_KEY_SCENARIOS: readonly OneKeyScenario[] = [
  { name: "50 % 429, no Retry-After", seed: 1, steps: ["rate-limit", "ok"] },
  { name: "50 % 429 + Retry-After: 1", seed: 2, steps: [{ fault: "rate-limit", retryAfterSeconds: 1 }, "ok"] },
  { name: "50 % 500", seed: 3, steps: ["server-error", "ok"] },
  { name: "50 % 529", seed: 4, steps: [{ fault: "overloaded", status: 529 }, "ok"] },
];

/** The trade trust-once (R-CD-6) keeps: with somewhere else to go, a primary that always says "1 s" costs ~1 call. */
export const FALLBACK_SCENARIO: OneKeyScenario = {
  name: "always 429 + Retry-After: 1, healthy fallback",
  seed: 5,
  steps: [{ fault: "rate-limit", retryAfterSeconds: 1 }],
  withFallback: true,
};

function rules(scenario: OneKeyScenario): MockRuleInput[] {
  return [{ match: { model: "mock-gpt" }, random: { seed: scenario.seed }, steps: scenario.steps }];
}

const chatBody = (model: string) => JSON.stringify({ model, max_tokens: 16, messages: [{ role: "user", content: "hello" }] });

async function sendOne(url: string, token: string, body: string, timeoutMs: number): Promise<number | undefined> {
  const began = performance.now();
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.arrayBuffer();
    return response.ok ? performance.now() - began : undefined;
  } catch {
    return undefined;
  }
}

/** Open loop: requests start on schedule whatever the earlier ones are doing, as independent clients would. */
async function drive(url: string, token: string, body: string, options: TrafficOptions): Promise<Omit<TrafficResult, "upstreamCalls">> {
  const intervalMs = 1000 / options.ratePerSecond;
  const count = Math.max(1, Math.round((options.durationMs / 1000) * options.ratePerSecond));
  const started = performance.now();
  const pending: Promise<number | undefined>[] = [];
  for (let index = 0; index < count; index += 1) {
    const due = started + index * intervalMs;
    const delay = due - performance.now();
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    pending.push(sendOne(url, token, body, options.clientTimeoutMs));
  }
  const latencies = (await Promise.all(pending)).filter((ms): ms is number => ms !== undefined).sort((a, b) => a - b);
  return {
    requests: count,
    answered: latencies.length,
    p50Ms: Math.round(latencies[Math.floor(latencies.length / 2)] ?? 0),
    maxMs: Math.round(latencies.at(-1) ?? 0),
  };
}

/** The client calling the provider directly: one call per request, no retries. */
export async function measureDirect(scenario: OneKeyScenario, options: TrafficOptions): Promise<TrafficResult> {
  const mock = await startMockProvider({ scenario: rules(scenario), models: ["mock-gpt"], recordLimit: 1 });
  try {
    const result = await drive(`${mock.url}/v1/chat/completions`, PRIMARY_KEY, chatBody("mock-gpt"), options);
    return { ...result, upstreamCalls: mock.counts().total };
  } finally {
    await mock.close();
  }
}

/** The same client through a Detour gateway with one key (and, for the fallback row, a second provider). */
export async function measureDetour(scenario: OneKeyScenario, options: TrafficOptions): Promise<TrafficResult> {
  const mock = await startMockProvider({ scenario: rules(scenario), models: ["mock-gpt", "mock-claude"], recordLimit: 1 });
  try {
    const gateway = await startGateway({
      port: 0,
      env: { ONE_KEY_PRIMARY: PRIMARY_KEY, ONE_KEY_FALLBACK: FALLBACK_KEY },
      config: {
        models: {
          providers: {
            openai: { api: "openai-completions", baseUrl: `${mock.url}/v1` },
            anthropic: { api: "anthropic-messages", baseUrl: mock.url },
          },
        },
        auth: {
          profiles: {
            "openai:a": { provider: "openai", mode: "api_key", keyRef: { env: "ONE_KEY_PRIMARY" } },
            ...(scenario.withFallback
              ? { "anthropic:a": { provider: "anthropic", mode: "api_key" as const, keyRef: { env: "ONE_KEY_FALLBACK" } } }
              : {}),
          },
        },
        agents: {
          defaults: {
            model: { primary: "openai/mock-gpt", fallbacks: scenario.withFallback ? ["anthropic/mock-claude"] : [] },
          },
        },
        gateway: { auth: { tokens: [CLIENT_TOKEN] } },
        state: { backend: "memory" },
      },
    });
    try {
      const result = await drive(`${gateway.url}/v1/chat/completions`, CLIENT_TOKEN, chatBody("detour"), options);
      return { ...result, upstreamCalls: mock.counts().total };
    } finally {
      await gateway.close();
    }
  } finally {
    await mock.close();
  }
}
