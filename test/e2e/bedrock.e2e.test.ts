/**
 * Claude on Anthropic and on AWS Bedrock, through the gateway with the official `@anthropic-ai/sdk` and `openai`
 * clients against the mock provider's Bedrock paths (SPEC R-GW-12): every Bedrock request SigV4-signed with
 * the profile's keys and checked by the mock, Anthropic's 529 and Bedrock's ThrottlingException failing over
 * to the same model in another region, streamed and not, and an Anthropic client's cache_control, thinking and
 * tools reaching Bedrock (R-GW-6).
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import type { DetourConfigInput } from "../../src/config/index.js";
import { decodeNoticeHeader } from "../../src/core/notices.js";
import { startGateway, type RunningGateway } from "../../src/gateway/start-gateway.js";
import { startMockProvider, type MockProvider, type MockScenarioSelection } from "../../src/testing/mock-provider/index.js";
import { MOCK_AWS_CREDENTIALS } from "../../src/testing/mock-provider/wire/bedrock-wire.js";

const CLIENT_TOKEN = "bedrock-e2e-client-token";
const ANTHROPIC_KEY = "sk-ant-bedrock-e2e-4444444444";
const [EAST_KEY_ID, WEST_KEY_ID] = Object.keys(MOCK_AWS_CREDENTIALS) as [string, string];
const CLAUDE = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const CHAIN = { primary: "anthropic/claude-sonnet-4-5", fallbacks: [`bedrock-east/${CLAUDE}`, `bedrock-west/${CLAUDE}`] };

interface Running {
  mock: MockProvider;
  gateway: RunningGateway;
  anthropic: Anthropic;
  openai: OpenAI;
  sent: string[];
}

let running: Running | undefined;
afterEach(async () => {
  await running?.gateway.close();
  await running?.mock.close();
  running = undefined;
});

function config(mockUrl: string, model: { primary: string; fallbacks: string[] }): DetourConfigInput {
  return {
    models: {
      providers: {
        anthropic: { api: "anthropic-messages", baseUrl: mockUrl, timeoutSeconds: 5 },
        "bedrock-east": { api: "bedrock", baseUrl: mockUrl, region: "us-east-1", timeoutSeconds: 5 },
        "bedrock-west": { api: "bedrock", baseUrl: mockUrl, region: "us-west-2", timeoutSeconds: 5 },
      },
    },
    auth: {
      profiles: {
        "anthropic:work": { provider: "anthropic", mode: "api_key", keyRef: { env: "BEDROCK_E2E_ANTHROPIC" } },
        "bedrock-east:keys": { provider: "bedrock-east", mode: "api_key", keyRef: { env: "BEDROCK_E2E_EAST" } },
        "bedrock-west:keys": { provider: "bedrock-west", mode: "api_key", keyRef: { env: "BEDROCK_E2E_WEST" } },
      },
    },
    agents: {
      defaults: {
        model,
        modelFailover: {
          retrySameProfileOnTimeout: 0,
          retrySameProfileOnServerError: 0,
          shortWaitSeconds: 0,
          waitForCooldownMaxSeconds: 0,
          hedging: { enabled: false },
        },
      },
    },
    gateway: { ttftTimeoutSeconds: 2, streamStallSeconds: 2, auth: { tokens: [CLIENT_TOKEN] } },
    state: { backend: "memory" },
  };
}

async function start(model: { primary: string; fallbacks: string[] }, scenario: MockScenarioSelection = "healthy"): Promise<Running> {
  const mock = await startMockProvider({ scenario });
  const gateway = await startGateway({
    config: config(mock.url, model),
    port: 0,
    env: {
      BEDROCK_E2E_ANTHROPIC: ANTHROPIC_KEY,
      // A Bedrock profile's key is its AWS key pair, ACCESS_KEY_ID:SECRET_ACCESS_KEY.
      BEDROCK_E2E_EAST: `${EAST_KEY_ID}:${MOCK_AWS_CREDENTIALS[EAST_KEY_ID]}`,
      BEDROCK_E2E_WEST: `${WEST_KEY_ID}:${MOCK_AWS_CREDENTIALS[WEST_KEY_ID]}`,
    },
  }).catch(async (error: unknown) => {
    await mock.close();
    throw error;
  });
  const sent: string[] = [];
  const recordingFetch: typeof fetch = (input, init) => {
    if (typeof init?.body === "string") sent.push(init.body);
    return fetch(input, init);
  };
  running = {
    mock,
    gateway,
    sent,
    // No SDK retries: every retry decision is the gateway's.
    anthropic: new Anthropic({ baseURL: gateway.url, apiKey: CLIENT_TOKEN, maxRetries: 0, timeout: 15_000, fetch: recordingFetch }),
    openai: new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: CLIENT_TOKEN, maxRetries: 0, timeout: 15_000 }),
  };
  return running;
}

/** Anthropic is overloaded (529); Bedrock in us-east-1 throttles; us-west-2 answers. */
const OVERLOADED_THEN_THROTTLED: MockScenarioSelection = [
  { match: { key: ANTHROPIC_KEY }, steps: ["overloaded"], then: "repeat-last" },
  { match: { key: EAST_KEY_ID }, steps: ["rate-limit"], then: "repeat-last" },
  { match: { key: WEST_KEY_ID }, steps: ["ok"], then: "repeat-last" },
];
const claudeAsk = { model: "detour", max_tokens: 256, messages: [{ role: "user" as const, content: "hi" }] };
const WEST = `bedrock-west/${CLAUDE}`;

