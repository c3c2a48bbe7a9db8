/**
 * The same model on several clouds, through the gateway with the official `openai` and `@anthropic-ai/sdk`
 * clients against the mock provider's cloud paths (SPEC R-GW-12): one GPT deployment in two Azure regions
 * rotating on a 429 whose `retry-after-ms` is the reset, Claude on Anthropic and on Vertex AI failing over on
 * 529 and on RESOURCE_EXHAUSTED, and an Anthropic client's request reaching Vertex with its cache_control,
 * thinking and tools (R-GW-6).
 */
import { describe, expect, it } from "vitest";
import { decodeNoticeHeader } from "../../src/core/notices.js";
import { fingerprintKey, type MockProvider, type MockScenarioSelection } from "../../src/testing/mock-provider/index.js";
import { CLAUDE_FEATURES_REQUEST, cloudGatewayPerTest, sentWithoutModel, serviceAccountKey } from "./fixtures/cloud-gateway.js";
import { readChatStream, streamedText } from "./fixtures/read-streams.js";

const KEYS = {
  azureEast: "azure-east-key-1111111111",
  azureWest: "azure-west-key-2222222222",
  anthropic: "sk-ant-cloud-e2e-3333333333",
} as const;
const SERVICE_ACCOUNT = "detour-e2e@acme-ai.iam.gserviceaccount.com";
const SERVICE_ACCOUNT_KEY = serviceAccountKey(SERVICE_ACCOUNT, "e2e-key");
const VERTEX_CLAUDE = "claude-sonnet-4-6@20260101";

const start = cloudGatewayPerTest({
  clientToken: "cloud-e2e-client-token",
  providers: (mockUrl) => ({
    anthropic: { api: "anthropic-messages", baseUrl: mockUrl, timeoutSeconds: 5 },
    vertex: {
      api: "vertex",
      baseUrl: `${mockUrl}/v1`,
      timeoutSeconds: 5,
      vertex: { project: "acme-ai", location: "us-east5", publisher: "anthropic", tokenUrl: `${mockUrl}/token` },
    },
    "vertex-gemini": {
      api: "vertex",
      baseUrl: `${mockUrl}/v1`,
      timeoutSeconds: 5,
      vertex: { project: "acme-ai", location: "global", publisher: "google", tokenUrl: `${mockUrl}/token` },
    },
    "azure-east": {
      api: "azure-openai",
      baseUrl: mockUrl,
      timeoutSeconds: 5,
      azure: { apiVersion: "2024-10-21" },
      models: [{ id: "gpt-4o", deployment: "gpt4o-eastus" }],
    },
    "azure-west": {
      api: "azure-openai",
      baseUrl: mockUrl,
      timeoutSeconds: 5,
      models: [{ id: "gpt-4o", deployment: "gpt4o-westeurope" }],
    },
  }),
  keys: {
    "anthropic:work": KEYS.anthropic,
    "vertex:sa": SERVICE_ACCOUNT_KEY,
    "vertex-gemini:sa": SERVICE_ACCOUNT_KEY,
    "azure-east:key": KEYS.azureEast,
    "azure-west:key": KEYS.azureWest,
  },
});

const AZURE_CHAIN = { primary: "azure-east/gpt-4o", fallbacks: ["azure-west/gpt-4o"] };
/** East answers 429 "exceeded call rate limit" with `retry-after-ms: 1500`, every time it is asked. */
const EAST_RETRY_AFTER_SECONDS = 1.5;
const EAST_THROTTLED: MockScenarioSelection = [
  { match: { key: KEYS.azureEast }, steps: [{ fault: "rate-limit", retryAfterSeconds: EAST_RETRY_AFTER_SECONDS }], then: "repeat-last" },
];
const ask = (text: string) => ({ model: "detour", messages: [{ role: "user" as const, content: text }] });

function noticeOf(response: Response): string {
  return decodeNoticeHeader(response.headers.get("x-detour-notice") ?? "");
}

function azurePaths(mock: MockProvider): string[] {
  return mock.requests().map((request) => request.path.replace(/\?.*$/, ""));
}

