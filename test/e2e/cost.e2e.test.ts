/**
 * R-GW-7 end to end: answers of catalogue-priced models carry their cost in `x-detour-cost-usd`
 * (non-streamed), add it to `detour_cost_usd_total`, and charge the answering profile's 24-hour spend in a
 * real SQLite store, shown by `/status`. Real gateway, mock provider and official SDK clients on loopback.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogueFacts } from "../../src/catalogue/model-catalogue.js";
import { costOfUsage } from "../../src/catalogue/prices.js";
import { startGateway, type RunningGateway } from "../../src/gateway/start-gateway.js";
import { startMockProvider, type MockProvider } from "../../src/testing/mock-provider/index.js";
import { apiKeyProfiles } from "./fixtures/gateway-harness.js";

const TOKEN = "e2e-cost-client-token-9d1e";
const KEYS = { openai: "sk-e2e-cost-openai-1111111111", anthropic: "sk-ant-e2e-cost-2222222222" };
const OPENAI_MODEL = "gpt-4o-mini";
const ANTHROPIC_MODEL = "claude-3-5-haiku";

let mock: MockProvider;
let gateway: RunningGateway;
let home: string;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "detour-cost-"));
  mock = await startMockProvider();
  gateway = await startGateway({
    config: {
      models: {
        providers: {
          openai: { api: "openai-chat", baseUrl: `${mock.url}/v1`, timeoutSeconds: 5 },
          anthropic: { api: "anthropic-messages", baseUrl: mock.url, timeoutSeconds: 5 },
          // A configured price wins over the catalogue's.
          cheap: { api: "openai-chat", baseUrl: `${mock.url}/v1`, models: [{ id: "house-model", cost: { input: 1, output: 2 } }] },
        },
      },
      auth: {
        profiles: apiKeyProfiles({ "openai:a": "COST_OPENAI", "anthropic:a": "COST_ANTHROPIC", "cheap:a": "COST_OPENAI" }),
      },
      // Metric labels name configured models only (R-GW-8).
      agents: {
        defaults: { model: { primary: `openai/${OPENAI_MODEL}`, fallbacks: [] }, models: { [`anthropic/${ANTHROPIC_MODEL}`]: {} } },
      },
      gateway: { auth: { tokens: [TOKEN] } },
      state: { backend: "sqlite" },
    },
    port: 0,
    env: { DETOUR_HOME: home, COST_OPENAI: KEYS.openai, COST_ANTHROPIC: KEYS.anthropic },
  });
  openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: TOKEN, maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: gateway.url, apiKey: TOKEN, maxRetries: 0 });
});

afterAll(async () => {
  await gateway?.close();
  await mock?.close();
  rmSync(home, { recursive: true, force: true });
});

function pricesOf(provider: string, model: string) {
  const prices = catalogueFacts(provider, model).prices;
  if (!prices) throw new Error(`the catalogue has no prices for ${provider}/${model}`);
  return prices;
}

async function costMetric(provider: string, model: string): Promise<number> {
  const text = await (await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  const line = text.split("\n").find((entry) => entry.startsWith(`detour_cost_usd_total{provider="${provider}",model="${model}"}`));
  return line ? Number(line.split(" ").pop()) : 0;
}

async function spendOf(profileId: string): Promise<number> {
  const status = (await (await fetch(`${gateway.url}/status`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as {
    profiles: { id: string; spendUsd24h: number }[];
  };
  return status.profiles.find((profile) => profile.id === profileId)?.spendUsd24h ?? 0;
}

/** The spend write is best effort and not awaited by the answer: it lands just after. */
async function eventually(read: () => Promise<number>, expected: number): Promise<void> {
  const deadline = Date.now() + 3000;
  for (;;) {
    const value = await read();
    if (Math.abs(value - expected) < 1e-12 || Date.now() > deadline) {
      expect(value).toBeCloseTo(expected, 12);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("R-GW-7: cost of answers", () => {
  it("R-GW-7: a non-streamed answer names its cost, counts it in detour_cost_usd_total and charges the profile's 24 h spend", async () => {
    const prices = pricesOf("openai", OPENAI_MODEL);
    let expected = 0;
    for (let index = 0; index < 2; index += 1) {
      const { data, response } = await openai.chat.completions
        .create({ model: `openai/${OPENAI_MODEL}`, messages: [{ role: "user", content: `price this answer ${index}` }] })
        .withResponse();
      const usage = data.usage!;
      const cost = costOfUsage({ inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens }, prices);
      expect(cost).toBeGreaterThan(0);
      expect(Number(response.headers.get("x-detour-cost-usd"))).toBeCloseTo(cost, 10);
      expected += cost;
    }
    expect(await costMetric("openai", OPENAI_MODEL)).toBeCloseTo(expected, 12);
    await eventually(() => spendOf("openai:a"), expected);
  });

  it("R-GW-7: the canonical lane (OpenAI client, Anthropic model) and the Anthropic client price the same way", async () => {
    const prices = pricesOf("anthropic", ANTHROPIC_MODEL);
    const translated = await openai.chat.completions
      .create({ model: `anthropic/${ANTHROPIC_MODEL}`, messages: [{ role: "user", content: "translated and priced" }] })
      .withResponse();
    const translatedCost = costOfUsage(
      { inputTokens: translated.data.usage!.prompt_tokens, outputTokens: translated.data.usage!.completion_tokens },
      prices,
    );
    expect(Number(translated.response.headers.get("x-detour-cost-usd"))).toBeCloseTo(translatedCost, 10);

    const native = await anthropic.messages
      .create({ model: `anthropic/${ANTHROPIC_MODEL}`, max_tokens: 64, messages: [{ role: "user", content: "native and priced" }] })
      .withResponse();
    const nativeCost = costOfUsage({ inputTokens: native.data.usage.input_tokens, outputTokens: native.data.usage.output_tokens }, prices);
    expect(Number(native.response.headers.get("x-detour-cost-usd"))).toBeCloseTo(nativeCost, 10);
    expect(await costMetric("anthropic", ANTHROPIC_MODEL)).toBeCloseTo(translatedCost + nativeCost, 12);
    await eventually(() => spendOf("anthropic:a"), translatedCost + nativeCost);
  });

  it("R-GW-7: a stream has no cost header; its cost reaches the metric and the spend once its usage arrives", async () => {
    const before = await costMetric("openai", OPENAI_MODEL);
    const spendBefore = await spendOf("openai:a");
    const { data: stream, response } = await openai.chat.completions
      .create({
        model: `openai/${OPENAI_MODEL}`,
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: "user", content: "stream me" }],
      })
      .withResponse();
    expect(response.headers.get("x-detour-cost-usd")).toBeNull();
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    const cost = costOfUsage(
      { inputTokens: usage!.prompt_tokens, outputTokens: usage!.completion_tokens },
      pricesOf("openai", OPENAI_MODEL),
    );
    await eventually(async () => (await costMetric("openai", OPENAI_MODEL)) - before, cost);
    await eventually(async () => (await spendOf("openai:a")) - spendBefore, cost);
  });

  it("R-GW-7: a configured cost wins over the catalogue, and a model without prices has no cost", async () => {
    const priced = await openai.chat.completions
      .create({ model: "cheap/house-model", messages: [{ role: "user", content: "house prices" }] })
      .withResponse();
    const usage = priced.data.usage!;
    const expected = (usage.prompt_tokens * 1 + usage.completion_tokens * 2) / 1_000_000;
    expect(Number(priced.response.headers.get("x-detour-cost-usd"))).toBeCloseTo(expected, 12);

    const unpriced = await openai.chat.completions
      .create({ model: "openai/mock-gpt", messages: [{ role: "user", content: "no prices known" }] })
      .withResponse();
    expect(unpriced.response.headers.get("x-detour-cost-usd")).toBeNull();
  });
});
