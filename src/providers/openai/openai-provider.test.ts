import { describe, expect, it } from "vitest";
import type { CanonicalStreamEvent } from "../../ports/canonical.js";
import { UpstreamFailure, type MalformedChunk } from "../../ports/provider.js";
import { richRequest, simpleRequest } from "../shared/__fixtures__/canonical-requests.js";
import { readFixture, readJsonFixture, serverPerTest } from "../shared/__fixtures__/loopback-server.js";
import { describeTransportContract } from "../shared/__fixtures__/transport-contract.js";
import type { ProviderSettings } from "../shared/provider-settings.js";
import { HttpProvider } from "../http-provider.js";
import { openAiQuirks } from "./quirks.js";
import { openAiChatRequestSchema } from "../../wire/openai-chat/schemas.js";
import { collectEvents } from "../shared/__fixtures__/mock-per-test.js";

const SSE = "text/event-stream";
const credential = { type: "api_key" as const, provider: "openai", key: "sk-test-openai-0123456789abcdef" };
const fixture = (name: string) => readFixture(import.meta.url, name);

const serve = serverPerTest();

function provider(baseUrl: string, extra: Partial<ProviderSettings> = {}): HttpProvider {
  return new HttpProvider({ id: "openai", api: "openai-chat", baseUrl: `${baseUrl}/v1`, ...extra }, openAiQuirks);
}

const context = (extra: { onMalformedChunk?: (chunk: MalformedChunk) => void } = {}) => ({
  model: "gpt-4o-mini",
  credential,
  signal: new AbortController().signal,
  ...extra,
});

function textOf(events: CanonicalStreamEvent[]): string {
  return events.map((event) => (event.type === "text-delta" ? event.text : "")).join("");
}

