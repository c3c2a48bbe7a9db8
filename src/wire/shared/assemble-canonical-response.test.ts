/**
 * R-ST-6 on the canonical lane: for each provider API that streams (OpenAI chat, Anthropic messages, Google
 * Generative AI, Ollama), the answer assembled from the provider's stream equals what its own non-streamed
 * call decodes to, for the same content — real HTTP on loopback against the mock provider's wire formats.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CanonicalRequest, CanonicalResponse } from "../../ports/canonical.js";
import type { ProviderApi } from "../../ports/provider.js";
import { createProvider } from "../../providers/registry.js";
import { startMockProvider, type MockProvider } from "../../testing/mock-provider/index.js";
import { CanonicalResponseAssembler } from "./assemble-canonical-response.js";

let mock: MockProvider;

beforeAll(async () => {
  mock = await startMockProvider();
});

afterAll(async () => {
  await mock.close();
});

const APIS: { api: ProviderApi; baseUrl: (url: string) => string; model: string }[] = [
  { api: "openai-chat", baseUrl: (url) => `${url}/v1`, model: "gpt-4o-mini" },
  { api: "anthropic-messages", baseUrl: (url) => url, model: "claude-sonnet-4-5" },
  { api: "google-generative-ai", baseUrl: (url) => `${url}/v1beta`, model: "gemini-2.5-flash" },
  { api: "ollama", baseUrl: (url) => url, model: "llama3.2" },
];

const REQUESTS: [string, CanonicalRequest][] = [
  ["text", { messages: [{ role: "user", content: [{ type: "text", text: "Say hello in a few words." }] }], maxTokens: 100 }],
  [
    "tool call",
    {
      messages: [{ role: "user", content: [{ type: "text", text: "Use the tool get_weather for Paris." }] }],
      tools: [{ name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } } } }],
      maxTokens: 100,
    },
  ],
];

/** Ids are per call (the mock numbers its answers; Google and Ollama have none on the wire). */
function withoutIds(response: CanonicalResponse): unknown {
  return {
    ...response,
    id: "(per call)",
    content: response.content.map((part) => (part.type === "tool-call" ? { ...part, id: part.id === "" ? "" : "(per call)" } : part)),
  };
}

describe("CanonicalResponseAssembler", () => {
  for (const { api, baseUrl, model } of APIS) {
    for (const [name, request] of REQUESTS) {
      it(`R-ST-6: ${api} — ${name}: the assembled stream equals the provider's own non-streamed answer`, async () => {
        const provider = createProvider({ id: "mock", api, baseUrl: baseUrl(mock.url), timeoutSeconds: 5 });
        const call = {
          model,
          credential: { type: "api_key" as const, provider: "mock", key: "mock-key-1" },
          signal: AbortSignal.timeout(5000),
        };
        const plain = await provider.complete({ ...request, model, stream: false }, call);
        const assembler = new CanonicalResponseAssembler({ id: "fallback", model });
        for await (const event of provider.stream({ ...request, model, stream: true }, call)) assembler.accept(event);
        expect(assembler.finished).toBe(true);
        const assembled = assembler.response();
        expect(withoutIds(assembled)).toStrictEqual(withoutIds(plain));
        expect(assembled.id).not.toBe("fallback");
      });
    }
  }

  it("R-ST-6: text runs split by a tool call stay separate parts, thinking blocks keep their signatures, logprobs are joined", () => {
    const assembler = new CanonicalResponseAssembler({ id: "x", model: "m" });
    const events = [
      { type: "message-start", id: "msg_1", model: "m-2025", dropped: ["seed"] },
      { type: "thinking-delta", index: 0, text: "Think" },
      { type: "thinking-delta", index: 0, text: "ing." },
      { type: "thinking-delta", index: 0, signature: "sig-1" },
      { type: "text-delta", text: "Let me ", logprobs: { content: [{ token: "Let" }] } },
      { type: "text-delta", text: "check.", logprobs: { content: [{ token: "check" }], refusal: null } },
      { type: "tool-call-delta", index: 0, id: "call_1", name: "lookup", argumentsDelta: '{"q":' },
      { type: "tool-call-delta", index: 0, argumentsDelta: '"x"}' },
      { type: "text-delta", text: "Done." },
      { type: "finish", reason: "tool_calls", usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 4, reasoningTokens: 2 } },
    ] as const;
    for (const event of events) assembler.accept(event as never);
    expect(assembler.response()).toStrictEqual({
      id: "msg_1",
      model: "m-2025",
      content: [
        { type: "text", text: "Let me check." },
        { type: "tool-call", id: "call_1", name: "lookup", arguments: '{"q":"x"}' },
        { type: "text", text: "Done." },
      ],
      thinking: [{ type: "thinking", text: "Thinking.", signature: "sig-1" }],
      finishReason: "tool_calls",
      usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 4, reasoningTokens: 2 },
      logprobs: { content: [{ token: "Let" }, { token: "check" }], refusal: null },
      dropped: ["seed"],
    });
  });
});