describe("Azure OpenAI in two regions", () => {
  it("R-GW-12: a 429 in one region is answered by the same model in the other, and retry-after-ms is the region's reset", async () => {
    const { openai, mock } = await start(AZURE_CHAIN, EAST_THROTTLED);
    const { data, response } = await openai.chat.completions.create(ask("hi")).withResponse();
    expect(data.choices[0]?.message.content).toContain(fingerprintKey(KEYS.azureWest));
    expect(response.headers.get("x-detour-model")).toBe("azure-west/gpt-4o");
    expect(noticeOf(response)).toMatch(/azure-west\/gpt-4o/);
    expect(azurePaths(mock)).toEqual([
      "/openai/deployments/gpt4o-eastus/chat/completions",
      "/openai/deployments/gpt4o-westeurope/chat/completions",
    ]);
    expect(mock.requests().every((request) => request.path.endsWith("?api-version=2024-10-21"))).toBe(true);

    const throttledAt = Date.now();
    // While east's stated 1.5 s run, the next request goes straight to west ...
    await openai.chat.completions.create(ask("again"));
    expect(Date.now() - throttledAt).toBeLessThan(EAST_RETRY_AFTER_SECONDS * 1000);
    expect(mock.counts().byKey[KEYS.azureEast]).toBe(1);
    // ... and once they are over, east is asked again (no longer cooldown than it stated).
    await new Promise((resolve) => setTimeout(resolve, EAST_RETRY_AFTER_SECONDS * 1000 + 200 - (Date.now() - throttledAt)));
    await openai.chat.completions.create(ask("later"));
    expect(mock.counts().byKey[KEYS.azureEast]).toBe(2);
  });

  it("R-GW-12: streamed, the 429 in one region is answered by the other region's stream", async () => {
    const { openai, mock } = await start(AZURE_CHAIN, EAST_THROTTLED);
    const { data: stream, response } = await openai.chat.completions.create({ ...ask("hi"), stream: true }).withResponse();
    const { text, model } = await readChatStream(stream);
    expect(text).toContain(fingerprintKey(KEYS.azureWest));
    expect(model).toBe("azure-west/gpt-4o");
    expect(response.headers.get("x-detour-model")).toBe("azure-west/gpt-4o");
    expect(mock.counts().byKey).toMatchObject({ [KEYS.azureEast]: 1, [KEYS.azureWest]: 1 });
  });

  it("R-GW-6: an OpenAI client's bytes reach the Azure deployment unchanged but model", async () => {
    const { openai, mock } = await start({ primary: "azure-east/gpt-4o", fallbacks: [] });
    await openai.chat.completions.create({
      model: "detour",
      messages: [{ role: "user", content: "hi" }],
      temperature: 0.2,
      logit_bias: { "50256": -100 },
      seed: 7,
    });
    const [received] = mock.requests();
    expect(received?.path).toBe("/openai/deployments/gpt4o-eastus/chat/completions?api-version=2024-10-21");
    expect(received?.body).toMatchObject({
      model: "gpt-4o",
      temperature: 0.2,
      logit_bias: { "50256": -100 },
      seed: 7,
      messages: [{ role: "user", content: "hi" }],
    });
  });
});

const CLAUDE_ON_ANTHROPIC_THEN_VERTEX = { primary: "anthropic/claude-sonnet-4-6", fallbacks: [`vertex/${VERTEX_CLAUDE}`] };
const CLAUDE_ON_VERTEX_THEN_ANTHROPIC = { primary: `vertex/${VERTEX_CLAUDE}`, fallbacks: ["anthropic/claude-sonnet-4-6"] };
const ANTHROPIC_OVERLOADED: MockScenarioSelection = [{ match: { key: KEYS.anthropic }, steps: ["overloaded"], then: "repeat-last" }];
const VERTEX_EXHAUSTED: MockScenarioSelection = [{ match: { model: "claude-sonnet-4-6@*" }, steps: ["rate-limit"], then: "repeat-last" }];
const claudeAsk = { model: "detour", max_tokens: 256, messages: [{ role: "user" as const, content: "hi" }] };

