/**
 * `POST /v1/embeddings` end to end with the official `openai` SDK (`client.embeddings.create`): float and
 * base64 encodings, string and array inputs, `dimensions`; profile rotation and cooldown on a 429 (R-RN-1,
 * R-CD-1); fallbacks only to models of the same `embeddingSpace`; an error when nothing can serve; Ollama's
 * `/api/embed` translated. Real gateway, fault-injecting mock provider, loopback only.
 */
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DetourConfigInput } from "../../src/config/index.js";
import { startGateway, type RunningGateway } from "../../src/gateway/start-gateway.js";
import { mockEmbedding } from "../../src/testing/mock-provider/mock-embeddings.js";
import { startMockProvider, type MockProvider } from "../../src/testing/mock-provider/index.js";
import { apiKeyProfiles, MOVE_ON_AT_ONCE } from "./fixtures/gateway-harness.js";

const TOKEN = "e2e-embed-client-token-3b7c";
const KEYS = { a: "sk-e2e-embed-a-1111111111", b: "sk-e2e-embed-b-2222222222", router: "sk-e2e-embed-router-3333333333" };
const SMALL = "text-embedding-3-small";

function config(mockUrl: string): DetourConfigInput {
  return {
    models: {
      providers: {
        openai: {
          api: "openai-chat",
          baseUrl: `${mockUrl}/v1`,
          timeoutSeconds: 5,
          models: [
            { id: SMALL, embeddingSpace: "openai-te3-small", cost: { input: 0.02 } },
            { id: "text-embedding-3-large", embeddingSpace: "openai-te3-large" },
          ],
        },
        // The same model through another provider: the same space, so a fallback may go there.
        router: {
          api: "openai-chat",
          baseUrl: `${mockUrl}/v1`,
          timeoutSeconds: 5,
          models: [{ id: `openai/${SMALL}`, embeddingSpace: "openai-te3-small" }],
        },
        ollama: { api: "ollama", baseUrl: mockUrl, timeoutSeconds: 5, models: [{ id: "nomic-embed-text", embeddingSpace: "nomic-v1" }] },
      },
    },
    auth: {
      profiles: apiKeyProfiles({ "openai:a": "EMBED_A", "openai:b": "EMBED_B", "router:a": "EMBED_ROUTER" }),
      order: { openai: ["openai:a", "openai:b"] },
    },
    agents: {
      defaults: {
        model: { primary: "openai/mock-gpt", fallbacks: [] },
        modelFailover: MOVE_ON_AT_ONCE,
      },
    },
    gateway: { auth: { tokens: [TOKEN] } },
    state: { backend: "memory" },
  };
}

let mock: MockProvider;
let gateway: RunningGateway;
let client: OpenAI;

async function restartGateway(): Promise<void> {
  await gateway?.close();
  gateway = await startGateway({
    config: config(mock.url),
    port: 0,
    env: { EMBED_A: KEYS.a, EMBED_B: KEYS.b, EMBED_ROUTER: KEYS.router },
  });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: TOKEN, maxRetries: 0 });
}

beforeAll(async () => {
  mock = await startMockProvider();
});

beforeEach(async () => {
  mock.setScenario("healthy");
  mock.reset();
  // A fresh engine per test: no cooldown carries over.
  await restartGateway();
});

afterAll(async () => {
  await gateway?.close();
  await mock?.close();
});

