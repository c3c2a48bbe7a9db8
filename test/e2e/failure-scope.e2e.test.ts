/**
 * How failures are scoped and counted, seen from outside: a real gateway on loopback, the fault-injecting mock
 * provider, the official OpenAI client, upstream calls counted at the mock. Time runs on a clock whose sleeps
 * move the wall time instead of waiting, so a minute of traffic takes a second (R-CD-1, R-CD-4, R-CD-6).
 */
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import type { DetourConfigInput } from "../../src/config/index.js";
import type { UsageStats } from "../../src/core/types.js";
import type { Clock } from "../../src/ports/clock.js";
import { systemClock } from "../../src/ports/system-clock.js";
import { startGateway, type RunningGateway } from "../../src/gateway/start-gateway.js";
import { startMockProvider, type MockProvider, type MockScenarioSelection } from "../../src/testing/mock-provider/index.js";
import { apiKeyProfiles } from "./fixtures/gateway-harness.js";

const CLIENT_TOKEN = "e2e-scope-client-token-51c2";
const OPENAI_KEY = "sk-e2e-scope-openai-4444444444";
const ANTHROPIC_KEY = "sk-ant-e2e-scope-5555555555";

/** Wall time that a test moves forward; a sleep moves it too and returns at once. Timers stay real (watchdogs). */
class SimulatedClock implements Clock {
  skewMs = 0;
  now(): number {
    return Date.now() + this.skewMs;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.skewMs += Math.max(0, ms);
    return new Promise((resolve) => setImmediate(resolve));
  }
  setTimer(ms: number, fire: () => void): () => void {
    return systemClock.setTimer(ms, fire);
  }
}

interface Stack {
  mock: MockProvider;
  gateway: RunningGateway;
  clock: SimulatedClock;
  openai: OpenAI;
  close(): Promise<void>;
}

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

/** One OpenAI key serving three models, one Anthropic key as the fallback. */
function config(mockUrl: string, openaiTimeoutSeconds: number): DetourConfigInput {
  return {
    models: {
      providers: {
        openai: { api: "openai-chat", baseUrl: `${mockUrl}/v1`, timeoutSeconds: openaiTimeoutSeconds },
        anthropic: { api: "anthropic-messages", baseUrl: mockUrl, timeoutSeconds: 5 },
      },
    },
    auth: {
      profiles: apiKeyProfiles({ "openai:a": "SCOPE_OPENAI", "anthropic:a": "SCOPE_ANTHROPIC" }),
    },
    agents: {
      defaults: {
        // Every modelFailover setting at its default: the retry gate, the short wait, the cooldown wait — but
        // no hedge, which would take the hung upstream's requests to the fallback before its incident is counted.
        model: { primary: "openai/mock-a", fallbacks: ["anthropic/mock-claude"] },
        modelFailover: { hedging: { enabled: false } },
      },
    },
    gateway: { ttftTimeoutSeconds: 0.3, streamStallSeconds: 0.3, auth: { tokens: [CLIENT_TOKEN] } },
    state: { backend: "memory" },
  };
}

async function start(scenario: MockScenarioSelection, openaiTimeoutSeconds = 5): Promise<Stack> {
  const mock = await startMockProvider({ scenario, models: ["mock-a", "mock-b", "mock-c", "mock-claude"] });
  const clock = new SimulatedClock();
  let gateway: RunningGateway;
  try {
    gateway = await startGateway({
      config: config(mock.url, openaiTimeoutSeconds),
      port: 0,
      clock,
      env: { SCOPE_OPENAI: OPENAI_KEY, SCOPE_ANTHROPIC: ANTHROPIC_KEY },
    });
  } catch (error) {
    await mock.close();
    throw error;
  }
  const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: CLIENT_TOKEN, maxRetries: 0, timeout: 10_000 });
  stack = {
    mock,
    gateway,
    clock,
    openai,
    async close() {
      await gateway.close();
      await mock.close();
    },
  };
  return stack;
}

/** The model that answered (`provider/model`). */
async function ask(openai: OpenAI, model: string): Promise<string> {
  const answer = await openai.chat.completions.create({ model, messages: [{ role: "user", content: "hi" }] });
  return answer.model;
}

async function profileStats(gateway: RunningGateway, id: string): Promise<UsageStats> {
  const response = await fetch(`${gateway.url}/admin/profiles`, { headers: { authorization: `Bearer ${CLIENT_TOKEN}` } });
  const body = (await response.json()) as { profiles: { id: string; usageStats: UsageStats }[] };
  return body.profiles.find((profile) => profile.id === id)?.usageStats ?? {};
}