describe("Claude on Anthropic and on Vertex AI", () => {
  it("R-GW-12: Anthropic's 529 is answered by the same Claude model on Vertex", async () => {
    const { anthropic, mock } = await start(CLAUDE_ON_ANTHROPIC_THEN_VERTEX, ANTHROPIC_OVERLOADED);
    const { data, response } = await anthropic.messages.create(claudeAsk).withResponse();
    expect(data.content[0]).toMatchObject({ type: "text" });
    expect(data.model).toBe(`vertex/${VERTEX_CLAUDE}`);
    expect(noticeOf(response)).toMatch(/vertex\/claude-sonnet-4-6@20260101/);
    const paths = mock.requests().map((request) => request.path);
    expect(paths[0]).toBe("/v1/messages");
    expect(paths[1]).toBe(`/v1/projects/acme-ai/locations/us-east5/publishers/anthropic/models/${VERTEX_CLAUDE}:streamRawPredict`);
    expect(mock.tokenGrants().map((grant) => grant.account)).toEqual([SERVICE_ACCOUNT]);
  });

  it("R-GW-12: streamed, Anthropic's 529 is answered by Vertex's stream", async () => {
    const { anthropic, mock } = await start(CLAUDE_ON_ANTHROPIC_THEN_VERTEX, ANTHROPIC_OVERLOADED);
    const { data: stream, response } = await anthropic.messages.create({ ...claudeAsk, stream: true }).withResponse();
    expect(await streamedText(stream)).toMatch(/\S/);
    expect(response.headers.get("x-detour-model")).toBe(`vertex/${VERTEX_CLAUDE}`);
    expect(mock.counts().byModel).toMatchObject({ "claude-sonnet-4-6": 1, [VERTEX_CLAUDE]: 1 });
  });

  it("R-GW-12: Vertex's RESOURCE_EXHAUSTED is answered by the same Claude model on Anthropic", async () => {
    const { anthropic, mock } = await start(CLAUDE_ON_VERTEX_THEN_ANTHROPIC, VERTEX_EXHAUSTED);
    const { data, response } = await anthropic.messages.create(claudeAsk).withResponse();
    expect(data.model).toBe("anthropic/claude-sonnet-4-6");
    expect(noticeOf(response)).toMatch(/anthropic\/claude-sonnet-4-6/);
    expect(mock.requests().map((request) => request.fault)).toEqual(["rate-limit", "ok"]);
  });

  it("R-GW-12: streamed, Vertex's RESOURCE_EXHAUSTED is answered by Anthropic's stream", async () => {
    const { anthropic, mock } = await start(CLAUDE_ON_VERTEX_THEN_ANTHROPIC, VERTEX_EXHAUSTED);
    const { data: stream, response } = await anthropic.messages.create({ ...claudeAsk, stream: true }).withResponse();
    expect(await streamedText(stream)).toMatch(/\S/);
    expect(response.headers.get("x-detour-model")).toBe("anthropic/claude-sonnet-4-6");
    expect(mock.requests().map((request) => request.fault)).toEqual(["rate-limit", "ok"]);
  });

  it("R-GW-6: an Anthropic client's cache_control, thinking and tools reach Claude on Vertex; only model leaves and anthropic_version joins", async () => {
    const { anthropic, mock, sent } = await start({ primary: `vertex/${VERTEX_CLAUDE}`, fallbacks: [] });
    await anthropic.messages.create(CLAUDE_FEATURES_REQUEST);
    const carried = sentWithoutModel(sent);
    const [received] = mock.requests();
    expect(received?.path).toMatch(/publishers\/anthropic\/models\/claude-sonnet-4-6@20260101:(stream)?RawPredict$/);
    // A non-streamed request goes upstream as a stream (R-ST-6): `stream: true` is the only other difference.
    expect(received?.body).toEqual({ ...carried, anthropic_version: "vertex-2023-10-16", stream: received?.stream });
    expect(received?.body).not.toHaveProperty("model");
  });
});

describe("Gemini on Vertex AI", () => {
  it("R-GW-12: an OpenAI client is answered by Gemini on Vertex when Claude's clouds are exhausted, streamed and not", async () => {
    const { openai, mock } = await start(
      { primary: `vertex/${VERTEX_CLAUDE}`, fallbacks: ["vertex-gemini/gemini-2.5-pro"] },
      VERTEX_EXHAUSTED,
    );
    const { data, response } = await openai.chat.completions.create(ask("hi")).withResponse();
    expect(data.choices[0]?.message.content).toMatch(/\S/);
    expect(response.headers.get("x-detour-model")).toBe("vertex-gemini/gemini-2.5-pro");
    const { data: stream } = await openai.chat.completions.create({ ...ask("again"), stream: true }).withResponse();
    expect((await readChatStream(stream)).text).toMatch(/\S/);
    const gemini = mock.requests().filter((request) => request.path.includes("/publishers/google/"));
    expect(gemini.map((request) => request.path.replace(/^.*models\//, ""))).toEqual([
      "gemini-2.5-pro:streamGenerateContent?alt=sse",
      "gemini-2.5-pro:streamGenerateContent?alt=sse",
    ]);
    expect(gemini[0]?.path).toMatch(/^\/v1\/projects\/acme-ai\/locations\/global\//);
  });
});