async function profile(id: string): Promise<{ usableNow: boolean; unusableReason?: string } | undefined> {
  const status = (await (await fetch(`${gateway.url}/status`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as {
    profiles: { id: string; usableNow: boolean; unusableReason?: string }[];
  };
  return status.profiles.find((entry) => entry.id === id);
}

describe("POST /v1/embeddings", () => {
  it("answers the SDK's default base64 request, arrays of inputs and dimensions, with the provider's vectors and cost", async () => {
    const { data, response } = await client.embeddings
      .create({ model: `openai/${SMALL}`, input: ["first text", "second text"], dimensions: 4 })
      .withResponse();
    expect(data.data.map((item) => item.index)).toEqual([0, 1]);
    expect(data.data[0]?.embedding).toEqual(mockEmbedding(SMALL, "first text", 4));
    expect(data.data[1]?.embedding).toEqual(mockEmbedding(SMALL, "second text", 4));
    expect(response.headers.get("x-detour-model")).toBe(`openai/${SMALL}`);
    expect(response.headers.get("x-detour-profile")).toBe("openai:a");
    // R-GW-7: the configured price (the catalogue has none for embedding models).
    expect(Number(response.headers.get("x-detour-cost-usd"))).toBeCloseTo((data.usage.prompt_tokens * 0.02) / 1e6, 12);
    // The client's body reached the provider as sent: the SDK's base64 encoding, the dimensions, only `model` replaced.
    const sent = mock.requests().at(-1)?.body as Record<string, unknown>;
    expect(sent).toEqual({ model: SMALL, input: ["first text", "second text"], dimensions: 4, encoding_format: "base64" });
  });

  it("answers float encoding and a single string input", async () => {
    const data = await client.embeddings.create({ model: `openai/${SMALL}`, input: "just one", encoding_format: "float" });
    expect(data.data).toHaveLength(1);
    expect(data.data[0]?.embedding).toEqual(mockEmbedding(SMALL, "just one"));
  });

  it("R-CD-1: a 429 on the first key rotates to the second, which answers; the first is put on cooldown", async () => {
    mock.setScenario([{ match: { key: KEYS.a }, steps: [{ fault: "rate-limit", retryAfterSeconds: 60 }], then: "repeat-last" }]);
    const { data, response } = await client.embeddings.create({ model: `openai/${SMALL}`, input: "rotate me" }).withResponse();
    expect(data.data[0]?.embedding).toEqual(mockEmbedding(SMALL, "rotate me"));
    expect(response.headers.get("x-detour-profile")).toBe("openai:b");
    expect(response.headers.get("x-detour-attempts")).toBe("2");
    expect(mock.counts().byKey).toEqual({ [KEYS.a]: 1, [KEYS.b]: 1 });
    expect(await profile("openai:a")).toMatchObject({ usableNow: false, unusableReason: "rate_limit" });
    expect(await profile("openai:b")).toMatchObject({ usableNow: true });

    // The cooling profile is skipped from now on: the next request goes straight to the second key.
    const next = await client.embeddings.create({ model: `openai/${SMALL}`, input: "again" }).withResponse();
    expect(next.response.headers.get("x-detour-profile")).toBe("openai:b");
    expect(mock.counts().byKey[KEYS.a]).toBe(1);
  });

  it("falls back only to a model of the same embedding space", async () => {
    mock.setScenario([{ match: { model: SMALL }, steps: ["rate-limit"], then: "repeat-last" }]);
    const { data, response } = await client.embeddings.create({ model: `openai/${SMALL}`, input: "same space" }).withResponse();
    expect(response.headers.get("x-detour-model")).toBe(`router/openai/${SMALL}`);
    expect(response.headers.get("x-detour-profile")).toBe("router:a");
    expect(data.data[0]?.embedding).toEqual(mockEmbedding(`openai/${SMALL}`, "same space"));
    const models = new Set(mock.requests().map((request) => request.model));
    expect(models).toEqual(new Set([SMALL, `openai/${SMALL}`]));
  });

  it("x-detour-fallbacks: none keeps the request on its model, and a listed model of another space is ignored", async () => {
    mock.setScenario([{ match: { model: SMALL }, steps: ["rate-limit"], then: "repeat-last" }]);
    const none = await client.embeddings
      .create({ model: `openai/${SMALL}`, input: "stay" }, { headers: { "x-detour-fallbacks": "none" } })
      .catch((error: unknown) => error);
    expect((none as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    await restartGateway();
    const otherSpace = await client.embeddings
      .create({ model: `openai/${SMALL}`, input: "stay" }, { headers: { "x-detour-fallbacks": "openai/text-embedding-3-large" } })
      .catch((error: unknown) => error);
    expect((otherSpace as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    expect(new Set(mock.requests().map((request) => request.model))).toEqual(new Set([SMALL]));
  });

  it("answers an error when nothing in the model's space can serve, and never tries another space", async () => {
    mock.setScenario([{ match: { model: "text-embedding-3-large" }, steps: ["rate-limit"], then: "repeat-last" }]);
    const failure = await client.embeddings
      .create({ model: "openai/text-embedding-3-large", input: "nowhere" })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    expect(new Set(mock.requests().map((request) => request.model))).toEqual(new Set(["text-embedding-3-large"]));
    expect(mock.counts().total).toBe(2);
  });

  it("translates Ollama's /api/embed both ways, base64 included", async () => {
    const data = await client.embeddings.create({ model: "ollama/nomic-embed-text", input: ["local one", "local two"], dimensions: 6 });
    expect(data.data.map((item) => item.embedding)).toEqual([
      mockEmbedding("nomic-embed-text", "local one", 6),
      mockEmbedding("nomic-embed-text", "local two", 6),
    ]);
    expect(data.usage.prompt_tokens).toBeGreaterThan(0);
    const sent = mock.requests().at(-1);
    expect(sent?.path).toBe("/api/embed");
    expect(sent?.body).toEqual({ model: "nomic-embed-text", input: ["local one", "local two"], dimensions: 6 });
  });

  it("rejects a malformed request with a 400 naming the field, before any upstream call", async () => {
    const failure = await client.embeddings
      .create({ model: `openai/${SMALL}`, input: 42 as unknown as string })
      .catch((error: unknown) => error);
    expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    expect(String((failure as Error).message)).toContain("input");
    expect(mock.counts().total).toBe(0);
  });
});