async function streamedText(stream: AsyncIterable<Anthropic.MessageStreamEvent>): Promise<string> {
  let text = "";
  for await (const event of stream) {
    if (event.type === "content_block_delta" && event.delta.type === "text_delta") text += event.delta.text;
  }
  return text;
}

function bedrockPaths(mock: MockProvider): string[] {
  return mock
    .requests()
    .map((request) => request.path)
    .filter((path) => path.startsWith("/model/"));
}

describe("Claude on Anthropic and on AWS Bedrock", () => {
  it("R-GW-12: Anthropic's 529 and then Bedrock's ThrottlingException are answered by the same Claude model in another region", async () => {
    const { anthropic, mock } = await start(CHAIN, OVERLOADED_THEN_THROTTLED);
    const { data, response } = await anthropic.messages.create(claudeAsk).withResponse();
    expect(data.content[0]).toMatchObject({ type: "text" });
    expect(data.model).toBe(WEST);
    expect(response.headers.get("x-detour-model")).toBe(WEST);
    expect(decodeNoticeHeader(response.headers.get("x-detour-notice") ?? "")).toContain("bedrock-west");
    expect(mock.requests().map((request) => request.fault)).toEqual(["overloaded", "rate-limit", "ok"]);
    expect(bedrockPaths(mock)).toEqual([
      "/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream",
      "/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream",
    ]);
  });

  it("R-GW-12: streamed, Anthropic's 529 and Bedrock's ThrottlingException are answered by the other region's event stream", async () => {
    const { anthropic, mock } = await start(CHAIN, OVERLOADED_THEN_THROTTLED);
    const { data: stream, response } = await anthropic.messages.create({ ...claudeAsk, stream: true }).withResponse();
    expect(await streamedText(stream)).toMatch(/\S/);
    expect(response.headers.get("x-detour-model")).toBe(WEST);
    expect(mock.requests().map((request) => request.fault)).toEqual(["overloaded", "rate-limit", "ok"]);
    expect(mock.counts().byKey).toMatchObject({ [ANTHROPIC_KEY]: 1, [EAST_KEY_ID]: 1, [WEST_KEY_ID]: 1 });
  });

  it("R-GW-12: a ThrottlingException inside Bedrock's stream, before any token, fails over like one before it", async () => {
    const { anthropic, mock } = await start({ primary: `bedrock-east/${CLAUDE}`, fallbacks: [WEST] }, [
      { match: { key: EAST_KEY_ID }, steps: [{ fault: "stream-error", error: "rate-limit", afterTokens: 0 }], then: "repeat-last" },
    ]);
    const { data: stream, response } = await anthropic.messages.create({ ...claudeAsk, stream: true }).withResponse();
    expect(await streamedText(stream)).toMatch(/\S/);
    expect(response.headers.get("x-detour-model")).toBe(WEST);
    expect(mock.requests().map((request) => request.fault)).toEqual(["stream-error", "ok"]);
  });

  it("R-GW-6: an Anthropic client's cache_control, thinking and tools reach Claude on Bedrock; model and stream leave, anthropic_version joins", async () => {
    const { anthropic, mock, sent } = await start({ primary: `bedrock-east/${CLAUDE}`, fallbacks: [] });
    await anthropic.messages.create({
      model: "detour",
      max_tokens: 4096,
      thinking: { type: "enabled", budget_tokens: 2048 },
      system: [{ type: "text", text: "You are a careful assistant.", cache_control: { type: "ephemeral" } }],
      tools: [
        {
          name: "get_weather",
          description: "The weather in a city",
          input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          cache_control: { type: "ephemeral" },
        },
      ],
      tool_choice: { type: "auto" },
      metadata: { user_id: "user-42" },
      messages: [{ role: "user", content: [{ type: "text", text: "Weather in Oslo?", cache_control: { type: "ephemeral" } }] }],
    });
    const client = JSON.parse(sent[0] ?? "{}") as Record<string, unknown>;
    const { model: _model, ...carried } = client;
    const [received] = mock.requests();
    expect(received?.path).toMatch(/^\/model\/us\.anthropic\.claude-sonnet-4-5-20250929-v1%3A0\/invoke(-with-response-stream)?$/);
    expect(received?.body).toEqual({ ...carried, anthropic_version: "bedrock-2023-05-31" });
  });

  it("R-GW-12: an OpenAI client is answered by Claude on Bedrock, streamed, across wire formats", async () => {
    const { openai, mock } = await start({ primary: `bedrock-west/${CLAUDE}`, fallbacks: [] });
    const { data: stream, response } = await openai.chat.completions
      .create({ model: "detour", messages: [{ role: "user", content: "hi" }], stream: true })
      .withResponse();
    let text = "";
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toMatch(/\S/);
    expect(finish).toBe("stop");
    expect(response.headers.get("x-detour-model")).toBe(WEST);
    expect(bedrockPaths(mock)).toEqual(["/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream"]);
  });
});

