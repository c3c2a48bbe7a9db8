import { describe, expect, it } from "vitest";
import type { CanonicalStreamEvent } from "../../ports/canonical.js";
import { UpstreamFailure, type MalformedChunk } from "../../ports/provider.js";
import { richRequest, simpleRequest } from "../shared/__fixtures__/canonical-requests.js";
import { readFixture, readJsonFixture, serverPerTest } from "../shared/__fixtures__/loopback-server.js";
import { describeTransportContract } from "../shared/__fixtures__/transport-contract.js";
import type { ProviderSettings } from "../shared/provider-settings.js";
import { HttpProvider } from "../http-provider.js";
import { ollamaEndpoint, ollamaQuirks } from "./quirks.js";
import { ollamaChatRequestSchema } from "../../wire/ollama/schemas.js";
import { collectEvents } from "../shared/__fixtures__/mock-per-test.js";

const NDJSON = "application/x-ndjson";
const fixture = (name: string) => readFixture(import.meta.url, name);
const jsonFixture = (name: string) => readJsonFixture(import.meta.url, name);

const serve = serverPerTest();

function provider(baseUrl: string, extra: Partial<ProviderSettings> = {}): HttpProvider {
  let toolCalls = 0;
  return new HttpProvider(
    {
      id: "ollama",
      api: "ollama",
      baseUrl,
      createToolCallId: () => `call_o${toolCalls++}`,
      createResponseId: () => "ollama-resp",
      ...extra,
    },
    ollamaQuirks,
  );
}

const context = (extra: { onMalformedChunk?: (chunk: MalformedChunk) => void } = {}) => ({
  model: "llama3.2",
  signal: new AbortController().signal,
  ...extra,
});

const textOf = (events: CanonicalStreamEvent[]) => events.map((event) => (event.type === "text-delta" ? event.text : "")).join("");

describe("the Ollama provider: complete", () => {
  it("R-GW-2: translates a rich canonical request into the native /api/chat format, keyless", async () => {
    const upstream = await serve({ kind: "json", body: jsonFixture("chat-text.json") });
    await provider(`${upstream.url}/v1`).complete(richRequest, context());
    const [request] = upstream.requests;
    expect(request?.url).toBe("/api/chat");
    expect(request?.headers.authorization).toBeUndefined();
    expect(ollamaChatRequestSchema.safeParse(request?.body).success).toBe(true);
    expect(request?.body).toEqual({
      model: "llama3.2",
      stream: false,
      messages: [
        { role: "system", content: "You are terse." },
        {
          role: "user",
          content: "What is in these images, and what is the weather there?\n[image: https://example.com/boardwalk.jpg]",
          images: ["iVBORw0KGgoAAAANSUhEUg=="],
        },
        {
          role: "assistant",
          content: "Let me check the weather.",
          tool_calls: [{ function: { name: "get_weather", arguments: { location: "Paris" } } }],
        },
        { role: "tool", content: "18°C and sunny", tool_name: "get_weather" },
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
      options: { temperature: 0.2, top_p: 0.9, num_predict: 256, stop: ["END"] },
    });
  });

  it("R-GW-2: tool choice 'none' offers no tools; a configured credential is sent as Bearer", async () => {
    const upstream = await serve({ kind: "json", body: jsonFixture("chat-text.json") });
    await provider(upstream.url).complete(
      { ...richRequest, toolChoice: "none" },
      { ...context(), credential: { type: "api_key", provider: "ollama", key: "ollama-cloud-key-0123" } },
    );
    expect(upstream.requests[0]?.body).not.toHaveProperty("tools");
    expect(upstream.requests[0]?.headers.authorization).toBe("Bearer ollama-cloud-key-0123");
  });

  it("R-ST-3: reports the answering model and usage", async () => {
    const upstream = await serve({ kind: "json", body: jsonFixture("chat-text.json") });
    expect(await provider(upstream.url).complete(simpleRequest, context())).toEqual({
      id: "ollama-resp",
      model: "llama3.2",
      content: [{ type: "text", text: "Hello! How are you today?" }],
      finishReason: "stop",
      usage: { inputTokens: 26, outputTokens: 298 },
    });
  });

  it("R-GW-2: tool calls get ids and finish reason tool_calls", async () => {
    const upstream = await serve({ kind: "json", body: jsonFixture("chat-tool-calls.json") });
    const response = await provider(upstream.url).complete(richRequest, context());
    expect(response.finishReason).toBe("tool_calls");
    expect(response.content).toEqual([
      { type: "tool-call", id: "call_o0", name: "get_current_weather", arguments: '{"format":"celsius","location":"Paris, FR"}' },
    ]);
  });

  it("a 404 for a missing model keeps status and Ollama's text", async () => {
    const upstream = await serve({ kind: "json", status: 404, body: jsonFixture("error-404-model-not-found.json") });
    const error = await provider(upstream.url)
      .complete(simpleRequest, context())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamFailure);
    expect((error as UpstreamFailure).failure).toMatchObject({
      provider: "ollama",
      status: 404,
      message: 'model "llama9" not found, try pulling it first',
    });
  });
});

