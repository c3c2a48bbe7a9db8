/**
 * Claude on Anthropic and on AWS Bedrock, through the gateway with the official `@anthropic-ai/sdk` and `openai`
 * clients against the mock provider's Bedrock paths (SPEC R-GW-12): every Bedrock request SigV4-signed with
 * the profile's keys and checked by the mock, Anthropic's 529 and Bedrock's ThrottlingException failing over
 * to the same model in another region, streamed and not, and an Anthropic client's cache_control, thinking and
 * tools reaching Bedrock (R-GW-6).
 */
import { describe, expect, it } from "vitest";
import { decodeNoticeHeader } from "../../src/core/notices.js";
import type { MockProvider, MockScenarioSelection } from "../../src/testing/mock-provider/index.js";
import { MOCK_AWS_CREDENTIALS } from "../../src/testing/mock-provider/wire/bedrock-wire.js";
import { awsKeyPair, CLAUDE_FEATURES_REQUEST, cloudGatewayPerTest, sentWithoutModel } from "./fixtures/cloud-gateway.js";
import { readChatStream, streamedText } from "./fixtures/read-streams.js";

const ANTHROPIC_KEY = "sk-ant-bedrock-e2e-4444444444";
const [EAST_KEY_ID, WEST_KEY_ID] = Object.keys(MOCK_AWS_CREDENTIALS) as [string, string];
const CLAUDE = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const CHAIN = { primary: "anthropic/claude-sonnet-4-5", fallbacks: [`bedrock-east/${CLAUDE}`, `bedrock-west/${CLAUDE}`] };

const start = cloudGatewayPerTest({
  clientToken: "bedrock-e2e-client-token",
  providers: (mockUrl) => ({
    anthropic: { api: "anthropic-messages", baseUrl: mockUrl, timeoutSeconds: 5 },
    "bedrock-east": { api: "bedrock", baseUrl: mockUrl, region: "us-east-1", timeoutSeconds: 5 },
    "bedrock-west": { api: "bedrock", baseUrl: mockUrl, region: "us-west-2", timeoutSeconds: 5 },
  }),
  keys: { "anthropic:work": ANTHROPIC_KEY, "bedrock-east:keys": awsKeyPair(EAST_KEY_ID), "bedrock-west:keys": awsKeyPair(WEST_KEY_ID) },
});

/** Anthropic is overloaded (529); Bedrock in us-east-1 throttles; us-west-2 answers. */
const OVERLOADED_THEN_THROTTLED: MockScenarioSelection = [
  { match: { key: ANTHROPIC_KEY }, steps: ["overloaded"], then: "repeat-last" },
  { match: { key: EAST_KEY_ID }, steps: ["rate-limit"], then: "repeat-last" },
  { match: { key: WEST_KEY_ID }, steps: ["ok"], then: "repeat-last" },
];
const claudeAsk = { model: "detour", max_tokens: 256, messages: [{ role: "user" as const, content: "hi" }] };
const WEST = `bedrock-west/${CLAUDE}`;

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
    await anthropic.messages.create(CLAUDE_FEATURES_REQUEST);
    const carried = sentWithoutModel(sent);
    const [received] = mock.requests();
    expect(received?.path).toMatch(/^\/model\/us\.anthropic\.claude-sonnet-4-5-20250929-v1%3A0\/invoke(-with-response-stream)?$/);
    expect(received?.body).toEqual({ ...carried, anthropic_version: "bedrock-2023-05-31" });
  });

  it("R-GW-12: an OpenAI client is answered by Claude on Bedrock, streamed, across wire formats", async () => {
    const { openai, mock } = await start({ primary: `bedrock-west/${CLAUDE}`, fallbacks: [] });
    const { data: stream, response } = await openai.chat.completions
      .create({ model: "detour", messages: [{ role: "user", content: "hi" }], stream: true })
      .withResponse();
    const { text, finish } = await readChatStream(stream);
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
    const { text, finish, outputTokens } = await readChatStream(stream);
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
    expect((await readChatStream(stream)).text).toContain(`Hello from ${LLAMA}`);
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
