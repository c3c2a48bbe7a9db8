/**
 * The gateway driven by the real OpenAI and Anthropic SDKs against the mock provider on loopback:
 * plain and streamed answers, tool calls, slash commands, auth and bad input (R-GW-1…R-GW-5).
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fingerprintKey } from "../../src/testing/mock-provider/index.js";
import { KEYS, startHarness, type Harness } from "./fixtures/gateway-harness.js";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

const weatherTool = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

describe("gateway with real SDK clients", () => {
  it("R-GW-1: the OpenAI client gets a plain completion with model, usage and headers", async () => {
    const { data, response } = await harness.openai.chat.completions
      .create({ model: "detour", messages: [{ role: "user", content: "Say hello" }] })
      .withResponse();
    expect(data.choices[0]?.message.content).toContain("Hello from mock-gpt");
    expect(data.choices[0]?.message.content).toContain(fingerprintKey(KEYS.openaiA));
    expect(data.model).toBe("openai/mock-gpt");
    expect(data.usage?.completion_tokens).toBeGreaterThan(0);
    expect(response.headers.get("x-detour-model")).toBe("openai/mock-gpt");
    expect(response.headers.get("x-detour-attempts")).toBe("1");
  });

  it("R-GW-1: the OpenAI client streams a completion that finishes cleanly", async () => {
    const stream = await harness.openai.chat.completions.create({
      model: "openai/mock-gpt",
      messages: [{ role: "user", content: "Stream please" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let finish: string | null | undefined;
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(text).toContain("Hello from mock-gpt");
    expect(finish).toBe("stop");
    expect(usage?.total_tokens).toBeGreaterThan(0);
  });

  it("R-GW-2: the OpenAI client gets tool calls, plain and streamed", async () => {
    const plain = await harness.openai.chat.completions.create({
      model: "detour",
      messages: [{ role: "user", content: "Use the get_weather tool for Paris" }],
      tools: [weatherTool],
    });
    const call = plain.choices[0]?.message.tool_calls?.[0];
    expect(plain.choices[0]?.finish_reason).toBe("tool_calls");
    expect(call?.type === "function" ? call.function.name : undefined).toBe("get_weather");
    expect(JSON.parse(call?.type === "function" ? call.function.arguments : "{}")).toEqual({ city: "mock-city" });

    const runner = harness.openai.chat.completions.stream({
      model: "detour",
      messages: [{ role: "user", content: "Use the get_weather tool" }],
      tools: [weatherTool],
    });
    const final = await runner.finalChatCompletion();
    const streamedCall = final.choices[0]?.message.tool_calls?.[0];
    expect(streamedCall?.type === "function" ? streamedCall.function.name : undefined).toBe("get_weather");
    expect(final.choices[0]?.finish_reason).toBe("tool_calls");
  });

  it("R-GW-2: the Anthropic client gets messages and streamed tool use, served by the OpenAI wire", async () => {
    const message = await harness.anthropic.messages.create({
      model: "detour",
      max_tokens: 100,
      system: "Be brief.",
      messages: [{ role: "user", content: "Hi there" }],
    });
    expect(message.type).toBe("message");
    expect(message.model).toBe("openai/mock-gpt");
    expect(message.content[0]?.type === "text" ? message.content[0].text : "").toContain("Hello from mock-gpt");
    expect(message.stop_reason).toBe("end_turn");

    const stream = harness.anthropic.messages.stream({
      model: "detour",
      max_tokens: 100,
      messages: [{ role: "user", content: "Use the get_weather tool" }],
      tools: [{ name: "get_weather", input_schema: { type: "object", properties: { city: { type: "string" } } } }],
    });
    const final = await stream.finalMessage();
    const toolUse = final.content.find((block) => block.type === "tool_use");
    expect(toolUse?.type === "tool_use" ? toolUse.name : undefined).toBe("get_weather");
    expect(toolUse?.type === "tool_use" ? toolUse.input : undefined).toEqual({ city: "mock-city" });
    expect(final.stop_reason).toBe("tool_use");
  });

  it("R-GW-3: slash commands are answered in-band through both SDKs", async () => {
    const status = await harness.openai.chat.completions.create(
      { model: "detour", messages: [{ role: "user", content: "/status" }] },
      { headers: { "x-detour-session": "e2e-slash" } },
    );
    expect(status.choices[0]?.message.content).toContain("Agent: main");
    expect(status.model).toBe("detour");

    const before = harness.mock.counts().total;
    const stream = harness.anthropic.messages.stream(
      { model: "detour", max_tokens: 50, messages: [{ role: "user", content: "/model anthropic/mock-claude" }] },
      { headers: { "x-detour-session": "e2e-slash" } },
    );
    const answer = await stream.finalText();
    expect(answer).toContain("Model set to anthropic/mock-claude");
    expect(harness.mock.counts().total).toBe(before);

    const next = await harness.openai.chat.completions.create(
      { model: "detour", messages: [{ role: "user", content: "and now?" }] },
      { headers: { "x-detour-session": "e2e-slash" } },
    );
    expect(next.model).toBe("anthropic/mock-claude");
  });

  it("R-GW-5: a client without the gateway token gets 401 from either SDK", async () => {
    const openai = new OpenAI({ baseURL: `${harness.gateway.url}/v1`, apiKey: "wrong-token", maxRetries: 0 });
    await expect(openai.chat.completions.create({ model: "detour", messages: [{ role: "user", content: "hi" }] })).rejects.toBeInstanceOf(
      OpenAI.AuthenticationError,
    );
    const anthropic = new Anthropic({ baseURL: harness.gateway.url, apiKey: "wrong-token", maxRetries: 0 });
    await expect(
      anthropic.messages.create({ model: "detour", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
    ).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
  });

  it("R-GW-5: a request without any token is a 401 in each dialect's shape, and nothing reaches a provider", async () => {
    const before = harness.mock.counts().total;
    const headers = { "content-type": "application/json" };
    const openaiAnswer = await fetch(`${harness.gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers,
      body: JSON.stringify({ model: "detour", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(openaiAnswer.status).toBe(401);
    expect(openaiAnswer.headers.get("www-authenticate")).toContain("Bearer");
    expect(((await openaiAnswer.json()) as { error: { type: string } }).error.type).toBe("authentication_error");

    const anthropicAnswer = await fetch(`${harness.gateway.url}/v1/messages`, {
      method: "POST",
      headers,
      body: JSON.stringify({ model: "detour", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(anthropicAnswer.status).toBe(401);
    expect((await anthropicAnswer.json()) as unknown).toMatchObject({ type: "error", error: { type: "authentication_error" } });
    expect(harness.mock.counts().total).toBe(before);
  });

  it("R-GW-4: a schema violation is a 400 naming the path, and nothing reaches a provider", async () => {
    const before = harness.mock.counts().total;
    const error = await harness.openai.chat.completions
      .create({
        model: "detour",
        messages: [{ role: "wizard", content: "hi" }],
      } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toMatch(/^messages\[0\]/);

    const anthropicError = await harness.anthropic.messages
      .create({ model: "detour", messages: [{ role: "user", content: "hi" }] } as unknown as Anthropic.MessageCreateParamsNonStreaming)
      .catch((caught: unknown) => caught);
    expect(anthropicError).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String((anthropicError as Error).message)).toContain("max_tokens");
    expect(harness.mock.counts().total).toBe(before);
  });

  it("R-GW-4: malformed JSON is a 400 and an oversized body a 413", async () => {
    const before = harness.mock.counts().total;
    const headers = { "content-type": "application/json", authorization: `Bearer ${harness.openai.apiKey}` };
    const malformed = await fetch(`${harness.gateway.url}/v1/chat/completions`, { method: "POST", headers, body: '{"model":' });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");

    // The default gateway.maxBodyMb is 32.
    const huge = "x".repeat(33 * 1024 * 1024);
    const error = await harness.anthropic.messages
      .create({ model: "detour", max_tokens: 10, messages: [{ role: "user", content: huge }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(413);
    expect(harness.mock.counts().total).toBe(before);
  });

  it("R-GW-1: /v1/models lists the agent chain for the OpenAI client", async () => {
    const ids: string[] = [];
    for await (const model of harness.openai.models.list()) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining(["detour", "openai/mock-gpt", "anthropic/mock-claude"]));
  });
});