describe("the Ollama provider: stream", () => {
  it("R-ST-3: streams NDJSON text and finishes with the answering model and usage", async () => {
    const upstream = await serve({ kind: "stream", contentType: NDJSON, text: fixture("stream-text.chunks.txt"), pieceBytes: 9 });
    const events = await collectEvents(provider(upstream.url).stream(simpleRequest, context()));
    expect(upstream.requests[0]?.body).toMatchObject({ stream: true });
    expect(events[0]).toEqual({ type: "message-start", id: "ollama-resp", model: "llama3.2" });
    expect(textOf(events)).toBe("Hello, Grüße aus Köln 👋");
    expect(events.at(-1)).toEqual({ type: "finish", reason: "stop", usage: { inputTokens: 26, outputTokens: 282 } });
  });

  it("R-GW-2: streamed tool calls are complete deltas with their own indexes", async () => {
    const upstream = await serve({ kind: "stream", contentType: NDJSON, text: fixture("stream-tool-calls.chunks.txt") });
    const events = await collectEvents(provider(upstream.url).stream(richRequest, context()));
    expect(events.filter((event) => event.type === "tool-call-delta")).toEqual([
      { type: "tool-call-delta", index: 0, id: "call_o0", name: "get_weather", argumentsDelta: '{"location":"Paris"}' },
      { type: "tool-call-delta", index: 1, id: "call_o1", name: "get_time", argumentsDelta: '{"timezone":"Europe/Paris"}' },
    ]);
    expect(events.at(-1)).toEqual({ type: "finish", reason: "tool_calls", usage: { inputTokens: 213, outputTokens: 41 } });
  });

  it("R-ST-2: a final done line without a trailing newline still completes the stream", async () => {
    const upstream = await serve({ kind: "stream", contentType: NDJSON, text: fixture("stream-length-no-newline.chunks.txt") });
    const events = await collectEvents(provider(upstream.url).stream(simpleRequest, context()));
    expect(textOf(events)).toBe("Cut by num_predict");
    expect(events.at(-1)).toEqual({ type: "finish", reason: "length", usage: { inputTokens: 11, outputTokens: 2 } });
  });

  it("an error line mid-stream throws an UpstreamFailure with Ollama's text", async () => {
    const upstream = await serve({ kind: "stream", contentType: NDJSON, text: fixture("stream-error.chunks.txt") });
    const seen: CanonicalStreamEvent[] = [];
    const error = await (async () => {
      for await (const event of provider(upstream.url).stream(simpleRequest, context())) seen.push(event);
    })().catch((caught: unknown) => caught);
    expect(textOf(seen)).toBe("Partial");
    expect((error as UpstreamFailure).failure).toMatchObject({
      provider: "ollama",
      message: "an error was encountered while running the model: unexpected EOF",
    });
  });

  it("R-ST-2: malformed lines are skipped and counted", async () => {
    const upstream = await serve({ kind: "stream", contentType: NDJSON, text: fixture("stream-malformed.chunks.txt") });
    const malformed: MalformedChunk[] = [];
    const events = await collectEvents(
      provider(upstream.url).stream(simpleRequest, context({ onMalformedChunk: (chunk) => malformed.push(chunk) })),
    );
    expect(textOf(events)).toBe("Before after");
    expect(malformed.map((chunk) => chunk.problem)).toEqual([
      expect.stringMatching(/invalid JSON/),
      expect.stringMatching(/schema mismatch at done/),
    ]);
  });
});

describe("ollamaEndpoint", () => {
  it.each([
    ["http://127.0.0.1:11434", "http://127.0.0.1:11434/api/chat"],
    ["http://127.0.0.1:11434/", "http://127.0.0.1:11434/api/chat"],
    ["http://127.0.0.1:11434/v1", "http://127.0.0.1:11434/api/chat"],
    ["http://127.0.0.1:11434/api", "http://127.0.0.1:11434/api/chat"],
  ])("%s → %s", (baseUrl, expected) => {
    expect(ollamaEndpoint(baseUrl, "api/chat")).toBe(expected);
  });
});

describeTransportContract({
  name: "ollama",
  create: (baseUrl, extra) => provider(baseUrl, extra),
  model: "llama3.2",
  streamContentType: NDJSON,
  unfinishedStream: fixture("stream-truncated.chunks.txt"),
  completeStream: fixture("stream-text.chunks.txt"),
  rateLimitBody: { error: "too many concurrent requests" },
});
