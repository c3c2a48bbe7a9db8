/**
 * The mock exercises what clients ask of an answer beyond its text: JSON mode (`response_format` and each
 * wire's equivalent), thinking blocks, and prompt-cache usage for cache marks and repeated prefixes.
 */
import { describe, expect, it } from "vitest";
import { ndjson, post, sseJson } from "./__fixtures__/http-helpers.js";
import { mockPerTest } from "./__fixtures__/mock-per-test.js";

const start = mockPerTest();

type Json = Record<string, any>;
const OPENAI = { authorization: "Bearer sk-features" };
const ANTHROPIC = { "x-api-key": "sk-features", "anthropic-version": "2023-06-01" };
const GOOGLE = { "x-goog-api-key": "sk-features" };
const SCHEMA = {
  type: "object",
  properties: {
    city: { type: "string" },
    days: { type: "integer" },
    rainy: { type: "boolean" },
    hours: { type: "array", items: { type: "number" } },
    unit: { enum: ["C", "F"] },
  },
  required: ["city", "days"],
};
const SHAPED = { city: "mock-city", days: 1, rainy: true, hours: [1], unit: "C" };

async function json(response: Response): Promise<Json> {
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
}

/** Gemini's generateContent, asked `text` with `generationConfig`; the 200 answer's JSON. */
async function askGemini(server: { url: string }, text: string, generationConfig: Json): Promise<Json> {
  const body = { contents: [{ role: "user", parts: [{ text }] }], generationConfig };
  return json(await post(server.url, "/v1beta/models/mock-gemini:generateContent", body, GOOGLE));
}

describe("mock provider: JSON mode", () => {
  it("OpenAI json_schema: the answer is JSON of the schema's shape, streamed and not", async () => {
    const server = await start();
    const body = {
      model: "mock-gpt",
      messages: [{ role: "user", content: "Weather as JSON" }],
      response_format: { type: "json_schema", json_schema: { name: "weather", schema: SCHEMA } },
    };
    const answer = await json(await post(server.url, "/v1/chat/completions", body, OPENAI));
    expect(JSON.parse(answer.choices[0].message.content)).toEqual(SHAPED);
    const streamed = await post(server.url, "/v1/chat/completions", { ...body, stream: true }, OPENAI);
    const text = sseJson(await streamed.text())
      .flatMap((chunk) => ((chunk as Json).choices ?? []).map((choice: Json) => choice.delta?.content ?? ""))
      .join("");
    expect(JSON.parse(text)).toEqual(SHAPED);
  });

  it("OpenAI json_object: the answer is a JSON object carrying the reply", async () => {
    const server = await start();
    const body = { model: "mock-gpt", messages: [{ role: "user", content: "Hi in JSON" }], response_format: { type: "json_object" } };
    const answer = await json(await post(server.url, "/v1/chat/completions", body, OPENAI));
    expect(JSON.parse(answer.choices[0].message.content)).toEqual({ answer: expect.stringContaining("Hi in JSON") });
  });

  it("Google responseJsonSchema and Ollama format: the answer is JSON of the schema's shape", async () => {
    const server = await start();
    const google = await askGemini(server, "Weather", { responseMimeType: "application/json", responseJsonSchema: SCHEMA });
    expect(JSON.parse(google.candidates[0].content.parts[0].text)).toEqual(SHAPED);
    const ollama = await json(
      await post(server.url, "/api/chat", {
        model: "mock-llama",
        stream: false,
        format: SCHEMA,
        messages: [{ role: "user", content: "Weather" }],
      }),
    );
    expect(JSON.parse(ollama.message.content)).toEqual(SHAPED);
    const plain = await json(
      await post(server.url, "/api/chat", {
        model: "mock-llama",
        stream: false,
        format: "json",
        messages: [{ role: "user", content: "Weather" }],
      }),
    );
    expect(JSON.parse(plain.message.content)).toMatchObject({ answer: expect.stringContaining("Weather") });
  });

  it("a request without JSON mode still gets plain text", async () => {
    const server = await start();
    const answer = await json(
      await post(server.url, "/v1/chat/completions", { model: "mock-gpt", messages: [{ role: "user", content: "plain" }] }, OPENAI),
    );
    expect(answer.choices[0].message.content).toMatch(/^Hello from mock-gpt/);
  });
});