describe("the OpenAI chat provider: complete", () => {
  it("R-GW-2: translates a rich canonical request into the Chat Completions wire format", async () => {
    const upstream = await serve({ kind: "json", body: readJsonFixture(import.meta.url, "completion-text.json") });
    await provider(upstream.url, { headers: { "HTTP-Referer": "https://detour.test" } }).complete(richRequest, context());

    const [request] = upstream.requests;
    expect(request?.url).toBe("/v1/chat/completions");
    expect(request?.headers.authorization).toBe(`Bearer ${credential.key}`);
    expect(request?.headers["http-referer"]).toBe("https://detour.test");
    expect(openAiChatRequestSchema.safeParse(request?.body).success).toBe(true);
    expect(request?.body).toEqual({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "You are terse." },
        {
          role: "user",
          content: [
            { type: "text", text: "What is in these images, and what is the weather there?" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==" } },
            { type: "image_url", image_url: { url: "https://example.com/boardwalk.jpg" } },
          ],
        },
        {
          role: "assistant",
          content: "Let me check the weather.",
          tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"location":"Paris"}' } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "18°C and sunny" },
        { role: "user", content: "Thanks. Summarise." },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Current weather for a place",
            parameters: { type: "object", properties: { location: { type: "string" } }, required: ["location"] },
          },
        },
      ],
      tool_choice: { type: "function", function: { name: "get_weather" } },
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 256,
      stop: ["END"],
    });
  });

  it("R-ST-3, R-GW-7: reports the answering model and its usage with cached and reasoning token details", async () => {
    const upstream = await serve({ kind: "json", body: readJsonFixture(import.meta.url, "completion-text.json") });
    const response = await provider(upstream.url).complete(simpleRequest, context());
    expect(response).toEqual({
      id: "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
      model: "gpt-4o-2024-08-06",
      content: [{ type: "text", text: "The image shows a wooden boardwalk through a meadow." }],
      finishReason: "stop",
      usage: { inputTokens: 1117, outputTokens: 46, cacheReadTokens: 0, reasoningTokens: 0 },
    });
  });

  it("R-GW-2: tool calls come back as canonical tool-call parts with finish reason tool_calls", async () => {
    const upstream = await serve({ kind: "json", body: readJsonFixture(import.meta.url, "completion-tool-calls.json") });
    const response = await provider(upstream.url).complete(richRequest, context());
    expect(response.finishReason).toBe("tool_calls");
    expect(response.content).toEqual([
      { type: "tool-call", id: "call_abc123", name: "get_current_weather", arguments: '{\n"location": "Boston, MA"\n}' },
    ]);
    expect(response.usage).toEqual({ inputTokens: 82, outputTokens: 17, reasoningTokens: 0 });
  });

  it("a 401 keeps status, code and type and never echoes the key", async () => {
    const upstream = await serve({ kind: "json", status: 401, body: readJsonFixture(import.meta.url, "error-401-invalid-key.json") });
    const error = await provider(upstream.url)
      .complete(simpleRequest, context())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamFailure);
    const { failure, message } = error as UpstreamFailure;
    expect(failure).toMatchObject({ provider: "openai", status: 401, code: "invalid_api_key", errorType: "invalid_request_error" });
    expect(failure.message).toContain("Incorrect API key provided");
    expect(`${message} ${failure.message}`).not.toContain(credential.key);
  });

  it("a 429 keeps the rate-limit code and the TPM text", async () => {
    const upstream = await serve({
      kind: "json",
      status: 429,
      headers: { "x-ratelimit-reset-tokens": "624ms" },
      body: readJsonFixture(import.meta.url, "error-429-rate-limit.json"),
    });
    const error = (await provider(upstream.url)
      .complete(simpleRequest, context())
      .catch((caught: unknown) => caught)) as UpstreamFailure;
    expect(error.failure).toMatchObject({ status: 429, code: "rate_limit_exceeded", errorType: "tokens" });
    expect(error.failure.headers?.["x-ratelimit-reset-tokens"]).toBe("624ms");
  });

  it("OpenRouter 'Provider returned error' carries the upstream's raw text", async () => {
    const upstream = await serve({
      kind: "json",
      status: 429,
      body: readJsonFixture(import.meta.url, "openrouter-error-provider-returned.json"),
    });
    const openrouter = new HttpProvider({ id: "openrouter", api: "openai-chat", baseUrl: `${upstream.url}/api/v1` }, openAiQuirks);
    const error = (await openrouter.complete(simpleRequest, context()).catch((caught: unknown) => caught)) as UpstreamFailure;
    expect(upstream.requests[0]?.url).toBe("/api/v1/chat/completions");
    expect(error.failure).toMatchObject({ provider: "openrouter", status: 429 });
    expect(error.failure.message).toMatch(/^Provider returned error \(.*temporarily rate-limited upstream/);
  });

  it("a 200 whose body is not a chat completion is an UpstreamFailure, not a crash", async () => {
    const upstream = await serve({ kind: "json", body: { hello: "world" } });
    const error = await provider(upstream.url)
      .complete(simpleRequest, context())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamFailure);
    expect((error as UpstreamFailure).failure.message).toMatch(/malformed response body/);
  });
});

