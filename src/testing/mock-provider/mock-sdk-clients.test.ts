/**
 * The mock must look real to the real clients: the pinned openai and @anthropic-ai/sdk packages parse its
 * answers, streams and error bodies exactly as they would the providers'.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { startMockProvider, type MockProvider } from "./mock-server.js";
import { fingerprintKey } from "./reply.js";

let mock: MockProvider | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const tools = [
  {
    type: "function" as const,
    function: { name: "lookup", parameters: { type: "object", properties: { query: { type: "string" } } } },
  },
];

function openAIClient(server: MockProvider, apiKey = "sk-openai-test") {
  return new OpenAI({ apiKey, baseURL: `${server.url}/v1`, maxRetries: 0 });
}

function anthropicClient(server: MockProvider, apiKey = "sk-ant-test") {
  return new Anthropic({ apiKey, baseURL: server.url, maxRetries: 0 });
}

describe("mock provider with the real OpenAI SDK (R-CL-3)", () => {
  it("R-CL-3: Responses API answers, streams (the SDK's stream helper) and tool calls", async () => {
    mock = await startMockProvider();
    const client = openAIClient(mock);
    const response = await client.responses.create({ model: "gpt-mock", input: "hi" });
    expect(response.output_text).toContain(fingerprintKey("sk-openai-test"));
    expect(response.usage?.total_tokens).toBeGreaterThan(0);

    const final = await client.responses.stream({ model: "gpt-mock", input: "hi" }).finalResponse();
    expect(final.output_text).toBe(response.output_text);
    expect(final.usage?.output_tokens).toBe(response.usage?.output_tokens);

    const toolAnswer = await client.responses.create({
      model: "gpt-mock",
      input: "please use the lookup tool",
      tools: [
        { type: "function", name: "lookup", parameters: { type: "object", properties: { query: { type: "string" } } }, strict: false },
      ],
    });
    const call = toolAnswer.output.find((item) => item.type === "function_call");
    expect(call).toMatchObject({ type: "function_call", name: "lookup" });

    const failing = await startMockProvider({ scenario: [{ steps: ["rate-limit"] }] });
    try {
      const error = await openAIClient(failing)
        .responses.create({ model: "gpt-mock", input: "hi" })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    } finally {
      await failing.close();
    }
  });

  it("R-CL-3: chat completion, streamed completion with usage, and a tool call", async () => {
    mock = await startMockProvider();
    const client = openAIClient(mock);
    const completion = await client.chat.completions.create({ model: "gpt-mock", messages: [{ role: "user", content: "hi" }] });
    expect(completion.choices[0]?.message.content).toContain(fingerprintKey("sk-openai-test"));
    expect(completion.model).toBe("gpt-mock");

    const stream = client.chat.completions.stream({
      model: "gpt-mock",
      messages: [{ role: "user", content: "hi" }],
      stream_options: { include_usage: true },
    });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe(completion.choices[0]?.message.content);
    expect(final.usage?.total_tokens).toBeGreaterThan(0);

    const toolAnswer = await client.chat.completions.create({
      model: "gpt-mock",
      messages: [{ role: "user", content: "use the lookup tool" }],
      tools,
    });
    const call = toolAnswer.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === "function" ? call.function : undefined).toEqual({ name: "lookup", arguments: '{"query":"mock-query"}' });
  });

  it("R-CL-3: a 429 surfaces as RateLimitError with the provider's code and headers", async () => {
    mock = await startMockProvider({ scenario: "rate-limited-with-retry-after" });
    const failure = await openAIClient(mock)
      .chat.completions.create({ model: "gpt-mock", messages: [{ role: "user", content: "hi" }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.RateLimitError);
    expect(failure).toMatchObject({ status: 429, code: "rate_limit_exceeded", type: "requests" });
    expect((failure as InstanceType<typeof OpenAI.APIError>).headers?.get("retry-after")).toBe("2");
  });

  it("R-CL-3: an in-band error chunk makes the SDK stream throw instead of finishing", async () => {
    mock = await startMockProvider({ scenario: "stream-error" });
    const stream = openAIClient(mock).chat.completions.stream({ model: "gpt-mock", messages: [{ role: "user", content: "hi" }] });
    await expect(stream.finalChatCompletion()).rejects.toThrow(/overloaded/i);
  });

  it("R-CL-3: a cut stream makes the SDK stream fail", async () => {
    mock = await startMockProvider({ scenario: "stream-cut" });
    const stream = openAIClient(mock).chat.completions.stream({ model: "gpt-mock", messages: [{ role: "user", content: "hi" }] });
    await expect(stream.finalChatCompletion()).rejects.toThrow();
  });
});

describe("mock provider with the real Anthropic SDK (R-CL-3)", () => {
  it("R-CL-3: message, streamed message and tool use", async () => {
    mock = await startMockProvider();
    const client = anthropicClient(mock);
    const message = await client.messages.create({ model: "claude-mock", max_tokens: 50, messages: [{ role: "user", content: "hi" }] });
    const first = message.content[0];
    expect(first?.type === "text" ? first.text : "").toContain(fingerprintKey("sk-ant-test"));
    const streamed = await client.messages
      .stream({ model: "claude-mock", max_tokens: 50, messages: [{ role: "user", content: "hi" }] })
      .finalMessage();
    expect(streamed.content).toEqual(message.content);
    expect(streamed.stop_reason).toBe("end_turn");
    expect(streamed.usage.output_tokens).toBe(message.usage.output_tokens);

    const toolUse = await client.messages
      .stream({
        model: "claude-mock",
        max_tokens: 50,
        messages: [{ role: "user", content: "use a tool" }],
        tools: [{ name: "lookup", input_schema: { type: "object", properties: { query: { type: "string" } } } }],
      })
      .finalMessage();
    expect(toolUse.stop_reason).toBe("tool_use");
    expect(toolUse.content[0]).toMatchObject({ type: "tool_use", name: "lookup", input: { query: "mock-query" } });
  });

  it("R-CL-3: 529 overloaded surfaces as an APIError with Anthropic's error type", async () => {
    mock = await startMockProvider({ scenario: "overloaded" });
    const failure = await anthropicClient(mock)
      .messages.create({ model: "claude-mock", max_tokens: 50, messages: [{ role: "user", content: "hi" }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect(failure).toMatchObject({ status: 529, error: { type: "error", error: { type: "overloaded_error" } } });
  });

  it("R-CL-3: event: error in the stream makes the SDK throw", async () => {
    mock = await startMockProvider({ scenario: "stream-error" });
    const stream = anthropicClient(mock).messages.stream({
      model: "claude-mock",
      max_tokens: 50,
      messages: [{ role: "user", content: "hi" }],
    });
    await expect(stream.finalMessage()).rejects.toThrow(/Overloaded/);
  });
});

describe("mock provider: JSON mode, thinking and caching through the real SDKs", () => {
  it("OpenAI SDK: a json_schema answer parses into the schema's shape, and a repeated long prefix reports cached tokens", async () => {
    mock = await startMockProvider();
    const client = openAIClient(mock);
    const system = { role: "system" as const, content: "You report the weather of Norwegian cities, briefly. ".repeat(100) };
    const completion = await client.chat.completions.create({
      model: "gpt-mock",
      messages: [system, { role: "user", content: "Oslo" }],
      response_format: {
        type: "json_schema",
        json_schema: {
          name: "weather",
          schema: { type: "object", properties: { city: { type: "string" }, celsius: { type: "number" } }, required: ["city", "celsius"] },
        },
      },
    });
    expect(JSON.parse(completion.choices[0]?.message.content ?? "")).toEqual({ city: "mock-city", celsius: 1 });
    expect(completion.usage?.prompt_tokens_details?.cached_tokens).toBeUndefined();
    const again = await client.chat.completions.create({ model: "gpt-mock", messages: [system, { role: "user", content: "Bergen" }] });
    expect(again.usage?.prompt_tokens_details?.cached_tokens).toBeGreaterThan(0);
  });

  it("Anthropic SDK: thinking blocks with signatures, streamed and not, and cache writes then reads", async () => {
    mock = await startMockProvider();
    const client = anthropicClient(mock);
    const system = [
      {
        type: "text" as const,
        text: "You report the weather of Norwegian cities, briefly. ".repeat(100),
        cache_control: { type: "ephemeral" as const },
      },
    ];
    const request = {
      model: "claude-mock",
      max_tokens: 2048,
      thinking: { type: "enabled" as const, budget_tokens: 1024 },
      system,
      messages: [{ role: "user" as const, content: "Oslo?" }],
    };
    const message = await client.messages.create(request);
    expect(message.content.map((block) => block.type)).toEqual(["thinking", "text"]);
    const thinking = message.content[0];
    expect(thinking?.type === "thinking" && thinking.signature).toMatch(/^mock-sig-/);
    expect(message.usage.cache_creation_input_tokens).toBeGreaterThan(0);

    const streamed = await client.messages.stream(request).finalMessage();
    expect(streamed.content).toEqual(message.content);
    expect(streamed.usage.cache_read_input_tokens).toBe(message.usage.cache_creation_input_tokens);
  });
});
