import { describe, expect, it } from "vitest";
import type { CanonicalStreamEvent } from "../../ports/canonical.js";
import { UpstreamFailure, type MalformedChunk } from "../../ports/provider.js";
import { richRequest, simpleRequest } from "../shared/__fixtures__/canonical-requests.js";
import { readFixture, readJsonFixture, serverPerTest } from "../shared/__fixtures__/loopback-server.js";
import { describeTransportContract } from "../shared/__fixtures__/transport-contract.js";
import type { ProviderSettings } from "../shared/provider-settings.js";
import { HttpProvider } from "../http-provider.js";
import { anthropicMessagesUrl, anthropicQuirks } from "./quirks.js";
import { anthropicMessagesRequestSchema } from "../../wire/anthropic-messages/schemas.js";
import { collectEvents } from "../shared/__fixtures__/mock-per-test.js";

const SSE = "text/event-stream";
const credential = { type: "api_key" as const, provider: "anthropic", key: "sk-ant-test-0123456789abcdef" };
const fixture = (name: string) => readFixture(import.meta.url, name);
const jsonFixture = (name: string) => readJsonFixture(import.meta.url, name);

const serve = serverPerTest();

function provider(baseUrl: string, extra: Partial<ProviderSettings> = {}): HttpProvider {
  return new HttpProvider({ id: "anthropic", api: "anthropic-messages", baseUrl, ...extra }, anthropicQuirks);
}

const context = (
  extra: Partial<{
    onMalformedChunk: (chunk: MalformedChunk) => void;
    credential: typeof credential | { type: "oauth"; provider: string; access: string };
  }> = {},
) => ({
  model: "claude-sonnet-4-5",
  credential,
  signal: new AbortController().signal,
  ...extra,
});

const textOf = (events: CanonicalStreamEvent[]) => events.map((event) => (event.type === "text-delta" ? event.text : "")).join("");