describe("mock provider: thinking", () => {
  const anthropicBody = {
    model: "mock-claude",
    max_tokens: 2048,
    thinking: { type: "enabled", budget_tokens: 1024 },
    messages: [{ role: "user", content: "Think first" }],
  };

  it("Anthropic: a thinking block with a signature before the text, counted as output", async () => {
    const server = await start();
    const answer = await json(await post(server.url, "/v1/messages", anthropicBody, ANTHROPIC));
    expect(answer.content.map((block: Json) => block.type)).toEqual(["thinking", "text"]);
    expect(answer.content[0].thinking).toContain("Think first");
    expect(answer.content[0].signature).toMatch(/^mock-sig-/);
    const plain = await json(await post(server.url, "/v1/messages", { ...anthropicBody, thinking: undefined }, ANTHROPIC));
    expect(plain.content.map((block: Json) => block.type)).toEqual(["text"]);
    expect(answer.usage.output_tokens).toBeGreaterThan(plain.usage.output_tokens);
  });

  it("Anthropic streamed: thinking deltas, then the signature, then the text block at index 1", async () => {
    const server = await start();
    const events = sseJson(await (await post(server.url, "/v1/messages", { ...anthropicBody, stream: true }, ANTHROPIC)).text()) as Json[];
    const starts = events.filter((event) => event.type === "content_block_start").map((event) => [event.index, event.content_block.type]);
    expect(starts).toEqual([
      [0, "thinking"],
      [1, "text"],
    ]);
    const deltas = events.filter((event) => event.type === "content_block_delta").map((event) => event.delta.type);
    const firstText = deltas.indexOf("text_delta");
    expect(deltas.slice(0, firstText).at(-1)).toBe("signature_delta");
    expect(deltas.slice(0, firstText - 1).every((type) => type === "thinking_delta")).toBe(true);
    const thinking = events
      .filter((event) => event.delta?.type === "thinking_delta")
      .map((event) => event.delta.thinking)
      .join("");
    expect(thinking).toContain("Think first");
    const stops = events.filter((event) => event.type === "content_block_stop").map((event) => event.index);
    expect(stops).toEqual([0, 1]);
  });

  it("Google and Ollama: thought parts and message thinking; OpenAI chat: reasoning tokens in usage", async () => {
    const server = await start();
    const google = await askGemini(server, "Think", { thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } });
    expect(google.candidates[0].content.parts[0]).toMatchObject({ thought: true, thoughtSignature: expect.stringMatching(/^mock-sig-/) });
    expect(google.usageMetadata.thoughtsTokenCount).toBeGreaterThan(0);
    const streamed = await post(server.url, "/api/chat", {
      model: "mock-llama",
      think: true,
      messages: [{ role: "user", content: "Think" }],
    });
    const lines = ndjson(await streamed.text()) as Json[];
    expect(lines.map((line) => line.message?.thinking ?? "").join("")).toContain("Think");
    expect(lines.at(-1)).toMatchObject({ done: true });
    const openai = await json(
      await post(
        server.url,
        "/v1/chat/completions",
        { model: "mock-gpt", reasoning_effort: "low", messages: [{ role: "user", content: "Think" }] },
        OPENAI,
      ),
    );
    expect(openai.usage.completion_tokens_details.reasoning_tokens).toBeGreaterThan(0);
  });
});

