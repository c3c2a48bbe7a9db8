/**
 * `POST /v1/messages/count_tokens` end to end with the official `@anthropic-ai/sdk` (`messages.countTokens`):
 * forwarded to the chain's Anthropic candidates with credentials swapped and profiles rotated on failure, the
 * provider's exact count returned as is; the estimate (`x-detour-estimate: true`) only when no Anthropic
 * candidate can answer.
 */
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "../../src/gateway/start-gateway.js";
import { startMockProvider, type MockProvider } from "../../src/testing/mock-provider/index.js";
import { apiKeyProfiles, MOVE_ON_AT_ONCE } from "./fixtures/gateway-harness.js";

const TOKEN = "e2e-count-client-token-6e2a";
const KEYS = { a: "sk-ant-e2e-count-a-1111111111", b: "sk-ant-e2e-count-b-2222222222", openai: "sk-e2e-count-openai-3333333333" };
const MESSAGES: Anthropic.MessageParam[] = [{ role: "user", content: "How many tokens does this sentence take, exactly?" }];

let mock: MockProvider;
let gateway: RunningGateway;
let client: Anthropic;

beforeAll(async () => {
  mock = await startMockProvider();
});

beforeEach(async () => {
  mock.setScenario("healthy");
  mock.reset();
  await gateway?.close();
  gateway = await startGateway({
    config: {
      models: {
        providers: {
          anthropic: { api: "anthropic-messages", baseUrl: mock.url, timeoutSeconds: 5 },
          openai: { api: "openai-chat", baseUrl: `${mock.url}/v1`, timeoutSeconds: 5 },
        },
      },
      auth: {
        profiles: apiKeyProfiles({ "anthropic:a": "COUNT_A", "anthropic:b": "COUNT_B", "openai:a": "COUNT_OPENAI" }),
        order: { anthropic: ["anthropic:a", "anthropic:b"] },
      },
      agents: {
        defaults: {
          model: { primary: "anthropic/mock-claude", fallbacks: [] },
          modelFailover: MOVE_ON_AT_ONCE,
        },
      },
      gateway: { auth: { tokens: [TOKEN] } },
      state: { backend: "memory" },
    },
    port: 0,
    env: { COUNT_A: KEYS.a, COUNT_B: KEYS.b, COUNT_OPENAI: KEYS.openai },
  });
  client = new Anthropic({ baseURL: gateway.url, apiKey: TOKEN, maxRetries: 0 });
});

afterAll(async () => {
  await gateway?.close();
  await mock?.close();
});

describe("POST /v1/messages/count_tokens", () => {
  it("returns the Anthropic provider's exact count, with no estimate header, the client's body forwarded", async () => {
    const { data, response } = await client.messages.countTokens({ model: "anthropic/mock-claude", messages: MESSAGES }).withResponse();
    // The mock counts the way it later reports usage for the same messages.
    const answer = await client.messages.create({ model: "anthropic/mock-claude", max_tokens: 32, messages: MESSAGES });
    expect(data.input_tokens).toBe(answer.usage.input_tokens);
    expect(response.headers.get("x-detour-estimate")).toBeNull();
    expect(response.headers.get("x-detour-model")).toBe("anthropic/mock-claude");
    expect(response.headers.get("x-detour-profile")).toBe("anthropic:a");
    const forwarded = mock.requests().find((request) => request.path === "/v1/messages/count_tokens");
    expect(forwarded?.body).toEqual({ model: "mock-claude", messages: MESSAGES });
    expect(forwarded?.headers["anthropic-version"]).toBeDefined();
  });

  it("R-CD-1: a 429 on the first key rotates to the second; the first is put on cooldown", async () => {
    mock.setScenario([{ match: { key: KEYS.a }, steps: [{ fault: "rate-limit", retryAfterSeconds: 60 }], then: "repeat-last" }]);
    const { data, response } = await client.messages.countTokens({ model: "anthropic/mock-claude", messages: MESSAGES }).withResponse();
    expect(data.input_tokens).toBeGreaterThan(0);
    expect(response.headers.get("x-detour-estimate")).toBeNull();
    expect(response.headers.get("x-detour-profile")).toBe("anthropic:b");
    expect(mock.counts().byKey).toEqual({ [KEYS.a]: 1, [KEYS.b]: 1 });
    const status = (await (await fetch(`${gateway.url}/status`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as {
      profiles: { id: string; usableNow: boolean; unusableReason?: string }[];
    };
    expect(status.profiles.find((profile) => profile.id === "anthropic:a")).toMatchObject({
      usableNow: false,
      unusableReason: "rate_limit",
    });
  });

  it("estimates (x-detour-estimate: true) without calling anyone when no candidate speaks Anthropic Messages", async () => {
    const { data, response } = await client.messages
      .countTokens({ model: "openai/mock-gpt", messages: MESSAGES }, { headers: { "x-detour-fallbacks": "none" } })
      .withResponse();
    expect(response.headers.get("x-detour-estimate")).toBe("true");
    expect(data.input_tokens).toBeGreaterThan(0);
    expect(mock.counts().total).toBe(0);
  });

  it("estimates when every Anthropic candidate fails", async () => {
    mock.setScenario([{ match: { api: "anthropic" }, steps: ["overloaded"], then: "repeat-last" }]);
    const { response } = await client.messages.countTokens({ model: "anthropic/mock-claude", messages: MESSAGES }).withResponse();
    expect(response.headers.get("x-detour-estimate")).toBe("true");
    expect(mock.counts().total).toBeGreaterThanOrEqual(2);
  });

  it("R-GW-9: the provider's verdict on the request itself is answered, not estimated over", async () => {
    mock.setScenario([{ match: { api: "anthropic" }, steps: ["context-overflow"], then: "repeat-last" }]);
    const failure = await client.messages
      .countTokens({ model: "anthropic/mock-claude", messages: MESSAGES })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect((failure as InstanceType<typeof Anthropic.APIError>).status).toBe(400);
  });

  it("R-NT-1 passing over a chain's OpenAI primary is no fallback: no notice, nothing counted as a fallback", async () => {
    // The chain starts with an OpenAI model, which has no count endpoint (as a `detour` chain with an OpenAI primary).
    const { data, response } = await client.messages
      .countTokens({ model: "openai/mock-gpt", messages: MESSAGES }, { headers: { "x-detour-fallbacks": "anthropic/mock-claude" } })
      .withResponse();
    expect(data.input_tokens).toBeGreaterThan(0);
    expect(response.headers.get("x-detour-model")).toBe("anthropic/mock-claude");
    expect(response.headers.get("x-detour-notice")).toBeNull();
    expect(response.headers.get("x-detour-estimate")).toBeNull();
    const authorization = { authorization: `Bearer ${TOKEN}` };
    const metrics = await (await fetch(`${gateway.url}/metrics`, { headers: authorization })).text();
    expect(metrics).not.toMatch(/^detour_fallbacks_total\{/m);
    const activity = (await (await fetch(`${gateway.url}/dashboard/activity`, { headers: authorization })).json()) as {
      totals: { fallbacks: number };
    };
    expect(activity.totals.fallbacks).toBe(0);
  });
});
