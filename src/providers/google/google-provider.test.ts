import { describe, expect, it } from "vitest";
import type { CanonicalStreamEvent } from "../../ports/canonical.js";
import { UpstreamFailure, type MalformedChunk } from "../../ports/provider.js";
import { richRequest, simpleRequest } from "../shared/__fixtures__/canonical-requests.js";
import { readFixture, readJsonFixture, serverPerTest } from "../shared/__fixtures__/loopback-server.js";
import { describeTransportContract } from "../shared/__fixtures__/transport-contract.js";
import type { ProviderSettings } from "../shared/provider-settings.js";
import { HttpProvider } from "../http-provider.js";
import { googleMethodUrl, googleQuirks } from "./quirks.js";
import { googleGenerateContentRequestSchema } from "../../wire/google-generative-ai/schemas.js";
import { collectEvents } from "../shared/__fixtures__/mock-per-test.js";

const SSE = "text/event-stream";
const credential = { type: "api_key" as const, provider: "google", key: "AIzaSy-test-0123456789abcdef" };
const fixture = (name: string) => readFixture(import.meta.url, name);
const jsonFixture = (name: string) => readJsonFixture(import.meta.url, name);

const serve = serverPerTest();

let nextId = 0;
function provider(baseUrl: string, extra: Partial<ProviderSettings> = {}): HttpProvider {
  return new HttpProvider(
    {
      id: "google",
      api: "google-generative-ai",
      baseUrl,
      createToolCallId: () => `call_test_${nextId++}`,
      createResponseId: () => "resp_generated",
      ...extra,
    },
    googleQuirks,
  );
}

const context = (extra: { onMalformedChunk?: (chunk: MalformedChunk) => void } = {}) => ({
  model: "gemini-2.5-flash",
  credential,
  signal: new AbortController().signal,
  ...extra,
});

const textOf = (events: CanonicalStreamEvent[]) => events.map((event) => (event.type === "text-delta" ? event.text : "")).join("");

