/**
 * Fidelity matrix, cross-wire half (SPEC R-GW-6, R-GW-7): the real `openai` and `@anthropic-ai/sdk` clients
 * drive the gateway; a capturing upstream on loopback records what each wire format received. Every field
 * is translated, rejected as `incompatible` (400 naming the field, no upstream call), or named in
 * `x-detour-dropped`; usage details come back in the client's dialect, streamed and not.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "../../src/gateway/start-gateway.js";
import {
  startLoopbackServer,
  type LoopbackReply,
  type LoopbackServer,
  type RecordedRequest,
} from "../../src/providers/shared/__fixtures__/loopback-server.js";
import { apiKeyProfiles } from "./fixtures/gateway-harness.js";

const TOKEN = "fidelity-client-token";
type Json = Record<string, any>;

const anthropicAnswer = {
  id: "msg_cap",
  type: "message",
  role: "assistant",
  model: "claude-x",
  content: [
    { type: "thinking", thinking: "Let me think.", signature: "sig-1" },
    { type: "text", text: "Hi there" },
  ],
  stop_reason: "end_turn",
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 20 },
};

const anthropicStream = [
  [
    "message_start",
    {
      type: "message_start",
      message: {
        ...anthropicAnswer,
        content: [],
        stop_reason: null,
        usage: { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 100, cache_creation_input_tokens: 20 },
      },
    },
  ],
  // The same answer as anthropicAnswer: a non-streamed request is streamed upstream and assembled (R-ST-6).
  ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } }],
  ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Let me think." } }],
  ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig-1" } }],
  ["content_block_stop", { type: "content_block_stop", index: 0 }],
  ["content_block_start", { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } }],
  ["content_block_delta", { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Hi there" } }],
  ["content_block_stop", { type: "content_block_stop", index: 1 }],
  ["message_delta", { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 5 } }],
  ["message_stop", { type: "message_stop" }],
]
  .map(([event, data]) => `event: ${event as string}\ndata: ${JSON.stringify(data)}\n\n`)
  .join("");

const openAiUsage = {
  prompt_tokens: 130,
  completion_tokens: 50,
  total_tokens: 180,
  prompt_tokens_details: { cached_tokens: 100 },
  completion_tokens_details: { reasoning_tokens: 20 },
};

const openAiAnswer = {
  id: "chatcmpl-cap",
  object: "chat.completion",
  created: 1,
  model: "gpt-x",
  choices: [{ index: 0, message: { role: "assistant", content: "Hi there" }, finish_reason: "stop" }],
  usage: openAiUsage,
};

const openAiStream =
  [
    { id: "chatcmpl-cap", model: "gpt-x", choices: [{ index: 0, delta: { role: "assistant", content: "Hi there" }, finish_reason: null }] },
    { id: "chatcmpl-cap", model: "gpt-x", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
    { id: "chatcmpl-cap", model: "gpt-x", choices: [], usage: openAiUsage },
  ]
    .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
    .join("") + "data: [DONE]\n\n";

function answer(request: RecordedRequest): LoopbackReply {
  const body = (request.body ?? {}) as Json;
  if (request.url.includes("/messages")) {
    return body.stream
      ? { kind: "stream", contentType: "text/event-stream", text: anthropicStream }
      : { kind: "json", body: anthropicAnswer };
  }
  return body.stream ? { kind: "stream", contentType: "text/event-stream", text: openAiStream } : { kind: "json", body: openAiAnswer };
}

let upstream: LoopbackServer;
let gateway: RunningGateway;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  upstream = await startLoopbackServer(answer);
  gateway = await startGateway({
    port: 0,
    env: { FIDELITY_KEY: "sk-fidelity-upstream" },
    config: {
      models: {
        providers: {
          anth: { api: "anthropic-messages", baseUrl: upstream.url, timeoutSeconds: 5 },
          oai: { api: "openai-chat", baseUrl: `${upstream.url}/v1`, timeoutSeconds: 5 },
        },
      },
      auth: {
        profiles: apiKeyProfiles({ "anth:a": "FIDELITY_KEY", "oai:a": "FIDELITY_KEY" }),
      },
      agents: {
        defaults: { model: { primary: "anth/claude-x", fallbacks: [] } },
        list: [
          { id: "to-anthropic", model: { primary: "anth/claude-x", fallbacks: [] } },
          { id: "to-openai", model: { primary: "oai/gpt-x", fallbacks: [] } },
        ],
      },
      gateway: { auth: { tokens: [TOKEN] } },
      state: { backend: "memory" },
    },
  });
  openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: TOKEN, maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: gateway.url, apiKey: TOKEN, maxRetries: 0 });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

beforeEach(() => {
  upstream.requests.length = 0;
});

const lastBody = (): Json => (upstream.requests.at(-1)?.body ?? {}) as Json;

describe("R-GW-6: an OpenAI client served by the Anthropic wire", () => {
  it("R-GW-6: translates roles, tools, tool_choice, parallel tool calls, reasoning effort, stop, top_p and user; names dropped hints", async () => {
    const { data, response } = await openai.chat.completions
      .create({
        model: "to-anthropic",
        messages: [
          { role: "system", content: "Be brief." },
          { role: "developer", content: "Use metric units." },
          {
            role: "user",
            content: [
              { type: "text", text: "What is this?" },
              { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=", detail: "high" } },
            ],
          },
        ],
        tools: [{ type: "function", function: { name: "lookup", description: "Find", parameters: { type: "object", properties: {} } } }],
        tool_choice: "required",
        parallel_tool_calls: false,
        reasoning_effort: "high",
        max_completion_tokens: 1000,
        stop: ["END"],
        top_p: 0.5,
        user: "user-7",
        metadata: { team: "a" },
        seed: 7,
        frequency_penalty: 0.5,
        service_tier: "flex",
      })
      .withResponse();
    const sent = lastBody();
    expect(sent.system).toEqual([
      { type: "text", text: "Be brief." },
      { type: "text", text: "Use metric units." },
    ]);
    expect(sent.messages[0].content[1]).toEqual({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
    });
    expect(sent.tools).toEqual([{ name: "lookup", description: "Find", input_schema: { type: "object", properties: {} } }]);
    expect(sent.tool_choice).toEqual({ type: "any", disable_parallel_tool_use: true });
    expect(sent.thinking).toEqual({ type: "enabled", budget_tokens: 16384 });
    // max_tokens counts thinking on Anthropic: the client's 1000 stay the answer's room.
    expect(sent.max_tokens).toBe(17384);
    expect(sent.stop_sequences).toEqual(["END"]);
    expect(sent.top_p).toBe(0.5);
    expect(sent.metadata).toEqual({ user_id: "user-7" });
    for (const field of ["seed", "frequency_penalty", "service_tier"]) expect(sent).not.toHaveProperty(field);
    expect(response.headers.get("x-detour-dropped")?.split(", ").sort()).toEqual(
      ["detail", "frequency_penalty", "metadata", "seed", "service_tier"].sort(),
    );
    expect(data.choices[0]?.message.content).toBe("Hi there");
  });

  const incompatible: [string, Record<string, unknown>][] = [
    ["response_format", { response_format: { type: "json_object" } }],
    ["response_format", { response_format: { type: "json_schema", json_schema: { name: "answer", schema: { type: "object" } } } }],
    ["logprobs", { logprobs: true, top_logprobs: 2 }],
    ["logit_bias", { logit_bias: { "50256": -100 } }],
    ["modalities", { modalities: ["text", "audio"], audio: { voice: "alloy", format: "wav" } }],
  ];
  for (const [field, extra] of incompatible) {
    it(`R-GW-6: ${JSON.stringify(extra)} makes the Anthropic candidate incompatible: 400 naming "${field}", no upstream call`, async () => {
      const error = await openai.chat.completions
        .create({ model: "to-anthropic", messages: [{ role: "user", content: "hi" }], ...extra } as never)
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toContain(`"${field}"`);
      expect(upstream.requests).toHaveLength(0);
    });
  }

  it("R-GW-6: a streamed request the Anthropic wire cannot express is a 400 before any upstream call, and a streamed answer names dropped hints", async () => {
    const error = await openai.chat.completions
      .create({
        model: "to-anthropic",
        messages: [{ role: "user", content: "hi" }],
        stream: true,
        response_format: { type: "json_object" },
      })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(upstream.requests).toHaveLength(0);
    const { data: stream, response } = await openai.chat.completions
      .create({ model: "to-anthropic", messages: [{ role: "user", content: "hi" }], stream: true, seed: 3 })
      .withResponse();
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toBe("Hi there");
    expect(response.headers.get("x-detour-dropped")).toBe("seed");
  });

  it("R-GW-7: usage comes back with cached tokens, plain and streamed; the cache writes count as input", async () => {
    const plain = await openai.chat.completions.create({ model: "to-anthropic", messages: [{ role: "user", content: "hi" }] });
    expect(plain.usage).toMatchObject({
      prompt_tokens: 130,
      completion_tokens: 5,
      total_tokens: 135,
      prompt_tokens_details: { cached_tokens: 100 },
    });
    const stream = await openai.chat.completions.create({
      model: "to-anthropic",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) usage = chunk.usage ?? usage;
    expect(usage).toMatchObject({ prompt_tokens: 130, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 100 } });
  });
});

describe("R-GW-6: an Anthropic client served by the OpenAI wire", () => {
  it("R-GW-6: translates system blocks, thinking budget, tool_choice, parallel tool use, stop, user and images in tool results; names dropped hints", async () => {
    const { data, response } = await anthropic.messages
      .create({
        model: "to-openai",
        max_tokens: 500,
        system: [
          { type: "text", text: "Be brief." },
          { type: "text", text: "Long shared context.", cache_control: { type: "ephemeral" } },
        ],
        messages: [
          { role: "user", content: "Look this up" },
          {
            role: "assistant",
            content: [
              { type: "thinking", thinking: "I should call lookup.", signature: "sig-0" },
              { type: "tool_use", id: "toolu_1", name: "lookup", input: { q: "cat" } },
            ],
          },
          {
            role: "user",
            content: [
              {
                type: "tool_result",
                tool_use_id: "toolu_1",
                content: [
                  { type: "text", text: "a cat" },
                  { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
                ],
              },
            ],
          },
        ],
        tools: [{ name: "lookup", description: "Find", input_schema: { type: "object", properties: {} } }],
        tool_choice: { type: "any", disable_parallel_tool_use: true },
        thinking: { type: "enabled", budget_tokens: 10000 },
        stop_sequences: ["END"],
        top_k: 40,
        metadata: { user_id: "user-9" },
      } as Anthropic.MessageCreateParamsNonStreaming)
      .withResponse();
    const sent = lastBody();
    expect(sent.messages.slice(0, 2)).toEqual([
      { role: "system", content: "Be brief." },
      { role: "system", content: "Long shared context." },
    ]);
    expect(sent.messages.slice(3)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "toolu_1", type: "function", function: { name: "lookup", arguments: '{"q":"cat"}' } }],
      },
      { role: "tool", tool_call_id: "toolu_1", content: "a cat" },
      { role: "user", content: [{ type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } }] },
    ]);
    expect(sent.tool_choice).toBe("required");
    expect(sent.parallel_tool_calls).toBe(false);
    expect(sent.reasoning_effort).toBe("medium");
    expect(sent.stop).toEqual(["END"]);
    expect(sent.user).toBe("user-9");
    expect(sent).not.toHaveProperty("top_k");
    expect(response.headers.get("x-detour-dropped")?.split(", ").sort()).toEqual(["cache_control", "thinking", "top_k"]);
    expect(data.content).toEqual([{ type: "text", text: "Hi there" }]);
  });

  it("R-GW-6: a server-side container makes the OpenAI candidate incompatible: 400 naming the field, no upstream call", async () => {
    const error = await anthropic.messages
      .create({ model: "to-openai", max_tokens: 10, messages: [{ role: "user", content: "hi" }], container: "container_1" } as never)
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String((error as Error).message)).toMatch(/cannot express \\?"container\\?"/);
    expect(upstream.requests).toHaveLength(0);
  });

  it("R-GW-7: usage comes back with cache reads apart from input, plain and streamed", async () => {
    const plain = await anthropic.messages.create({ model: "to-openai", max_tokens: 10, messages: [{ role: "user", content: "hi" }] });
    expect(plain.usage).toMatchObject({
      input_tokens: 30,
      output_tokens: 50,
      cache_read_input_tokens: 100,
      cache_creation_input_tokens: 0,
    });
    const final = await anthropic.messages
      .stream({ model: "to-openai", max_tokens: 10, messages: [{ role: "user", content: "hi" }] })
      .finalMessage();
    expect(final.usage).toMatchObject({ input_tokens: 30, output_tokens: 50, cache_read_input_tokens: 100 });
  });

  it("R-GW-7: tokens are counted in metrics by provider, model and kind", async () => {
    await anthropic.messages.create({ model: "to-openai", max_tokens: 10, messages: [{ role: "user", content: "hi" }] });
    const metrics = await fetch(`${gateway.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.text());
    expect(metrics).toMatch(/detour_tokens_total\{provider="oai",model="gpt-x",kind="cache_read"\} \d+/);
    expect(metrics).toMatch(/detour_tokens_total\{provider="oai",model="gpt-x",kind="reasoning"\} \d+/);
    expect(metrics).toMatch(/detour_tokens_total\{provider="anth",model="claude-x",kind="cache_write"\} \d+/);
  });
});

describe("R-GW-6: thinking answers reach an Anthropic client through the canonical path", () => {
  it("R-GW-6: thinking blocks of the answer keep their signature", async () => {
    const message = await anthropic.messages.create({ model: "to-anthropic", max_tokens: 10, messages: [{ role: "user", content: "hi" }] });
    expect(message.content[0]).toEqual({ type: "thinking", thinking: "Let me think.", signature: "sig-1" });
    expect(message.usage).toMatchObject({
      input_tokens: 10,
      cache_read_input_tokens: 100,
      cache_creation_input_tokens: 20,
      output_tokens: 5,
    });
  });
});