describe("the Anthropic provider: complete", () => {
  it("R-GW-2: translates a rich canonical request into the Messages wire format", async () => {
    const upstream = await serve({ kind: "json", body: jsonFixture("message-text.json") });
    await provider(upstream.url).complete(richRequest, context());
    const [request] = upstream.requests;
    expect(request?.url).toBe("/v1/messages");
    expect(request?.headers["x-api-key"]).toBe(credential.key);
    expect(request?.headers["anthropic-version"]).toBe("2023-06-01");
    expect(request?.headers.authorization).toBeUndefined();
    expect(anthropicMessagesRequestSchema.safeParse(request?.body).success).toBe(true);
    expect(request?.body).toEqual({
      model: "claude-sonnet-4-5",
      max_tokens: 256,
      system: "You are terse.",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is in these images, and what is the weather there?" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgoAAAANSUhEUg==" } },
            { type: "image", source: { type: "url", url: "https://example.com/boardwalk.jpg" } },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Let me check the weather." },
            { type: "tool_use", id: "call_1", name: "get_weather", input: { location: "Paris" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "call_1", content: "18°C and sunny" },
            { type: "text", text: "Thanks. Summarise." },
          ],
        },
      ],
      tools: [
        {
          name: "get_weather",
          description: "Current weather for a place",
          input_schema: { type: "object", properties: { location: { type: "string" } }, required: ["location"] },
        },
      ],
      tool_choice: { type: "tool", name: "get_weather" },
      temperature: 0.2,
      stop_sequences: ["END"],
    });
  });

  it("R-GW-2: applies a default max_tokens, tool choice 'required' → any, and OAuth tokens as Bearer with the beta flag", async () => {
    const upstream = await serve({ kind: "json", body: jsonFixture("message-text.json") });
    await provider(upstream.url).complete(
      { ...simpleRequest, toolChoice: "required", topP: 0.5, metadata: { user_id: "u-1", other: "dropped" } },
      context({ credential: { type: "oauth", provider: "anthropic", access: "sk-ant-oat01-access-token-value" } }),
    );
    const [request] = upstream.requests;
    expect(request?.headers.authorization).toBe("Bearer sk-ant-oat01-access-token-value");
    expect(request?.headers["anthropic-beta"]).toBe("oauth-2025-04-20");
    expect(request?.headers["x-api-key"]).toBeUndefined();
    expect(request?.body).toMatchObject({ max_tokens: 4096, tool_choice: { type: "any" }, top_p: 0.5, metadata: { user_id: "u-1" } });
  });

  it("R-ST-3, R-GW-7: reports the answering model and usage, counting cache tokens as input and naming cache reads and writes", async () => {
    const upstream = await serve({ kind: "json", body: jsonFixture("message-text.json") });
    expect(await provider(upstream.url).complete(simpleRequest, context())).toEqual({
      id: "msg_013Zva2CMHLNnXjNJJKqJ2EF",
      model: "claude-sonnet-4-5-20250929",
      content: [{ type: "text", text: "Hi! My name is Claude." }],
      finishReason: "stop",
      usage: { inputTokens: 2200, outputTokens: 503, cacheReadTokens: 5, cacheWriteTokens: 100 },
    });
  });

  it("R-GW-2: tool_use blocks become tool calls; thinking blocks are not relayed", async () => {
    const upstream = await serve({ kind: "json", body: jsonFixture("message-tool-use.json") });
    const response = await provider(upstream.url).complete(richRequest, context());
    expect(response.finishReason).toBe("tool_calls");
    expect(response.content).toEqual([
      { type: "text", text: "I'll check the current weather in San Francisco for you." },
      {
        type: "tool-call",
        id: "toolu_01A09q90qw90lq917835lq9",
        name: "get_weather",
        arguments: '{"location":"San Francisco, CA","unit":"celsius"}',
      },
    ]);
  });

  it.each([
    { file: "error-529-overloaded.json", status: 529, errorType: "overloaded_error", message: /^Overloaded$/ },
    { file: "error-429-rate-limit.json", status: 429, errorType: "rate_limit_error", message: /input tokens per minute/ },
    { file: "error-400-prompt-too-long.json", status: 400, errorType: "invalid_request_error", message: /prompt is too long/ },
  ])("HTTP $status $errorType keeps status, type and message", async ({ file, status, errorType, message }) => {
    const upstream = await serve({
      kind: "json",
      status,
      headers: { "anthropic-ratelimit-requests-reset": "2026-01-01T00:00:30Z" },
      body: jsonFixture(file),
    });
    const error = await provider(upstream.url)
      .complete(simpleRequest, context())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamFailure);
    const { failure } = error as UpstreamFailure;
    expect(failure).toMatchObject({ provider: "anthropic", status, errorType });
    expect(failure.message).toMatch(message);
    expect(failure.headers?.["anthropic-ratelimit-requests-reset"]).toBe("2026-01-01T00:00:30Z");
  });
});