describe("the Gemini provider: complete", () => {
  it("R-GW-2: translates a rich canonical request into the generateContent wire format", async () => {
    const upstream = await serve({ kind: "json", body: jsonFixture("generate-text.json") });
    await provider(upstream.url).complete(richRequest, context());
    const [request] = upstream.requests;
    expect(request?.url).toBe("/v1beta/models/gemini-2.5-flash:generateContent");
    expect(request?.headers["x-goog-api-key"]).toBe(credential.key);
    expect(request?.headers.authorization).toBeUndefined();
    expect(googleGenerateContentRequestSchema.safeParse(request?.body).success).toBe(true);
    expect(request?.body).toEqual({
      contents: [
        {
          role: "user",
          parts: [
            { text: "What is in these images, and what is the weather there?" },
            { inlineData: { mimeType: "image/png", data: "iVBORw0KGgoAAAANSUhEUg==" } },
            { fileData: { mimeType: "image/jpeg", fileUri: "https://example.com/boardwalk.jpg" } },
          ],
        },
        {
          role: "model",
          parts: [{ text: "Let me check the weather." }, { functionCall: { name: "get_weather", args: { location: "Paris" } } }],
        },
        {
          role: "user",
          parts: [{ functionResponse: { name: "get_weather", response: { output: "18°C and sunny" } } }, { text: "Thanks. Summarise." }],
        },
      ],
      systemInstruction: { parts: [{ text: "You are terse." }] },
      tools: [
        {
          functionDeclarations: [
            {
              name: "get_weather",
              description: "Current weather for a place",
              parametersJsonSchema: { type: "object", properties: { location: { type: "string" } }, required: ["location"] },
            },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] } },
      generationConfig: { temperature: 0.2, topP: 0.9, maxOutputTokens: 256, stopSequences: ["END"] },
    });
  });

  it("R-ST-3, R-GW-7: reports the answering model and usage (thinking counts as output and as reasoning tokens); thoughts are not relayed", async () => {
    const upstream = await serve({ kind: "json", body: jsonFixture("generate-text.json") });
    expect(await provider(upstream.url).complete(simpleRequest, context())).toEqual({
      id: "Xv2laOKtD9OSz7IPnbS_yQk",
      model: "gemini-2.5-flash",
      content: [{ type: "text", text: "The image shows a wooden boardwalk through a green meadow." }],
      finishReason: "stop",
      usage: { inputTokens: 265, outputTokens: 53, reasoningTokens: 41 },
    });
  });

  it("R-GW-2: function calls get ids and finish reason tool_calls", async () => {
    const upstream = await serve({ kind: "json", body: jsonFixture("generate-function-call.json") });
    const response = await provider(upstream.url, {
      createToolCallId: (() => {
        let n = 0;
        return () => `call_g${n++}`;
      })(),
    }).complete(richRequest, context());
    expect(response.finishReason).toBe("tool_calls");
    expect(response.content).toEqual([
      { type: "tool-call", id: "call_g0", name: "get_weather", arguments: '{"location":"Paris","unit":"celsius"}' },
      { type: "tool-call", id: "call_g1", name: "get_time", arguments: '{"timezone":"Europe/Paris"}' },
    ]);
  });

  it("a blocked prompt is an empty answer with finish reason content_filter", async () => {
    const upstream = await serve({ kind: "json", body: jsonFixture("generate-prompt-blocked.json") });
    const response = await provider(upstream.url).complete(simpleRequest, context());
    expect(response).toMatchObject({ content: [], finishReason: "content_filter", usage: { inputTokens: 9, outputTokens: 0 } });
  });

  it("R-EC-6: a 429 RESOURCE_EXHAUSTED keeps its code and turns RetryInfo into a retry-after-ms hint", async () => {
    const upstream = await serve({ kind: "json", status: 429, body: jsonFixture("error-429-resource-exhausted.json") });
    const error = await provider(upstream.url)
      .complete(simpleRequest, context())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamFailure);
    const { failure } = error as UpstreamFailure;
    expect(failure).toMatchObject({ provider: "google", status: 429, code: "RESOURCE_EXHAUSTED" });
    expect(failure.message).toMatch(/exceeded your current quota/);
    expect(failure.headers?.["retry-after-ms"]).toBe("37000");
  });

  it("a 400 API_KEY_INVALID carries the ErrorInfo reason as error type", async () => {
    const upstream = await serve({ kind: "json", status: 400, body: jsonFixture("error-400-api-key-invalid.json") });
    const error = (await provider(upstream.url)
      .complete(simpleRequest, context())
      .catch((caught: unknown) => caught)) as UpstreamFailure;
    expect(error.failure).toMatchObject({
      status: 400,
      code: "INVALID_ARGUMENT",
      errorType: "API_KEY_INVALID",
      message: "API key not valid. Please pass a valid API key.",
    });
  });

  it("OAuth credentials are sent as Bearer tokens", async () => {
    const upstream = await serve({ kind: "json", body: jsonFixture("generate-text.json") });
    await provider(upstream.url).complete(simpleRequest, {
      ...context(),
      credential: { type: "oauth", provider: "google", access: "ya29.test-access-token" },
    });
    expect(upstream.requests[0]?.headers.authorization).toBe("Bearer ya29.test-access-token");
    expect(upstream.requests[0]?.headers["x-goog-api-key"]).toBeUndefined();
  });
});

