/**
 * The fidelity matrix, same-wire half (SPEC R-GW-6, R-GW-7 usage details): the real `openai` and
 * `@anthropic-ai/sdk` clients against a capturing upstream. On the same-wire lane the request reaches the
 * provider byte for byte except `model` (and the `stream_options.include_usage` the lane adds), credentials
 * are swapped, and the answer and the stream reach the client byte for byte except the `model` that names
 * who answered (R-ST-3).
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "../../src/gateway/start-gateway.js";
import { startCapturingUpstream, type CapturingUpstream } from "./fixtures/capturing-upstream.js";
import { apiKeyProfiles } from "./fixtures/gateway-harness.js";

const CLIENT_TOKEN = "fidelity-client-token-1";
const OPENAI_KEY = "sk-fidelity-openai-aaaaaaaaaa";
const ANTHROPIC_KEY = "sk-ant-fidelity-bbbbbbbbbb";

const openaiUsage =
  '{"prompt_tokens":1200,"completion_tokens":40,"total_tokens":1240,"prompt_tokens_details":{"cached_tokens":1024,"audio_tokens":0},' +
  '"completion_tokens_details":{"reasoning_tokens":24,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}';
const OPENAI_JSON =
  '{"id":"chatcmpl-up1","object":"chat.completion","created":1700000000,"model":"up-gpt-2025-01-01","system_fingerprint":"fp_up",' +
  '"choices":[{"index":0,"message":{"role":"assistant","content":"{\\"ok\\":true}","refusal":null,"annotations":[]},' +
  '"logprobs":{"content":[{"token":"{","logprob":-0.01,"bytes":[123],"top_logprobs":[{"token":"{","logprob":-0.01,"bytes":[123]}]}],"refusal":null},' +
  `"finish_reason":"stop"}],"usage":${openaiUsage},"service_tier":"default"}`;
const chunk = (choices: string, usage = "null") =>
  `data: {"id":"chatcmpl-up1","object":"chat.completion.chunk","created":1700000000,"model":"up-gpt-2025-01-01","system_fingerprint":"fp_up","service_tier":"default","choices":${choices},"usage":${usage}}\n\n`;
const USAGE_CHUNK = chunk("[]", openaiUsage);
/** The same answer as OPENAI_JSON, streamed: what a non-streamed request's upstream stream assembles to (R-ST-6). */
const OPENAI_EVENTS = [
  chunk('[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}]'),
  chunk(
    '[{"index":0,"delta":{"content":"{"},"logprobs":{"content":[{"token":"{","logprob":-0.01,"bytes":[123],"top_logprobs":[{"token":"{","logprob":-0.01,"bytes":[123]}]}],"refusal":null},"finish_reason":null}]',
  ),
  chunk('[{"index":0,"delta":{"content":"\\"ok\\":true}"},"logprobs":null,"finish_reason":null}]'),
  chunk('[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]'),
  USAGE_CHUNK,
  "data: [DONE]\n\n",
];

const anthropicUsage =
  '{"input_tokens":30,"cache_creation_input_tokens":2048,"cache_read_input_tokens":4096,"cache_creation":{"ephemeral_5m_input_tokens":2048,"ephemeral_1h_input_tokens":0},"output_tokens":55,"service_tier":"standard"}';
const ANTHROPIC_JSON =
  '{"id":"msg_up1","type":"message","role":"assistant","model":"up-claude-20250101","content":[' +
  '{"type":"thinking","thinking":"Let me think.","signature":"sig-abc"},{"type":"text","text":"Done."}],' +
  `"stop_reason":"end_turn","stop_sequence":null,"usage":${anthropicUsage}}`;
const sse = (type: string, data: string) => `event: ${type}\ndata: ${data}\n\n`;
const ANTHROPIC_EVENTS = [
  sse(
    "message_start",
    '{"type":"message_start","message":{"id":"msg_up1","type":"message","role":"assistant","model":"up-claude-20250101","content":[],"stop_reason":null,"stop_sequence":null,' +
      '"usage":{"input_tokens":30,"cache_creation_input_tokens":2048,"cache_read_input_tokens":4096,"cache_creation":{"ephemeral_5m_input_tokens":2048,"ephemeral_1h_input_tokens":0},"output_tokens":1,"service_tier":"standard"}}}',
  ),
  sse("ping", '{"type": "ping"}'),
  sse("content_block_start", '{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}'),
  sse("content_block_delta", '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me think."}}'),
  sse("content_block_delta", '{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"sig-abc"}}'),
  sse("content_block_stop", '{"type":"content_block_stop","index":0}'),
  sse("content_block_start", '{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}'),
  sse("content_block_delta", '{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Done."}}'),
  sse("content_block_stop", '{"type":"content_block_stop","index":1}'),
  sse("message_delta", '{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":55}}'),
  sse("message_stop", '{"type":"message_stop"}'),
];