describe("the Anthropic provider: stream", () => {
  it("R-ST-3: streams text and finishes with the answering model and usage", async () => {
    const upstream = await serve({ kind: "stream", contentType: SSE, text: fixture("stream-text.chunks.txt"), pieceBytes: 5 });
    const events = await collectEvents(provider(upstream.url).stream(simpleRequest, context()));
    // The input tokens message_start states are carried on (R-HG-1: a raced loser closed before its answer is charged them).
    expect(events[0]).toEqual({
      type: "message-start",
      id: "msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY",
      model: "claude-sonnet-4-5-20250929",
      inputTokens: 25,
    });
    expect(textOf(events)).toBe("Hello, Grüße aus Köln 👋");
    expect(events.at(-1)).toEqual({
      type: "finish",
      reason: "stop",
      usage: { inputTokens: 25, outputTokens: 15, cacheReadTokens: 0, cacheWriteTokens: 0 },
    });
    expect(upstream.requests[0]?.body).toMatchObject({ stream: true });
  });

  it("R-GW-2: streams tool_use input as argument deltas on tool index 0 (text blocks do not count)", async () => {
    const upstream = await serve({ kind: "stream", contentType: SSE, text: fixture("stream-tool-use.chunks.txt") });
    const events = await collectEvents(provider(upstream.url).stream(richRequest, context()));
    const deltas = events.filter((event) => event.type === "tool-call-delta");
    expect(deltas[0]).toEqual({ type: "tool-call-delta", index: 0, id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", name: "get_weather" });
    expect(deltas.every((event) => event.type === "tool-call-delta" && event.index === 0)).toBe(true);
    const args = deltas.map((event) => (event.type === "tool-call-delta" ? (event.argumentsDelta ?? "") : "")).join("");
    expect(JSON.parse(args)).toEqual({ location: "San Francisco, CA", unit: "fahrenheit" });
    expect(textOf(events)).toBe("Okay, let's check the weather for San Francisco, CA:");
    expect(events.at(-1)).toEqual({ type: "finish", reason: "tool_calls", usage: { inputTokens: 472, outputTokens: 89 } });
  });

  it("event: error overloaded_error mid-stream throws an UpstreamFailure with the 529-equivalent status", async () => {
    const upstream = await serve({ kind: "stream", contentType: SSE, text: fixture("stream-overloaded-error.chunks.txt") });
    const seen: CanonicalStreamEvent[] = [];
    const error = await (async () => {
      for await (const event of provider(upstream.url).stream(simpleRequest, context())) seen.push(event);
    })().catch((caught: unknown) => caught);
    expect(textOf(seen)).toBe("Partial");
    expect(seen.some((event) => event.type === "finish")).toBe(false);
    expect(error).toBeInstanceOf(UpstreamFailure);
    expect((error as UpstreamFailure).failure).toMatchObject({
      provider: "anthropic",
      status: 529,
      errorType: "overloaded_error",
      message: "Overloaded",
    });
  });

  it("R-ST-2: a stream that closes after the stop reason without message_stop is complete", async () => {
    const upstream = await serve({ kind: "stream", contentType: SSE, text: fixture("stream-no-message-stop.chunks.txt") });
    const events = await collectEvents(provider(upstream.url).stream(simpleRequest, context()));
    expect(textOf(events)).toBe("Brief.");
    expect(events.at(-1)).toEqual({ type: "finish", reason: "length", usage: { inputTokens: 10, outputTokens: 4 } });
  });

  it("R-ST-2: malformed events are skipped and counted; unknown event types are ignored", async () => {
    const upstream = await serve({ kind: "stream", contentType: SSE, text: fixture("stream-malformed.chunks.txt") });
    const malformed: MalformedChunk[] = [];
    const events = await collectEvents(
      provider(upstream.url).stream(simpleRequest, context({ onMalformedChunk: (chunk) => malformed.push(chunk) })),
    );
    expect(textOf(events)).toBe("Before after");
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "stop" });
    expect(malformed.map((chunk) => chunk.problem)).toEqual([
      expect.stringMatching(/invalid JSON/),
      expect.stringMatching(/schema mismatch at index/),
    ]);
  });
});

describe("anthropicMessagesUrl", () => {
  it.each([
    ["https://api.anthropic.com", "https://api.anthropic.com/v1/messages"],
    ["https://api.anthropic.com/", "https://api.anthropic.com/v1/messages"],
    ["https://proxy.example/anthropic/v1", "https://proxy.example/anthropic/v1/messages"],
  ])("%s → %s", (baseUrl, expected) => {
    expect(anthropicMessagesUrl(baseUrl)).toBe(expected);
  });
});

describeTransportContract({
  name: "anthropic",
  create: (baseUrl, extra) => provider(baseUrl, extra),
  model: "claude-sonnet-4-5",
  credential,
  streamContentType: SSE,
  unfinishedStream: fixture("stream-truncated.chunks.txt"),
  completeStream: fixture("stream-text.chunks.txt"),
  rateLimitBody: jsonFixture("error-429-rate-limit.json"),
});