const LLAMA = "meta.llama3-3-70b-instruct-v1:0";
const LLAMA_WEST = `bedrock-west/${LLAMA}`;
const LLAMA_CHAIN = { primary: `bedrock-east/${LLAMA}`, fallbacks: [LLAMA_WEST] };
/** us-east-1 throttles every Converse call; us-west-2 answers. */
const EAST_THROTTLED: MockScenarioSelection = [
  { match: { api: "bedrock", key: EAST_KEY_ID }, steps: ["rate-limit"], then: "repeat-last" },
  { match: { api: "bedrock", key: WEST_KEY_ID }, steps: ["ok"], then: "repeat-last" },
];
const LLAMA_PATH = `/model/${encodeURIComponent(LLAMA)}`;

describe("A model on Bedrock's Converse API", () => {
  it("R-GW-12: an OpenAI client's request reaches Llama on Converse; us-east-1's ThrottlingException is answered by us-west-2", async () => {
    const { openai, mock } = await start(LLAMA_CHAIN, EAST_THROTTLED);
    const { data, response } = await openai.chat.completions
      .create({ model: "detour", max_tokens: 64, temperature: 0.3, messages: [{ role: "user", content: "hi from openai" }] })
      .withResponse();
    expect(data.choices[0]?.message.content).toContain(`Hello from ${LLAMA}`);
    expect(data.choices[0]?.finish_reason).toBe("stop");
    expect(data.usage?.completion_tokens).toBeGreaterThan(0);
    expect(response.headers.get("x-detour-model")).toBe(LLAMA_WEST);
    expect(decodeNoticeHeader(response.headers.get("x-detour-notice") ?? "")).toContain("bedrock-west");
    const calls = mock.requests();
    expect(calls.map((request) => [request.api, request.fault])).toEqual([
      ["bedrock", "rate-limit"],
      ["bedrock", "ok"],
    ]);
    expect(calls.every((request) => request.path.startsWith(`${LLAMA_PATH}/converse`))).toBe(true);
    // Converse's own body: the model is in the path, the settings in inferenceConfig.
    expect(calls[1]?.body).toEqual({
      messages: [{ role: "user", content: [{ text: "hi from openai" }] }],
      inferenceConfig: { maxTokens: 64, temperature: 0.3 },
    });
    expect(mock.counts().byKey).toMatchObject({ [EAST_KEY_ID]: 1, [WEST_KEY_ID]: 1 });
  });

  it("R-GW-12: streamed, an OpenAI client gets us-west-2's ConverseStream after us-east-1's ThrottlingException", async () => {
    const { openai, mock } = await start(LLAMA_CHAIN, EAST_THROTTLED);
    const { data: stream, response } = await openai.chat.completions
      .create({
        model: "detour",
        messages: [{ role: "user", content: "stream it" }],
        stream: true,
        stream_options: { include_usage: true },
      })
      .withResponse();
    let text = "";
    let finish: string | null | undefined;
    let outputTokens: number | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      outputTokens = chunk.usage?.completion_tokens ?? outputTokens;
    }
    expect(text).toContain(`Hello from ${LLAMA}`);
    expect(finish).toBe("stop");
    expect(outputTokens).toBeGreaterThan(0);
    expect(response.headers.get("x-detour-model")).toBe(LLAMA_WEST);
    expect(mock.requests().map((request) => [request.path, request.fault])).toEqual([
      [`${LLAMA_PATH}/converse-stream`, "rate-limit"],
      [`${LLAMA_PATH}/converse-stream`, "ok"],
    ]);
  });

  it("R-GW-12: a ThrottlingException inside us-east-1's ConverseStream, before any token, fails over to us-west-2", async () => {
    const { openai, mock } = await start(LLAMA_CHAIN, [
      {
        match: { api: "bedrock", key: EAST_KEY_ID },
        steps: [{ fault: "stream-error", error: "rate-limit", afterTokens: 0 }],
        then: "repeat-last",
      },
    ]);
    const { data: stream, response } = await openai.chat.completions
      .create({ model: "detour", messages: [{ role: "user", content: "hi" }], stream: true })
      .withResponse();
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toContain(`Hello from ${LLAMA}`);
    expect(response.headers.get("x-detour-model")).toBe(LLAMA_WEST);
    expect(mock.requests().map((request) => request.fault)).toEqual(["stream-error", "ok"]);
  });
});

describe("An Anthropic client's beta flags on Bedrock", () => {
  it("R-GW-12: the client's anthropic-beta header reaches Claude on Bedrock in the InvokeModel body as anthropic_beta", async () => {
    const { anthropic, mock } = await start({ primary: `bedrock-east/${CLAUDE}`, fallbacks: [] });
    await anthropic.messages.create(claudeAsk, {
      headers: { "anthropic-beta": "context-1m-2025-08-07, interleaved-thinking-2025-05-14" },
    });
    await anthropic.messages.create(claudeAsk);
    const [withBetas, without] = mock.requests();
    expect(withBetas?.body).toMatchObject({
      anthropic_version: "bedrock-2023-05-31",
      anthropic_beta: ["context-1m-2025-08-07", "interleaved-thinking-2025-05-14"],
    });
    expect(without?.body).not.toHaveProperty("anthropic_beta");
    // Bedrock reads no anthropic-beta header: the flags are in the body only.
    expect(withBetas?.headers).not.toHaveProperty("anthropic-beta");
  });
});