describe("the OpenAI chat provider: stream", () => {
  it("R-ST-3: streams text with the answering model and final usage; asks for usage on the wire", async () => {
    const upstream = await serve({ kind: "stream", contentType: SSE, text: fixture("stream-text.chunks.txt"), pieceBytes: 7 });
    const events = await collectEvents(provider(upstream.url).stream(simpleRequest, context()));
    expect(events[0]).toEqual({ type: "message-start", id: "chatcmpl-7ynRUcSsdVTYFvtRRR0q3rXsCiL8a", model: "gpt-4o-mini-2024-07-18" });
    expect(textOf(events)).toBe("Hello, Grüße aus Köln 👋");
    expect(events.filter((event) => event.type === "text-delta").every((event) => event.type === "text-delta" && event.text !== "")).toBe(
      true,
    );
    expect(events.at(-1)).toEqual({
      type: "finish",
      reason: "stop",
      usage: { inputTokens: 19, outputTokens: 9, cacheReadTokens: 0, reasoningTokens: 0 },
    });
    expect(upstream.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(upstream.requests[0]?.headers.accept).toBe("text/event-stream");
  });

  it("R-GW-2: streams tool calls as indexed deltas whose arguments concatenate to JSON", async () => {
    const upstream = await serve({ kind: "stream", contentType: SSE, text: fixture("stream-tool-calls.chunks.txt") });
    const events = await collectEvents(provider(upstream.url).stream(richRequest, context()));
    const deltas = events.filter((event) => event.type === "tool-call-delta");
    expect(deltas[0]).toEqual({ type: "tool-call-delta", index: 0, id: "call_DdmO9pD3xa9XTPNJ32zg2hcA", name: "get_weather" });
    const argumentsOf = (index: number) =>
      deltas.map((event) => (event.type === "tool-call-delta" && event.index === index ? (event.argumentsDelta ?? "") : "")).join("");
    expect(JSON.parse(argumentsOf(0))).toEqual({ location: "Paris, France" });
    expect(JSON.parse(argumentsOf(1))).toEqual({ timezone: "Europe/Paris" });
    expect(events.at(-1)).toEqual({ type: "finish", reason: "tool_calls", usage: { inputTokens: 83, outputTokens: 39 } });
  });

  it("R-ST-2: a stream with a finish reason and usage but no [DONE] is finalised at once, even if the server holds the connection", async () => {
    const upstream = await serve({ kind: "stream", contentType: SSE, text: fixture("stream-no-done.chunks.txt"), holdOpen: true });
    const events = await collectEvents(provider(upstream.url).stream(simpleRequest, context()));
    expect(textOf(events)).toBe("Short answer.");
    expect(events.at(-1)).toEqual({ type: "finish", reason: "stop", usage: { inputTokens: 12, outputTokens: 3 } });
    await upstream.requests[0]?.closed;
  });

  it("R-ST-2: a stream that closes after a finish reason without [DONE] is complete", async () => {
    const upstream = await serve({ kind: "stream", contentType: SSE, text: fixture("stream-finish-then-close.chunks.txt") });
    const events = await collectEvents(provider(upstream.url).stream(simpleRequest, context()));
    expect(textOf(events)).toBe("Done here");
    expect(events.at(-1)).toEqual({ type: "finish", reason: "length" });
  });

  it("R-ST-2: malformed chunks are skipped and counted, not forwarded", async () => {
    const upstream = await serve({ kind: "stream", contentType: SSE, text: fixture("stream-malformed.chunks.txt") });
    const fromContext: MalformedChunk[] = [];
    const fromSettings: MalformedChunk[] = [];
    const events = await collectEvents(
      provider(upstream.url, { onMalformedChunk: (chunk) => fromSettings.push(chunk) }).stream(
        simpleRequest,
        context({ onMalformedChunk: (chunk) => fromContext.push(chunk) }),
      ),
    );
    expect(textOf(events)).toBe("Before after");
    expect(events.at(-1)).toEqual({ type: "finish", reason: "stop", usage: { inputTokens: 5, outputTokens: 2 } });
    expect(fromContext).toHaveLength(2);
    expect(fromSettings).toHaveLength(2);
    expect(fromContext[0]).toMatchObject({ provider: "openai", model: "gpt-4o-mini", problem: expect.stringMatching(/invalid JSON/) });
    expect(fromContext[1]?.problem).toMatch(/schema mismatch at choices/);
  });

  it("an OpenRouter in-band error after content throws an UpstreamFailure with its code", async () => {
    const upstream = await serve({ kind: "stream", contentType: SSE, text: fixture("openrouter-stream-error.chunks.txt") });
    const seen: CanonicalStreamEvent[] = [];
    const openrouter = new HttpProvider({ id: "openrouter", api: "openai-chat", baseUrl: upstream.url }, openAiQuirks);
    const error = await (async () => {
      for await (const event of openrouter.stream(simpleRequest, context())) seen.push(event);
    })().catch((caught: unknown) => caught);
    expect(textOf(seen)).toBe("Partial answer");
    expect(error).toBeInstanceOf(UpstreamFailure);
    expect((error as UpstreamFailure).failure).toMatchObject({
      provider: "openrouter",
      code: "server_error",
      message: "Provider disconnected unexpectedly",
    });
  });
});

describeTransportContract({
  name: "openai",
  create: (baseUrl, extra) => provider(baseUrl, extra),
  model: "gpt-4o-mini",
  credential,
  streamContentType: SSE,
  unfinishedStream: fixture("stream-truncated.chunks.txt"),
  completeStream: fixture("stream-text.chunks.txt"),
  rateLimitBody: readJsonFixture(import.meta.url, "error-429-rate-limit.json"),
});
