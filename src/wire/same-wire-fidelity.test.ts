/**
 * R-GW-6 on the canonical path (library `detour.run`, the mock provider, and any route that does not use the
 * byte pass-through): a request read by one wire format's decoder and written again by the same format's
 * encoder is the request the client sent, field for field.
 */
import { describe, expect, it } from "vitest";
import { encodeAnthropicRequest } from "./anthropic-messages/encode-request.js";
import { parseAnthropicMessagesRequest } from "./anthropic-messages/decode-request.js";
import { AnthropicStreamTranslator } from "./anthropic-messages/decode-stream.js";
import { createAnthropicStreamEncoder } from "./anthropic-messages/encode-stream.js";
import { anthropicStreamEventSchema } from "./anthropic-messages/schemas.js";
import { parseOpenAIChatRequest } from "./openai-chat/decode-request.js";
import { encodeOpenAiRequest } from "./openai-chat/encode-request.js";

const openAiBody = {
  model: "gpt-x",
  messages: [
    { role: "system", content: "Be brief." },
    {
      role: "user",
      content: [
        { type: "text", text: "What is this?" },
        { type: "image_url", image_url: { url: "https://x.invalid/a.png", detail: "low" } },
      ],
    },
    { role: "developer", content: "Answer in JSON." },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: '{"q":"cat"}' } }],
    },
    { role: "tool", tool_call_id: "call_1", content: "a cat" },
  ],
  tools: [{ type: "function", function: { name: "lookup", description: "Find", parameters: { type: "object" }, strict: true } }],
  tool_choice: { type: "function", function: { name: "lookup" } },
  parallel_tool_calls: false,
  temperature: 0.3,
  top_p: 0.9,
  max_completion_tokens: 300,
  stop: ["END"],
  seed: 7,
  frequency_penalty: 0.1,
  presence_penalty: 0.2,
  logit_bias: { "50256": -100 },
  logprobs: true,
  top_logprobs: 3,
  response_format: { type: "json_schema", json_schema: { name: "answer", schema: { type: "object" }, strict: true } },
  reasoning_effort: "low",
  metadata: { team: "a" },
  user: "user-1",
  service_tier: "flex",
  prompt_cache_key: "conversation-9",
};

const anthropicBody = {
  model: "claude-x",
  max_tokens: 3000,
  system: [
    { type: "text", text: "Be brief." },
    { type: "text", text: "Long context.", cache_control: { type: "ephemeral", ttl: "1h" } },
  ],
  messages: [
    { role: "user", content: [{ type: "text", text: "Look it up", cache_control: { type: "ephemeral" } }] },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Call lookup.", signature: "sig-1" },
        { type: "redacted_thinking", data: "opaque" },
        { type: "tool_use", id: "toolu_1", name: "lookup", input: { q: "cat" } },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_1",
          content: [
            { type: "text", text: "a cat" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
          ],
          cache_control: { type: "ephemeral" },
        },
      ],
    },
  ],
  tools: [{ name: "lookup", description: "Find", input_schema: { type: "object" }, cache_control: { type: "ephemeral" } }],
  tool_choice: { type: "tool", name: "lookup", disable_parallel_tool_use: true },
  temperature: 0.5,
  top_k: 40,
  stop_sequences: ["END"],
  metadata: { user_id: "user-1" },
  thinking: { type: "enabled", budget_tokens: 2048 },
  service_tier: "auto",
};

describe("R-GW-6: same wire through the canonical model", () => {
  it("R-GW-6: an OpenAI request decoded and encoded again is the request the client sent", () => {
    const parsed = parseOpenAIChatRequest(openAiBody);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const encoded = encodeOpenAiRequest(parsed.request, { model: "gpt-x", stream: false, maxTokensField: "max_completion_tokens" });
    expect(encoded).toEqual({ ok: true, body: openAiBody, dropped: [] });
  });

  it("R-GW-6: an Anthropic request decoded and encoded again is the request the client sent", () => {
    const parsed = parseAnthropicMessagesRequest(anthropicBody);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const encoded = encodeAnthropicRequest(parsed.request, { model: "claude-x", stream: false });
    expect(encoded).toEqual({ ok: true, body: anthropicBody, dropped: [] });
  });

  it("R-GW-6, R-GW-7: streamed thinking blocks, their signatures and cache usage survive decoding and encoding", () => {
    const upstream = [
      { type: "message_start", message: { id: "msg_1", model: "claude-x", usage: { input_tokens: 3, output_tokens: 1 } } },
      { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Hmm." } },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig-9" } },
      { type: "content_block_stop", index: 0 },
      { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Hi" } },
      { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 4, cache_read_input_tokens: 2 } },
      { type: "message_stop" },
    ];
    const translator = new AnthropicStreamTranslator();
    const encoder = createAnthropicStreamEncoder();
    const frames: string[] = [];
    for (const raw of upstream) {
      const event = anthropicStreamEventSchema.parse(raw);
      if (event.type === "error") throw new Error("unexpected error event");
      for (const canonical of translator.accept(event).events) frames.push(...encoder.encode(canonical));
    }
    const payloads = frames.map((frame) => JSON.parse(frame.split("data: ")[1] ?? "{}") as Record<string, any>);
    expect(payloads.filter((payload) => payload.type === "content_block_delta").map((payload) => payload.delta)).toEqual([
      { type: "thinking_delta", thinking: "Hmm." },
      { type: "signature_delta", signature: "sig-9" },
      { type: "text_delta", text: "Hi" },
    ]);
    expect(payloads.find((payload) => payload.type === "content_block_start")?.content_block.type).toBe("thinking");
    expect(payloads.find((payload) => payload.type === "message_delta")?.usage).toEqual({
      input_tokens: 3,
      output_tokens: 4,
      cache_read_input_tokens: 2,
      cache_creation_input_tokens: 0,
    });
  });
});