describe("mock provider: prompt caching", () => {
  it("Anthropic cache marks: the first request writes the prefix, the next reads it", async () => {
    const server = await start();
    const body = (question: string) => ({
      model: "mock-claude",
      max_tokens: 100,
      system: [{ type: "text", text: "You are a long and detailed weather assistant. ".repeat(100), cache_control: { type: "ephemeral" } }],
      messages: [{ role: "user", content: question }],
    });
    const first = await json(await post(server.url, "/v1/messages", body("Oslo?"), ANTHROPIC));
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(first.usage.cache_read_input_tokens).toBe(0);
    const events = sseJson(
      await (await post(server.url, "/v1/messages", { ...body("Bergen?"), stream: true }, ANTHROPIC)).text(),
    ) as Json[];
    const started = events.find((event) => event.type === "message_start")?.message.usage;
    expect(started.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    expect(started.cache_creation_input_tokens).toBe(0);
  });

  it("OpenAI repeated prefix: cached_tokens on the second request only, streamed usage too", async () => {
    const server = await start();
    const history = [
      { role: "system", content: "You answer about the weather in Norway, in detail. ".repeat(100) },
      { role: "user", content: "Oslo?" },
      { role: "assistant", content: "Rain." },
    ];
    const first = await json(
      await post(
        server.url,
        "/v1/chat/completions",
        { model: "mock-gpt", messages: [...history, { role: "user", content: "And tomorrow?" }] },
        OPENAI,
      ),
    );
    expect(first.usage.prompt_tokens_details).toBeUndefined();
    const streamed = await post(
      server.url,
      "/v1/chat/completions",
      {
        model: "mock-gpt",
        stream: true,
        stream_options: { include_usage: true },
        messages: [...history, { role: "user", content: "And next week?" }],
      },
      OPENAI,
    );
    const usage = (sseJson(await streamed.text()) as Json[]).find((chunk) => chunk.usage)?.usage;
    expect(usage.prompt_tokens_details.cached_tokens).toBeGreaterThan(0);
    expect(usage.prompt_tokens_details.cached_tokens).toBeLessThanOrEqual(usage.prompt_tokens);
    // Another key is another account: nothing cached for it.
    const other = await json(
      await post(
        server.url,
        "/v1/chat/completions",
        { model: "mock-gpt", messages: [...history, { role: "user", content: "Hm?" }] },
        { authorization: "Bearer sk-other" },
      ),
    );
    expect(other.usage.prompt_tokens_details).toBeUndefined();
  });

  /** A chat request whose prefix, what the cache keys on, is `system`. */
  const chatWithSystemPrompt = (system: string) => ({
    model: "mock-gpt",
    messages: [
      { role: "system", content: system },
      { role: "user", content: "one" },
    ],
  });

  it("a prefix under 1024 tokens is not cached, as at OpenAI and Anthropic", async () => {
    const server = await start();
    const body = chatWithSystemPrompt("Short system prompt.");
    await post(server.url, "/v1/chat/completions", body, OPENAI);
    expect((await json(await post(server.url, "/v1/chat/completions", body, OPENAI))).usage.prompt_tokens_details).toBeUndefined();
  });

  it("a refused request (429) neither reads nor fills the cache", async () => {
    const server = await start();
    const body = chatWithSystemPrompt("Same long system prompt. ".repeat(200));
    server.setScenario([{ steps: ["rate-limit", "ok", "ok"] }]);
    expect((await post(server.url, "/v1/chat/completions", body, OPENAI)).status).toBe(429);
    expect((await json(await post(server.url, "/v1/chat/completions", body, OPENAI))).usage.prompt_tokens_details).toBeUndefined();
    expect(
      (await json(await post(server.url, "/v1/chat/completions", body, OPENAI))).usage.prompt_tokens_details.cached_tokens,
    ).toBeGreaterThan(0);
  });

  it("reset() forgets the cache", async () => {
    const server = await start();
    const body = chatWithSystemPrompt("Same long system prompt. ".repeat(200));
    await post(server.url, "/v1/chat/completions", body, OPENAI);
    expect(
      (await json(await post(server.url, "/v1/chat/completions", body, OPENAI))).usage.prompt_tokens_details?.cached_tokens,
    ).toBeGreaterThan(0);
    server.reset();
    expect((await json(await post(server.url, "/v1/chat/completions", body, OPENAI))).usage.prompt_tokens_details).toBeUndefined();
  });
});

describe("mock provider: the OpenAI Responses API", () => {
  it("JSON mode through text.format, reasoning tokens for a reasoning request, cached tokens for a repeated long prefix", async () => {
    const server = await start();
    const instructions = "You report the weather of Norwegian cities, in detail. ".repeat(100);
    const shaped = await json(
      await post(
        server.url,
        "/v1/responses",
        { model: "mock-gpt", input: "Weather", text: { format: { type: "json_schema", name: "weather", schema: SCHEMA } } },
        OPENAI,
      ),
    );
    expect(JSON.parse(shaped.output[0].content[0].text)).toEqual(SHAPED);
    const first = await json(
      await post(server.url, "/v1/responses", { model: "mock-gpt", instructions, input: "Oslo?", reasoning: { effort: "low" } }, OPENAI),
    );
    expect(first.usage.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);
    expect(first.usage.input_tokens_details.cached_tokens).toBe(0);
    const second = await json(await post(server.url, "/v1/responses", { model: "mock-gpt", instructions, input: "Bergen?" }, OPENAI));
    expect(second.usage.input_tokens_details.cached_tokens).toBeGreaterThan(0);
    expect(second.usage.output_tokens_details.reasoning_tokens).toBe(0);
  });
});
