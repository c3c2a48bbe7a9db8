/**
 * R-GW-10 on the canonical lane's providers: an upstream asked for a stream that answers 200
 * `application/json` with its whole answer (the mock's `ignores-stream`) gives, through `stream()` and through
 * `pushStream()`, the events of exactly the answer its own non-streamed call decodes to — real HTTP on
 * loopback, one upstream call each. Every provider API: Ollama's line-per-chunk reading takes the one JSON
 * object as it is; Gemini also takes its stream as one JSON array, as it sends it without `alt=sse`.
 */
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent } from "../../ports/canonical.js";
import type { ProviderApi, ProviderCallContext } from "../../ports/provider.js";
import { startMockProvider, type MockProvider } from "../../testing/mock-provider/index.js";
import { CanonicalResponseAssembler } from "../../wire/shared/assemble-canonical-response.js";
import { createProvider } from "../registry.js";
import { answersWithJson } from "./http-client.js";
import { UpstreamFailure } from "../../ports/provider.js";
import { classifyAttemptError } from "../../runner/failure.js";
import { WIRE_FORMATS, type WireFormatId } from "../../wire/formats.js";

let mock: MockProvider;

beforeAll(async () => {
  mock = await startMockProvider({ scenario: { rules: [{ steps: ["ignores-stream"], then: "repeat-last" }] } });
});

afterAll(async () => {
  await mock.close();
});

const APIS: { api: ProviderApi; baseUrl: (url: string) => string; model: string }[] = [
  { api: "openai-chat", baseUrl: (url) => `${url}/v1`, model: "gpt-4o-mini" },
  { api: "anthropic-messages", baseUrl: (url) => url, model: "claude-sonnet-4-5" },
  { api: "openai-responses", baseUrl: (url) => `${url}/v1`, model: "gpt-5" },
  { api: "ollama", baseUrl: (url) => url, model: "llama3.2" },
  { api: "google-generative-ai", baseUrl: (url) => `${url}/v1beta`, model: "gemini-2.5-flash" },
];

const request: CanonicalRequest = {
  messages: [{ role: "user", content: [{ type: "text", text: "Say hello in a few words." }] }],
  maxTokens: 100,
};

function call(model: string): ProviderCallContext {
  return { model, credential: { type: "api_key", provider: "mock", key: "mock-key-1" }, signal: AbortSignal.timeout(5000) };
}

/** Ids are per call (the mock numbers its answers). */
function withoutId(response: CanonicalResponse): unknown {
  return { ...response, id: "(per call)" };
}

function assembled(events: readonly CanonicalStreamEvent[], model: string): CanonicalResponse {
  const assembler = new CanonicalResponseAssembler({ id: "fallback", model });
  for (const event of events) assembler.accept(event);
  expect(assembler.finished).toBe(true);
  return assembler.response();
}

describe("a streamed call answered with the whole JSON answer (R-GW-10)", () => {
  for (const { api, baseUrl, model } of APIS) {
    it(`R-GW-10: ${api} — stream() and pushStream() give the events of the JSON answer, one call each`, async () => {
      const provider = createProvider({ id: "mock", api, baseUrl: baseUrl(mock.url), timeoutSeconds: 5 });
      const plain = await provider.complete({ ...request, model, stream: false }, call(model));
      const before = mock.requests().length;

      const pulled: CanonicalStreamEvent[] = [];
      for await (const event of provider.stream({ ...request, model, stream: true }, call(model))) pulled.push(event);
      expect(pulled[0]).toMatchObject({ type: "message-start" });
      expect(pulled.at(-1)).toMatchObject({ type: "finish", reason: "stop" });
      expect(withoutId(assembled(pulled, model))).toStrictEqual(withoutId(plain));

      const pushing = provider as typeof provider & {
        pushStream?: (r: CanonicalRequest, c: ProviderCallContext, push: (event: CanonicalStreamEvent) => boolean) => Promise<void>;
      };
      if (pushing.pushStream) {
        const pushed: CanonicalStreamEvent[] = [];
        await pushing.pushStream({ ...request, model, stream: true }, call(model), (event) => {
          pushed.push(event);
          return event.type !== "finish";
        });
        expect(withoutId(assembled(pushed, model))).toStrictEqual(withoutId(plain));
      }
      const streamedCalls = mock.requests().slice(before);
      expect(streamedCalls).toHaveLength(pushing.pushStream ? 2 : 1);
      // Each asked for a stream (Gemini in its URL, the others in the body), and got the JSON answer.
      for (const sent of streamedCalls) expect(sent).toMatchObject({ stream: true, fault: "ignores-stream" });
    });
  }

  it("R-GW-10: a stream made of a JSON answer can be returned early, and is done then", async () => {
    const provider = createProvider({ id: "mock", api: "openai-chat", baseUrl: `${mock.url}/v1`, timeoutSeconds: 5 });
    const iterator = provider.stream({ ...request, model: "gpt-4o-mini", stream: true }, call("gpt-4o-mini"))[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value).toMatchObject({ type: "message-start" });
    await iterator.return?.();
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });
});