describe("failure scope and counting through the gateway", () => {
  it("R-CD-4: a 503 storm on one model of a key leaves its other two models on the primary, and the recovered model is found within 30 s", async () => {
    const { openai, mock, clock, gateway } = await start({
      rules: [{ match: { api: "openai", model: "mock-a" }, steps: ["unavailable"], then: "repeat-last" }],
    });
    // Two simulated minutes of storm, one request per model every 5 s.
    for (let second = 0; second < 120; second += 5) {
      expect(await ask(openai, "openai/mock-a")).toBe("anthropic/mock-claude");
      expect(await ask(openai, "openai/mock-b")).toBe("openai/mock-b");
      expect(await ask(openai, "openai/mock-c")).toBe("openai/mock-c");
      clock.skewMs += 5_000;
    }
    expect(mock.counts().byKeyModel[OPENAI_KEY]?.["mock-b"]).toBe(24);
    expect(mock.counts().byKeyModel[OPENAI_KEY]?.["mock-c"]).toBe(24);

    // The last storm answer leaves mock-a cooling down; from here on only mock-a traffic, so no sibling's
    // success clears its window (R-CD-7): the recovery has to be found by the primary's probe (R-FB-3).
    expect(await ask(openai, "openai/mock-a")).toBe("anthropic/mock-claude");
    expect(await profileStats(gateway, "openai:a")).toMatchObject({ cooldownReason: "overloaded", cooldownModel: "mock-a" });
    clock.skewMs += 5_000;
    mock.setScenario("healthy");
    const recoveredAt = clock.now();
    let foundAfterMs: number | undefined;
    while (clock.now() - recoveredAt <= 30_000) {
      if ((await ask(openai, "openai/mock-a")) === "openai/mock-a") {
        foundAfterMs = clock.now() - recoveredAt;
        break;
      }
      clock.skewMs += 2_000;
    }
    expect(foundAfterMs).toBeDefined();
    expect(foundAfterMs).toBeLessThanOrEqual(30_000);
    expect((await profileStats(gateway, "openai:a")).cooldownUntil).toBeUndefined();
  });

  it("R-CD-1: ten concurrent requests into one hung upstream leave the profile on the first ladder step", async () => {
    const { openai, mock, gateway } = await start(
      {
        rules: [{ match: { api: "openai" }, steps: ["silence"], then: "repeat-last" }],
      },
      1,
    );
    const answers = await Promise.all(Array.from({ length: 10 }, () => ask(openai, "openai/mock-a")));
    expect(answers.every((model) => model === "anthropic/mock-claude")).toBe(true);
    // Each request tried the key twice (R-RN-4 timeout retry) before falling back: twenty hung calls, one outage.
    expect(mock.counts().byKey[OPENAI_KEY]).toBe(20);
    const stats = await profileStats(gateway, "openai:a");
    expect(stats.errorCount).toBe(1);
    expect(stats.failureCounts).toEqual({ timeout: 10 });
    expect((stats.cooldownUntil ?? 0) - (stats.lastFailureAt ?? 0)).toBe(10_000);
  });

  it("R-CD-6: a primary that always answers 429 + Retry-After: 1 with a healthy fallback gets ≤ 1.05 upstream calls per request over a minute", async () => {
    const { openai, mock, clock } = await start({
      rules: [{ match: { api: "openai" }, steps: [{ fault: "rate-limit", retryAfterSeconds: 1 }], then: "repeat-last" }],
    });
    const startedAt = clock.now();
    let requests = 0;
    const slow: number[] = [];
    // Two requests per simulated second for a minute.
    while (clock.now() - startedAt < 60_000) {
      const began = clock.now();
      expect(await ask(openai, "openai/mock-a")).toBe("anthropic/mock-claude");
      const tookMs = clock.now() - began;
      if (tookMs >= 1_000) slow.push(tookMs);
      requests += 1;
      clock.skewMs += Math.max(0, 500 - tookMs);
    }
    const counts = mock.counts();
    const perRequest = counts.total / requests;
    expect(requests).toBeGreaterThanOrEqual(110);
    expect(perRequest).toBeLessThanOrEqual(1.05);
    expect(counts.byKey[ANTHROPIC_KEY]).toBe(requests);
    // Only the very first refusal is waited out (R-RN-6); a second that ran out is not trusted again.
    expect(slow.length).toBeLessThanOrEqual(1);
  });
});
