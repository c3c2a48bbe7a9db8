/**
 * The OpenAI Responses API through the gateway with the official `openai` SDK's `responses.create`, plain and
 * streamed, with a failover in the middle: a same-wire fallback to another Responses provider (the client's
 * bytes, only `model` replaced), a cross-wire fallback to an Anthropic model (translated through the canonical
 * model), usage carried back, and requests that depend on server-held state pinned to the provider holding it
 * (R-GW-1, R-GW-2, R-GW-6, R-GW-7, R-NT-2).
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { decodeNoticeHeader } from "../../src/core/notices.js";
import { fingerprintKey } from "../../src/testing/mock-provider/index.js";
import { harnessClosedAfterEachTest, KEYS, type Harness, type HarnessOptions } from "./fixtures/gateway-harness.js";

const startPerTest = harnessClosedAfterEachTest();

const CHAIN = { primary: "openai-codex/mock-gpt", fallbacks: ["resp-backup/mock-gpt", "anthropic/mock-claude"] };

const start = (options: HarnessOptions = {}) => startPerTest({ responsesProviders: true, model: CHAIN, ...options });

type Json = Record<string, any>;

function requestsTo(mock: Harness["mock"], key: string) {
  return mock.requests().filter((request) => request.keyFingerprint === fingerprintKey(key));
}

describe("POST /v1/responses with the openai SDK", () => {
  it("R-GW-1: responses.create answers from the Responses provider of the chain, plain and streamed", async () => {
    const { openai } = await start();
    const response = await openai.responses.create({ model: "detour", input: "hello responses" });
    expect(response.object).toBe("response");
    expect(response.status).toBe("completed");
    expect(response.model).toBe("openai-codex/mock-gpt");
    expect(response.output_text).toContain(fingerprintKey(KEYS.codexA));
    expect(response.output_text).toContain("hello responses");

    const stream = await openai.responses.create({ model: "detour", input: "stream please", stream: true });
    const types: string[] = [];
    let text = "";
    let completed: Json | undefined;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "response.output_text.delta") text += event.delta;
      if (event.type === "response.completed") completed = event.response as Json;
    }
    expect(types[0]).toBe("response.created");
    expect(types.at(-1)).toBe("response.completed");
    expect(text).toContain("stream please");
    expect(completed?.model).toBe("openai-codex/mock-gpt");
    expect(completed?.usage.output_tokens).toBeGreaterThan(0);
  });

  it("R-GW-6: a 429 on the Responses primary fails over to a Responses fallback that gets the client's body with only model replaced", async () => {
    const { openai, mock } = await start({
      scenario: [{ match: { key: KEYS.codexA }, steps: ["rate-limit"], then: "repeat-last" }],
    });
    const body = {
      model: "detour",
      instructions: "Be brief.",
      input: [{ role: "user" as const, content: [{ type: "input_text" as const, text: "who answers?" }] }],
      max_output_tokens: 64,
      store: false,
      metadata: { trace: "t-1" },
    };
    const { data, response } = await openai.responses.create(body).withResponse();
    expect(data.model).toBe("resp-backup/mock-gpt");
    expect(data.output_text).toContain(fingerprintKey(KEYS.backupA));
    expect(response.headers.get("x-detour-model")).toBe("resp-backup/mock-gpt");
    expect(decodeNoticeHeader(response.headers.get("x-detour-notice") ?? "")).toMatch(
      /^↪️ Model Fallback: resp-backup\/mock-gpt \(selected openai-codex\/mock-gpt; /,
    );
    expect(response.headers.get("x-detour-dropped")).toBeNull();
    const [forwarded] = requestsTo(mock, KEYS.backupA);
    expect(forwarded?.path).toBe("/v1/responses");
    // R-ST-6: a non-streamed request goes upstream as a stream (the answer is assembled); nothing else changes.
    expect(forwarded?.body).toEqual({ ...body, model: "mock-gpt", stream: true });
  });

  it("R-ST-3: a 500 on the Responses primary before the first token fails over to the Responses fallback, streamed", async () => {
    const { openai, mock } = await start({
      scenario: [{ match: { key: KEYS.codexA }, steps: ["server-error"], then: "repeat-last" }],
    });
    const { data: stream, response } = await openai.responses.create({ model: "detour", input: "stream it", stream: true }).withResponse();
    let text = "";
    const models = new Set<string>();
    let usage: Json | undefined;
    for await (const event of stream) {
      if (event.type === "response.output_text.delta") text += event.delta;
      if ("response" in event) models.add((event.response as Json).model);
      if (event.type === "response.completed") usage = event.response.usage as Json;
    }
    expect(text).toContain(fingerprintKey(KEYS.backupA));
    expect([...models]).toEqual(["resp-backup/mock-gpt"]);
    expect(response.headers.get("x-detour-notice")).not.toBeNull();
    expect(usage?.input_tokens).toBeGreaterThan(0);
    expect(requestsTo(mock, KEYS.backupA)[0]?.stream).toBe(true);
  });

  it("R-ST-2: an upstream error after the first tokens of a same-wire stream ends it with response.failed", async () => {
    const { openai } = await start({
      // Tokens apart in time, so the client has the first ones before the error arrives (after the commit).
      tokenDelayMs: 30,
      scenario: [{ match: { key: KEYS.codexA }, steps: [{ fault: "stream-error", afterTokens: 2 }], then: "repeat-last" }],
    });
    const stream = await openai.responses.create({ model: "detour", input: "break midway", stream: true });
    const types: string[] = [];
    let failed: Json | undefined;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "response.failed") failed = event.response as Json;
    }
    expect(types.filter((type) => type === "response.output_text.delta")).toHaveLength(2);
    expect(types.at(-1)).toBe("response.failed");
    expect(types.filter((type) => type === "response.created")).toHaveLength(1);
    expect(types).not.toContain("response.completed");
    expect(failed?.error.message).toContain("failed after it started");
  });

  it("R-GW-2: when both Responses providers fail the Anthropic fallback answers the Responses client, plain and streamed", async () => {
    const { openai, mock } = await start({
      scenario: [{ match: { api: "openai-responses" }, steps: ["overloaded"], then: "repeat-last" }],
    });
    const { data, response } = await openai.responses
      .create({ model: "detour", input: "cross the wire", metadata: { user_id: "u-9" }, store: false, prompt_cache_key: "conv-1" })
      .withResponse();
    // Hints Anthropic cannot carry are named, never silently lost.
    expect(response.headers.get("x-detour-dropped")).toBe("store, prompt_cache_key");
    expect(data.model).toBe("anthropic/mock-claude");
    expect(data.output_text).toContain("Hello from mock-claude");
    expect(data.output[0]?.type).toBe("message");
    expect(decodeNoticeHeader(response.headers.get("x-detour-notice") ?? "")).toMatch(/^↪️ Model Fallback: anthropic\/mock-claude /);
    const [translated] = requestsTo(mock, KEYS.anthropicA);
    expect(translated?.path).toBe("/v1/messages");
    expect((translated?.body as Json).messages).toEqual([{ role: "user", content: [{ type: "text", text: "cross the wire" }] }]);

    const stream = await openai.responses.create({ model: "detour", input: "cross streamed", stream: true });
    let text = "";
    let completed: Json | undefined;
    for await (const event of stream) {
      if (event.type === "response.output_text.delta") text += event.delta;
      if (event.type === "response.completed") completed = event.response as Json;
    }
    expect(text).toContain("Hello from mock-claude");
    expect(completed?.model).toBe("anthropic/mock-claude");
    expect(completed?.output[0].content[0].text).toBe(text);

    // The SDK's stream helper checks the event order and item bookkeeping of a translated stream too.
    const final = await openai.responses.stream({ model: "detour", input: "cross with the helper" }).finalResponse();
    expect(final.output_text).toContain("Hello from mock-claude");
    expect(final.status).toBe("completed");
  });

  it("R-GW-7: usage from an Anthropic fallback reaches the Responses client as the provider counted it", async () => {
    const { openai, mock } = await start({
      scenario: [{ match: { api: "openai-responses" }, steps: ["rate-limit"], then: "repeat-last" }],
    });
    const direct = new Anthropic({ baseURL: mock.url, apiKey: KEYS.anthropicA, maxRetries: 0 });
    const expected = await direct.messages.create({
      model: "mock-claude",
      max_tokens: 4096,
      messages: [{ role: "user", content: "count me" }],
    });
    const plain = await openai.responses.create({ model: "detour", input: "count me" });
    expect(plain.usage?.input_tokens).toBe(expected.usage.input_tokens);
    expect(plain.usage?.output_tokens).toBe(expected.usage.output_tokens);
    expect(plain.usage?.total_tokens).toBe(expected.usage.input_tokens + expected.usage.output_tokens);

    const stream = await openai.responses.create({ model: "detour", input: "count me", stream: true });
    let usage: Json | undefined;
    for await (const event of stream) if (event.type === "response.completed") usage = event.response.usage as Json;
    expect(usage?.input_tokens).toBe(expected.usage.input_tokens);
    expect(usage?.output_tokens).toBe(expected.usage.output_tokens);
  });

  it("R-GW-2: a chat-completions client is answered by a Responses model, usage included", async () => {
    const { openai, mock } = await start();
    const direct = new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: KEYS.codexA, maxRetries: 0 });
    const expected = await direct.responses.create({ model: "mock-gpt", input: "chat to responses", store: false });
    const completion = await openai.chat.completions.create({
      model: "openai-codex/mock-gpt",
      messages: [{ role: "user", content: "chat to responses" }],
    });
    expect(completion.model).toBe("openai-codex/mock-gpt");
    expect(completion.choices[0]?.message.content).toBe(expected.output_text);
    expect(completion.usage?.prompt_tokens).toBe(expected.usage?.input_tokens);
    expect(completion.usage?.completion_tokens).toBe(expected.usage?.output_tokens);
    const sent = requestsTo(mock, KEYS.codexA).at(-1)?.body as Json;
    expect(sent).toMatchObject({
      model: "mock-gpt",
      store: false,
      input: [{ role: "user", content: [{ type: "input_text", text: "chat to responses" }] }],
    });
  });

  it("R-GW-6: a hosted tool no other wire can run makes the Anthropic candidate incompatible, so the client hears why", async () => {
    const { openai, mock } = await start({
      scenario: [{ match: { api: "openai-responses" }, steps: ["rate-limit"], then: "repeat-last" }],
    });
    const error = await openai.responses
      .create({ model: "detour", input: "search the web", tools: [{ type: "web_search" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const attempts = ((error as InstanceType<typeof OpenAI.APIError>).error as { attempts?: Json[] }).attempts ?? [];
    const anthropicAttempt = attempts.find((attempt) => attempt.provider === "anthropic");
    expect(anthropicAttempt?.reason).toBe("incompatible");
    expect(anthropicAttempt?.error).toContain('"tools"');
    expect(requestsTo(mock, KEYS.anthropicA)).toHaveLength(0);
  });
});

describe("server-held state (stateless gateway)", () => {
  it("R-GW-6: a previous_response_id request goes only to the provider holding it, with only model (and R-ST-6's stream) changed", async () => {
    const { openai, mock } = await start();
    const body = { model: "detour", previous_response_id: "resp_stored_1", input: "and then?" };
    const response = await openai.responses.create(body);
    expect(response.model).toBe("openai-codex/mock-gpt");
    expect(requestsTo(mock, KEYS.codexA).map((request) => request.body)).toEqual([{ ...body, model: "mock-gpt", stream: true }]);
  });

  it("R-GW-6: when the holder is rate-limited the client gets DETOUR_RESPONSE_STATE_UNAVAILABLE, and no other model is called", async () => {
    const { openai, mock } = await start({
      scenario: [{ match: { key: KEYS.codexA }, steps: [{ fault: "rate-limit", retryAfterSeconds: 30 }], then: "repeat-last" }],
    });
    for (const stream of [false, true]) {
      const error = await openai.responses
        .create({ model: "detour", previous_response_id: "resp_stored_2", input: "continue", stream })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      const apiError = error as InstanceType<typeof OpenAI.RateLimitError>;
      expect(apiError.code).toBe("DETOUR_RESPONSE_STATE_UNAVAILABLE");
      expect(apiError.message).toContain("only provider openai-codex holds");
      expect(Number(apiError.headers?.get("retry-after"))).toBeGreaterThan(0);
      const attempts = ((apiError.error as { attempts?: Json[] }).attempts ?? []).filter((attempt) => attempt.provider !== "openai-codex");
      expect(attempts.map((attempt) => attempt.reason)).toEqual(["incompatible", "incompatible"]);
    }
    expect(requestsTo(mock, KEYS.backupA)).toHaveLength(0);
    expect(requestsTo(mock, KEYS.anthropicA)).toHaveLength(0);
  });

  it("R-GW-6: a previous_response_id request whose chain has no Responses provider is a 400 before any call", async () => {
    const { openai, mock } = await start({ model: { primary: "openai/mock-gpt", fallbacks: ["anthropic/mock-claude"] } });
    const error = await openai.responses
      .create({ model: "detour", previous_response_id: "resp_x", input: "more" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe("DETOUR_RESPONSE_STATE_UNROUTABLE");
    expect(mock.counts().total).toBe(0);
  });
});