describe("the Gemini provider: stream", () => {
  it("R-ST-3: streams text over alt=sse and finishes with the answering model and usage", async () => {
    const upstream = await serve({ kind: "stream", contentType: SSE, text: fixture("stream-text.chunks.txt"), pieceBytes: 11 });
    const events = await collectEvents(provider(upstream.url).stream(simpleRequest, context()));
    expect(upstream.requests[0]?.url).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    expect(events[0]).toEqual({ type: "message-start", id: "streamResp01", model: "gemini-2.5-flash" });
    expect(textOf(events)).toBe("Hello, Grüße aus Köln 👋");
    expect(events.at(-1)).toEqual({ type: "finish", reason: "stop", usage: { inputTokens: 8, outputTokens: 12, reasoningTokens: 3 } });
  });

  it("R-GW-2: a streamed function call is one complete tool-call delta; finish reason tool_calls", async () => {
    const upstream = await serve({ kind: "stream", contentType: SSE, text: fixture("stream-function-call.chunks.txt") });
    const events = await collectEvents(provider(upstream.url, { createToolCallId: () => "call_fixed" }).stream(richRequest, context()));
    expect(events.filter((event) => event.type === "tool-call-delta")).toEqual([
      { type: "tool-call-delta", index: 0, id: "call_fixed", name: "get_weather", argumentsDelta: '{"location":"Paris"}' },
    ]);
    expect(events.at(-1)).toEqual({ type: "finish", reason: "tool_calls", usage: { inputTokens: 74, outputTokens: 18 } });
  });

  it("an in-stream error object throws an UpstreamFailure with its status and code", async () => {
    const upstream = await serve({ kind: "stream", contentType: SSE, text: fixture("stream-error.chunks.txt") });
    const seen: CanonicalStreamEvent[] = [];
    const error = await (async () => {
      for await (const event of provider(upstream.url).stream(simpleRequest, context())) seen.push(event);
    })().catch((caught: unknown) => caught);
    expect(textOf(seen)).toBe("Partial");
    expect((error as UpstreamFailure).failure).toMatchObject({
      status: 503,
      code: "UNAVAILABLE",
      message: "The model is overloaded. Please try again later.",
    });
  });

  it("R-ST-2: malformed chunks are skipped and counted", async () => {
    const upstream = await serve({ kind: "stream", contentType: SSE, text: fixture("stream-malformed.chunks.txt") });
    const malformed: MalformedChunk[] = [];
    const events = await collectEvents(
      provider(upstream.url).stream(simpleRequest, context({ onMalformedChunk: (chunk) => malformed.push(chunk) })),
    );
    expect(textOf(events)).toBe("Before after");
    expect(events.at(-1)).toEqual({ type: "finish", reason: "stop", usage: { inputTokens: 3, outputTokens: 2 } });
    expect(malformed).toHaveLength(2);
  });

  it("a MALFORMED_FUNCTION_CALL finish is a failure, never a clean end", async () => {
    const text =
      'data: {"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"MALFORMED_FUNCTION_CALL","index":0}],"responseId":"r"}\n\n';
    const upstream = await serve({ kind: "stream", contentType: SSE, text });
    const error = await collectEvents(provider(upstream.url).stream(simpleRequest, context())).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamFailure);
    expect((error as UpstreamFailure).failure.message).toMatch(/stop reason: error \(MALFORMED_FUNCTION_CALL\)/);
  });
});

describe("googleMethodUrl", () => {
  it.each([
    [
      "https://generativelanguage.googleapis.com",
      "gemini-2.5-pro",
      "generateContent",
      "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent",
    ],
    [
      "https://generativelanguage.googleapis.com/v1beta/",
      "models/gemini-2.5-pro",
      "streamGenerateContent",
      "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
    ],
    [
      "https://proxy.example/google/v1",
      "gemini-2.5-flash",
      "generateContent",
      "https://proxy.example/google/v1/models/gemini-2.5-flash:generateContent",
    ],
  ] as const)("%s + %s → %s", (baseUrl, model, method, expected) => {
    expect(googleMethodUrl(baseUrl, model, method)).toBe(expected);
  });
});

describeTransportContract({
  name: "google",
  create: (baseUrl, extra) => provider(baseUrl, extra),
  model: "gemini-2.5-flash",
  credential,
  streamContentType: SSE,
  unfinishedStream: fixture("stream-truncated.chunks.txt"),
  completeStream: fixture("stream-text.chunks.txt"),
  rateLimitBody: jsonFixture("error-429-resource-exhausted.json"),
});