let upstream: CapturingUpstream;
let gateway: RunningGateway;
let sent: string[] = [];
let sentHeaders: Headers[] = [];

/** Records the exact bytes (and headers) each SDK sends to the gateway. */
const recordingFetch: typeof fetch = (input, init) => {
  if (typeof init?.body === "string") sent.push(init.body);
  sentHeaders.push(new Headers(init?.headers));
  return fetch(input, init);
};

function openaiClient(): OpenAI {
  return new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: CLIENT_TOKEN, maxRetries: 0, fetch: recordingFetch });
}

function anthropicClient(): Anthropic {
  return new Anthropic({ baseURL: gateway.url, apiKey: CLIENT_TOKEN, maxRetries: 0, fetch: recordingFetch });
}

/** The client's bytes with only the model value swapped: what the provider must receive. */
function withModel(body: string, from: string, to: string): string {
  const needle = `"model":${JSON.stringify(from)}`;
  expect(body.split(needle)).toHaveLength(2);
  return body.replace(needle, `"model":${JSON.stringify(to)}`);
}

/**
 * R-ST-6: a non-streamed request goes upstream as a stream (so silence is caught in seconds): the client's bytes
 * with `stream: true` (and, OpenAI, `stream_options.include_usage`) added at the front, nothing else changed.
 */