describe("an error body sent for a stream (R-GW-10)", () => {
  for (const { api, baseUrl, model } of APIS.filter((entry) => WIRE_FORMATS[entry.api as WireFormatId].errors.render !== undefined)) {
    it(`R-GW-10: ${api} — a 200 JSON error object is the provider's error, classified as it would be mid-stream`, async () => {
      const body = WIRE_FORMATS[api as WireFormatId].errors.render?.({
        message: "Rate limit reached for requests.",
        status: 429,
        code: "rate_limit_exceeded",
      });
      const server = await startMockProvider({
        scenario: { rules: [{ steps: [{ fault: "status", status: 200, body }], then: "repeat-last" }] },
      });
      try {
        const provider = createProvider({ id: "mock", api, baseUrl: baseUrl(server.url), timeoutSeconds: 5 });
        const events: CanonicalStreamEvent[] = [];
        const error = await (async () => {
          for await (const event of provider.stream({ ...request, model, stream: true }, call(model))) events.push(event);
        })().catch((caught: unknown) => caught);
        expect(events).toEqual([]);
        expect(error).toBeInstanceOf(UpstreamFailure);
        expect((error as Error).message).toContain("Rate limit reached for requests.");
        expect(classifyAttemptError(error, "mock", Date.now()).reason).toBe("rate_limit");
      } finally {
        await server.close();
      }
    });
  }
});

describe("Gemini without alt=sse (R-GW-10)", () => {
  it("R-GW-10: a stream answered as one JSON array of chunks gives the chunks' events", async () => {
    const chunk = (text: string, finishReason?: string) => ({
      candidates: [{ content: { role: "model", parts: [{ text }] }, ...(finishReason ? { finishReason } : {}) }],
      ...(finishReason ? { usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 2, totalTokenCount: 6 } } : {}),
    });
    const server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json; charset=UTF-8" });
      response.end(JSON.stringify([chunk("Hello"), chunk(" there", "STOP")]));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as { port: number };
      const provider = createProvider({
        id: "gemini",
        api: "google-generative-ai",
        baseUrl: `http://127.0.0.1:${port}/v1beta`,
        timeoutSeconds: 5,
      });
      const events: CanonicalStreamEvent[] = [];
      for await (const event of provider.stream({ ...request, model: "gemini-2.5-flash", stream: true }, call("gemini-2.5-flash")))
        events.push(event);
      const answer = assembled(events, "gemini-2.5-flash");
      expect(answer.content).toEqual([{ type: "text", text: "Hello there" }]);
      expect(answer.finishReason).toBe("stop");
      expect(answer.usage).toMatchObject({ inputTokens: 4, outputTokens: 2 });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("answersWithJson (R-GW-10: told by the content type)", () => {
  it("R-GW-10: JSON and +json types with parameters are answers; an event stream, NDJSON, HTML or none is not", () => {
    expect(answersWithJson({ "content-type": "application/json" })).toBe(true);
    expect(answersWithJson({ "content-type": "application/json; charset=utf-8" })).toBe(true);
    expect(answersWithJson({ "content-type": "Application/JSON" })).toBe(true);
    expect(answersWithJson({ "content-type": "application/problem+json" })).toBe(true);
    expect(answersWithJson({ "content-type": ["application/json"] })).toBe(true);
    expect(answersWithJson({ "content-type": "text/event-stream; charset=utf-8" })).toBe(false);
    expect(answersWithJson({ "content-type": "application/x-ndjson" })).toBe(false);
    expect(answersWithJson({ "content-type": "application/jsonl" })).toBe(false);
    expect(answersWithJson({ "content-type": "text/html" })).toBe(false);
    expect(answersWithJson({})).toBe(false);
  });
});
