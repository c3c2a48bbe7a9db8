/**
 * Soak (issue 12): ≥ 50 000 requests through the real gateway at 30 % mixed faults (429 with and without
 * Retry-After, 500, 503, 529, resets, silence, cut streams) over 3 providers × 2 keys of mock providers, on
 * loopback. Prints: failed requests that had a healthy candidate, hung requests, RSS and open file
 * descriptors at start and end.
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startGateway } from "../../src/gateway/start-gateway.js";
import { startMockProvider, type MockRuleInput } from "../../src/testing/mock-provider/index.js";
import { SeededRandom } from "../../src/testing/seeded-random.js";

const REQUESTS = Number(process.env.CHAOS_SOAK_REQUESTS ?? 50_000);
const CONCURRENCY = 24;
const FAULT_RATE = 0.3;
const HUNG_AFTER_MS = 30_000;
const TOKEN = "chaos-client-token";
const PROVIDERS = [
  { id: "openai", api: "openai-completions", path: "/v1", model: "mock-gpt" },
  { id: "anthropic", api: "anthropic-messages", path: "", model: "mock-claude" },
  { id: "groq", api: "openai-completions", path: "/v1", model: "mock-llama" },
] as const;
const KEYS = PROVIDERS.flatMap((provider) => ["a", "b"].map((slot) => ({ provider: provider.id, slot, key: `sk-chaos-${provider.id}-${slot}-0123456789` })));

type Step = Exclude<MockRuleInput["steps"][number], string> | string;
const FAULTS: Step[] = [
  { fault: "rate-limit", retryAfterSeconds: 1 },
  { fault: "rate-limit" },
  { fault: "server-error" },
  { fault: "unavailable" },
  { fault: "overloaded", status: 529 },
  { fault: "reset" },
  { fault: "silence" },
  { fault: "stream-cut", afterTokens: 1 },
];

/** Per key, a seeded sequence of steps (30 % faults); `healthy[i]` tells whether request i of that key is ok. */
function schedule(seed: number, length: number): { steps: Step[]; healthy: boolean[] } {
  const random = new SeededRandom(seed);
  const steps: Step[] = [];
  const healthy: boolean[] = [];
  for (let index = 0; index < length; index += 1) {
    const faulty = random.next() < FAULT_RATE;
    healthy.push(!faulty);
    steps.push(faulty ? (FAULTS[Math.floor(random.next() * FAULTS.length)] as Step) : "ok");
  }
  return { steps, healthy };
}

function openFds(): number {
  return readdirSync("/proc/self/fd").length;
}

describe("chaos: soak", () => {
  it(`serves ${REQUESTS} requests at 30 % mixed faults`, async () => {
    const perKey = Math.ceil((REQUESTS * 3) / KEYS.length) + 1000;
    const schedules = KEYS.map((entry, index) => ({ ...entry, ...schedule(index + 1, perKey) }));
    const mock = await startMockProvider({
      models: PROVIDERS.map((provider) => provider.model),
      scenario: schedules.map((entry) => ({ name: entry.key, match: { key: entry.key }, steps: entry.steps as MockRuleInput["steps"], then: "ok" })),
    });
    const env = Object.fromEntries(KEYS.map((entry) => [`CHAOS_${entry.provider.toUpperCase()}_${entry.slot.toUpperCase()}`, entry.key]));
    const gateway = await startGateway({
      port: 0,
      env,
      config: {
        models: {
          providers: Object.fromEntries(
            PROVIDERS.map((provider) => [provider.id, { api: provider.api, baseUrl: `${mock.url}${provider.path}`, timeoutSeconds: 5 }]),
          ),
        },
        auth: {
          profiles: Object.fromEntries(
            KEYS.map((entry) => [
              `${entry.provider}:${entry.slot}`,
              { provider: entry.provider, mode: "api_key", keyRef: { env: `CHAOS_${entry.provider.toUpperCase()}_${entry.slot.toUpperCase()}` } },
            ]),
          ),
        },
        agents: {
          defaults: {
            model: { primary: "openai/mock-gpt", fallbacks: ["anthropic/mock-claude", "groq/mock-llama"] },
            modelFailover: { retrySameProfileOnTimeout: 0, shortWaitSeconds: 0, waitForCooldownMaxSeconds: 0 },
          },
        },
        gateway: { ttftTimeoutSeconds: 0.3, streamStallSeconds: 0.3, auth: { tokens: [TOKEN] } },
        state: { backend: "memory" },
      },
    });

    const ruleIndex = (key: string) => mock.counts().byKey[key] ?? 0;
    /** At the moment a request failed: did any key's next mock answer say ok? */
    const someoneHealthy = () => schedules.some((entry) => entry.healthy[ruleIndex(entry.key)] ?? true);

    const statuses = new Map<number, number>();
    let failed = 0;
    let failedWithHealthyCandidate = 0;
    let hung = 0;
    let next = 0;
    let rssStart = 0;
    let fdsStart = 0;
    const started = Date.now();

    async function one(index: number): Promise<void> {
      const stream = index % 3 === 0;
      try {
        const response = await fetch(`${gateway.url}/v1/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
          body: JSON.stringify({ model: "detour", stream, messages: [{ role: "user", content: `soak ${index}` }] }),
          signal: AbortSignal.timeout(HUNG_AFTER_MS),
        });
        const body = await response.text();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const ok = response.status === 200 && (!stream || body.includes("[DONE]")) && !body.includes('"error"');
        if (!ok) {
          failed += 1;
          if (someoneHealthy()) failedWithHealthyCandidate += 1;
        }
      } catch (error) {
        if ((error as Error).name === "TimeoutError") hung += 1;
        else {
          failed += 1;
          if (someoneHealthy()) failedWithHealthyCandidate += 1;
        }
      }
    }

    async function worker(): Promise<void> {
      for (;;) {
        const index = next++;
        if (index >= REQUESTS) return;
        if (index === 1000) {
          // After warm-up (JIT, pools): the baseline for flat RSS and file descriptors.
          rssStart = process.memoryUsage().rss;
          fdsStart = openFds();
        }
        await one(index);
      }
    }

    try {
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      global.gc?.();
      const rssEnd = process.memoryUsage().rss;
      const fdsEnd = openFds();
      const seconds = (Date.now() - started) / 1000;
      const figures = {
        requests: REQUESTS,
        seconds: Number(seconds.toFixed(1)),
        upstreamAttempts: mock.counts().total,
        statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
        failed,
        failedWithHealthyCandidate,
        hung,
        rssStartMb: Math.round(rssStart / 2 ** 20),
        rssEndMb: Math.round(rssEnd / 2 ** 20),
        openFdsStart: fdsStart,
        openFdsEnd: fdsEnd,
      };
      console.log(`[chaos soak] ${JSON.stringify(figures)}`);
      expect.soft(hung, "hung requests").toBe(0);
      expect.soft(failedWithHealthyCandidate, "failed requests that had a healthy candidate").toBe(0);
      expect.soft(fdsEnd - fdsStart, "file descriptor growth").toBeLessThan(CONCURRENCY * 2);
    } finally {
      await gateway.close();
      await mock.close();
    }
  });
});