function streamedUpstream(body: string, openai: boolean): string {
  return body.replace(/^\{/, openai ? '{"stream":true,"stream_options":{"include_usage":true},' : '{"stream":true,');
}

beforeAll(async () => {
  upstream = await startCapturingUpstream({
    openai: { json: OPENAI_JSON, events: OPENAI_EVENTS },
    anthropic: { json: ANTHROPIC_JSON, events: ANTHROPIC_EVENTS },
  });
  gateway = await startGateway({
    port: 0,
    config: {
      models: {
        providers: {
          openai: { api: "openai-chat", baseUrl: `${upstream.url}/v1`, timeoutSeconds: 5 },
          anthropic: { api: "anthropic-messages", baseUrl: upstream.url, timeoutSeconds: 5 },
        },
      },
      auth: {
        profiles: apiKeyProfiles({ "openai:a": "FIDELITY_OPENAI", "anthropic:a": "FIDELITY_ANTHROPIC" }),
      },
      agents: { defaults: { model: { primary: "openai/up-gpt", fallbacks: [] } } },
      gateway: { auth: { tokens: [CLIENT_TOKEN] } },
      state: { backend: "memory" },
    },
    env: { FIDELITY_OPENAI: OPENAI_KEY, FIDELITY_ANTHROPIC: ANTHROPIC_KEY },
  });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

beforeEach(() => {
  sent = [];
  sentHeaders = [];
  upstream.requests.length = 0;
});

const jsonSchemaFormat = {
  type: "json_schema",
  json_schema: {
    name: "verdict",
    strict: true,
    schema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"], additionalProperties: false },
  },
} as const;

function openaiRequest(responseFormat: OpenAI.ChatCompletionCreateParams["response_format"]) {
  return {
    model: "openai/up-gpt",
    messages: [
      { role: "developer", content: "Answer in JSON." },
      { role: "system", content: [{ type: "text", text: "You are terse." }] },
      {
        role: "user",
        content: [
          { type: "text", text: "What is in this image?" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=", detail: "high" } },
        ],
      },
    ],
    response_format: responseFormat,
    seed: 42,
    logprobs: true,
    top_logprobs: 3,
    frequency_penalty: 0.5,
    presence_penalty: -0.25,
    logit_bias: { "50256": -100 },
    user: "user-123",
    reasoning_effort: "low",
    parallel_tool_calls: false,
    metadata: { purpose: "fidelity" },
    tools: [{ type: "function", function: { name: "lookup", parameters: { type: "object", properties: {} } } }],
    tool_choice: "auto",
    max_completion_tokens: 200,
    temperature: 0.2,
    top_p: 0.9,
    stop: ["\n\nEND"],
    service_tier: "default",
    prompt_cache_key: "conversation-7",
  } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming;
}

describe("same-wire lane, OpenAI client → OpenAI wire", () => {
  for (const [name, format] of [
    ["json_schema", jsonSchemaFormat],
    ["json_object", { type: "json_object" }],
  ] as const) {
    it(`R-GW-6: every field (response_format ${name}, seed, logprobs, penalties, logit_bias, user, reasoning_effort, parallel_tool_calls, metadata, image detail, developer messages) arrives byte-identical except model`, async () => {
      const response = await openaiClient().chat.completions.create(openaiRequest(format)).asResponse();
      expect(response.status).toBe(200);
      expect(upstream.requests).toHaveLength(1);
      const received = upstream.requests[0]!;
      expect(received.body).toBe(streamedUpstream(withModel(sent[0]!, "openai/up-gpt", "up-gpt"), true));
      // Credentials swapped: the provider sees the profile's key, never the client's token.
      expect(received.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
      expect(JSON.stringify(received.headers)).not.toContain(CLIENT_TOKEN);
      // R-GW-7 / R-ST-3 / R-ST-6: the provider's non-streamed answer (usage details and logprobs included),
      // assembled from its stream, except who answered.
      expect(JSON.parse(await response.text())).toStrictEqual(JSON.parse(withModel(OPENAI_JSON, "up-gpt-2025-01-01", "openai/up-gpt")));
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(response.headers.get("x-detour-model")).toBe("openai/up-gpt");
      expect(response.headers.get("x-request-id")).toBe("req_upstream_1");
    });
  }

  it("R-GW-6: a stream without include_usage gets it added upstream, and its usage chunk is not forwarded", async () => {
    const request = { ...openaiRequest({ type: "json_object" }), stream: true } as OpenAI.ChatCompletionCreateParamsStreaming;
    const response = await openaiClient().chat.completions.create(request).asResponse();
    const text = await response.text();
    const received = upstream.requests[0]!;
    const expected = withModel(sent[0]!, "openai/up-gpt", "up-gpt").replace(/^\{/, '{"stream_options":{"include_usage":true},');
    expect(received.body).toBe(expected);
    const shown = OPENAI_EVENTS.filter((event) => event !== USAGE_CHUNK)
      .map((event) => event.replace('"model":"up-gpt-2025-01-01"', '"model":"openai/up-gpt"'))
      .join("");
    expect(text).toBe(shown);
  });

  it("R-GW-6: a stream that asked for usage gets every chunk as sent, usage details included (R-GW-7)", async () => {
    const request = {
      ...openaiRequest(jsonSchemaFormat),
      stream: true,
      stream_options: { include_usage: true },
    } as OpenAI.ChatCompletionCreateParamsStreaming;
    const stream = await openaiClient().chat.completions.create(request);
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const part of stream) chunks.push(part);
    expect(upstream.requests[0]!.body).toBe(withModel(sent[0]!, "openai/up-gpt", "up-gpt"));
    expect(chunks.map((part) => part.model)).toEqual(Array(5).fill("openai/up-gpt"));
    expect(chunks.map((part) => part.choices[0]?.delta.content ?? "").join("")).toBe('{"ok":true}');
    expect(chunks.at(-1)?.usage?.prompt_tokens_details?.cached_tokens).toBe(1024);
    expect(chunks.at(-1)?.usage?.completion_tokens_details?.reasoning_tokens).toBe(24);
    expect(chunks[1]?.choices[0]?.logprobs?.content?.[0]?.token).toBe("{");
  });

  it("R-ST-6: a model that refuses a stream gets the client's bytes as they are, in one more plain call, and answers as sent", async () => {
    upstream.failures.push({
      status: 400,
      body: '{"error":{"message":"Unsupported value: \'stream\' does not support true with this model. Only the default (false) value is supported.","type":"invalid_request_error","param":"stream","code":"unsupported_value"}}',
    });
    const request = {
      model: "openai/up-gpt-plain",
      messages: [{ role: "user", content: "Hi" }],
    } as OpenAI.ChatCompletionCreateParamsNonStreaming;
    const response = await openaiClient().chat.completions.create(request).asResponse();
    expect(response.status).toBe(200);
    expect(upstream.requests.map((received) => received.body)).toEqual([
      streamedUpstream(withModel(sent[0]!, "openai/up-gpt-plain", "up-gpt-plain"), true),
      withModel(sent[0]!, "openai/up-gpt-plain", "up-gpt-plain"),
    ]);
    expect(await response.text()).toBe(withModel(OPENAI_JSON, "up-gpt-2025-01-01", "openai/up-gpt-plain"));
    // Remembered: the next request to that model goes plain at once.
    upstream.requests.length = 0;
    sent = [];
    await openaiClient().chat.completions.create(request);
    expect(upstream.requests.map((received) => received.body)).toEqual([withModel(sent[0]!, "openai/up-gpt-plain", "up-gpt-plain")]);
  });

  it("R-GW-6: an upstream 429 on the same-wire lane still rotates and fails over (the runner decides, the lane moves bytes)", async () => {
    upstream.failures.push({
      status: 429,
      body: '{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}',
    });
    const response = await openaiClient()
      // A request the Anthropic wire can express (the full fidelity request carries logprobs and logit_bias,
      // which make that candidate incompatible, R-GW-6).
      .chat.completions.create(
        { model: "openai/up-gpt", messages: [{ role: "user", content: "Hi" }], max_completion_tokens: 50 },
        { headers: { "x-detour-fallbacks": "anthropic/up-claude" } },
      )
      .asResponse()
      .catch((error: unknown) => error);
    // The Anthropic fallback is cross-wire: it answers through the canonical path.
    expect(upstream.requests.map((request) => request.path)).toEqual(["/v1/chat/completions", "/v1/messages"]);
    expect((response as Response).status).toBe(200);
    expect((response as Response).headers.get("x-detour-model")).toBe("anthropic/up-claude");
    expect((response as Response).headers.get("x-detour-attempts")).toBe("2");
  });
});

function anthropicRequest(): Anthropic.MessageCreateParamsNonStreaming {
  return {
    model: "anthropic/up-claude",
    max_tokens: 1024,
    system: [
      { type: "text", text: "You are a careful assistant.", cache_control: { type: "ephemeral" } },
      { type: "text", text: "Use tools when needed.", cache_control: { type: "ephemeral", ttl: "1h" } },
    ],
    thinking: { type: "enabled", budget_tokens: 512 },
    top_k: 40,
    metadata: { user_id: "user-123" },
    tools: [
      {
        name: "screenshot",
        description: "Takes a screenshot",
        input_schema: { type: "object", properties: {} },
        cache_control: { type: "ephemeral" },
      },
    ],
    messages: [
      { role: "user", content: [{ type: "text", text: "Take a screenshot.", cache_control: { type: "ephemeral" } }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "I should call the tool.", signature: "sig-history" },
          { type: "tool_use", id: "toolu_1", name: "screenshot", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "toolu_1",
            content: [
              { type: "text", text: "Here it is." },
              { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
            ],
            cache_control: { type: "ephemeral" },
          },
        ],
      },
    ],
  } as unknown as Anthropic.MessageCreateParamsNonStreaming;
}

describe("same-wire lane, Anthropic client → Anthropic wire", () => {
  it("R-GW-6: thinking config and blocks, top_k, cache_control everywhere, system blocks and images inside tool results arrive byte-identical except model", async () => {
    const response = await anthropicClient()
      .messages.create(anthropicRequest(), { headers: { "anthropic-beta": "extended-cache-ttl-2025-04-11" } })
      .asResponse();
    expect(response.status).toBe(200);
    const received = upstream.requests[0]!;
    expect(received.path).toBe("/v1/messages");
    expect(received.body).toBe(streamedUpstream(withModel(sent[0]!, "anthropic/up-claude", "up-claude"), false));
    expect(received.headers["x-api-key"]).toBe(ANTHROPIC_KEY);
    // The API version the SDK speaks is the client's choice, like its body.
    expect(received.headers["anthropic-version"]).toBe(sentHeaders[0]!.get("anthropic-version"));
    // The client's beta flags change what its body means (the 1-hour cache TTL), so they travel with it.
    expect(received.headers["anthropic-beta"]).toBe("extended-cache-ttl-2025-04-11");
    expect(JSON.stringify(received.headers)).not.toContain(CLIENT_TOKEN);
    // R-GW-7 / R-ST-6: cache-read, cache-write and the answer's thinking block reach the client as the
    // provider's non-streamed answer would carry them, assembled from its stream.
    expect(JSON.parse(await response.text())).toStrictEqual(
      JSON.parse(withModel(ANTHROPIC_JSON, "up-claude-20250101", "anthropic/up-claude")),
    );
  });

  it("R-GW-6: the stream reaches the client as sent (thinking, signature, ping and usage), only message_start names who answered", async () => {
    const response = await anthropicClient()
      .messages.create({ ...anthropicRequest(), stream: true } as Anthropic.MessageCreateParamsStreaming)
      .asResponse();
    const text = await response.text();
    expect(upstream.requests[0]!.body).toBe(withModel(sent[0]!, "anthropic/up-claude", "up-claude"));
    expect(text).toBe(ANTHROPIC_EVENTS.join("").replace('"model":"up-claude-20250101"', '"model":"anthropic/up-claude"'));
  });

  it("R-GW-7: on the same-wire lane the Anthropic SDK gets cache-read and cache-write tokens of a stream, as the provider sent them", async () => {
    const stream = anthropicClient().messages.stream(anthropicRequest());
    const message = await stream.finalMessage();
    expect(message.model).toBe("anthropic/up-claude");
    expect(message.content.map((block) => block.type)).toEqual(["thinking", "text"]);
    expect(message.usage.cache_read_input_tokens).toBe(4096);
    expect(message.usage.cache_creation_input_tokens).toBe(2048);
    expect(message.usage.output_tokens).toBe(55);
  });
});
