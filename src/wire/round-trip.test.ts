/**
 * R-GW-2 across dialects: the same conversation sent in either dialect becomes the same canonical
 * request, and one canonical answer (JSON or stream) reads the same through either real SDK.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { CanonicalResponse, CanonicalStreamEvent } from "../ports/canonical.js";
import { cannedFetch, sseAnswer, UNUSED_BASE_URL } from "./__fixtures__/sdk-fetch.js";
import { encodeAnthropicStream, parseAnthropicMessagesRequest, renderAnthropicMessage } from "./anthropic-messages/index.js";
import { encodeOpenAIStream, parseOpenAIChatRequest, renderOpenAIChatCompletion } from "./openai-chat/index.js";

const openAIBody = {
  model: "detour",
  max_tokens: 64,
  temperature: 0.3,
  stop: ["END"],
  messages: [
    { role: "system", content: "You are terse." },
    {
      role: "user",
      content: [
        { type: "text", text: "Weather?" },
        { type: "image_url", image_url: { url: "data:image/jpeg;base64,/9j/" } },
      ],
    },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "t1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }],
    },
    { role: "tool", tool_call_id: "t1", content: "rain" },
  ],
  tools: [{ type: "function", function: { name: "weather", description: "Forecast", parameters: { type: "object" } } }],
  tool_choice: "auto",
};

const anthropicBody = {
  model: "detour",
  max_tokens: 64,
  temperature: 0.3,
  stop_sequences: ["END"],
  system: "You are terse.",
  messages: [
    {
      role: "user",
      content: [
        { type: "text", text: "Weather?" },
        { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "/9j/" } },
      ],
    },
    { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "weather", input: { city: "Oslo" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "rain" }] },
  ],
  tools: [{ name: "weather", description: "Forecast", input_schema: { type: "object" } }],
  tool_choice: { type: "auto" },
};

const answer: CanonicalResponse = {
  id: "resp-9",
  model: "ollama/llama-x",
  content: [{ type: "text", text: "Rain in Oslo." }],
  finishReason: "stop",
  usage: { inputTokens: 30, outputTokens: 4 },
};

const answerEvents: CanonicalStreamEvent[] = [
  { type: "message-start", id: "resp-9", model: "ollama/llama-x" },
  { type: "text-delta", text: "Rain " },
  { type: "text-delta", text: "in Oslo." },
  { type: "finish", reason: "stop", usage: { inputTokens: 30, outputTokens: 4 } },
];

describe("dialect round trips (R-GW-2)", () => {
  it("R-GW-2: the same conversation in both dialects becomes the same canonical request", () => {
    const fromOpenAI = parseOpenAIChatRequest(openAIBody);
    const fromAnthropic = parseAnthropicMessagesRequest(anthropicBody);
    if (!fromOpenAI.ok || !fromAnthropic.ok) throw new Error("both bodies must parse");
    expect(fromOpenAI.request).toEqual(fromAnthropic.request);
  });

  it("R-GW-2: one canonical answer reads the same through both SDKs, as JSON and as a stream", async () => {
    const openAIJson = new OpenAI({
      apiKey: "k",
      baseURL: `${UNUSED_BASE_URL}/v1`,
      maxRetries: 0,
      fetch: cannedFetch({ body: JSON.stringify(renderOpenAIChatCompletion(answer, { createdSeconds: 1 })) }).fetch,
    });
    const openAIStream = new OpenAI({
      apiKey: "k",
      baseURL: `${UNUSED_BASE_URL}/v1`,
      maxRetries: 0,
      fetch: cannedFetch(sseAnswer(encodeOpenAIStream(answerEvents, { includeUsage: true, createdSeconds: 1 }))).fetch,
    });
    const anthropicJson = new Anthropic({
      apiKey: "k",
      baseURL: UNUSED_BASE_URL,
      maxRetries: 0,
      fetch: cannedFetch({ body: JSON.stringify(renderAnthropicMessage(answer)) }).fetch,
    });
    const anthropicStream = new Anthropic({
      apiKey: "k",
      baseURL: UNUSED_BASE_URL,
      maxRetries: 0,
      fetch: cannedFetch(sseAnswer(encodeAnthropicStream(answerEvents))).fetch,
    });
    const openAIRequest = { model: "detour", messages: [{ role: "user" as const, content: "hi" }] };
    const anthropicRequest = { model: "detour", max_tokens: 10, messages: [{ role: "user" as const, content: "hi" }] };

    const results = [
      await openAIJson.chat.completions.create(openAIRequest),
      await openAIStream.chat.completions.stream({ ...openAIRequest, stream_options: { include_usage: true } }).finalChatCompletion(),
    ].map((completion) => ({
      model: completion.model,
      text: completion.choices[0]?.message.content,
      usage: [completion.usage?.prompt_tokens, completion.usage?.completion_tokens],
    }));
    for (const message of [
      await anthropicJson.messages.create(anthropicRequest),
      await anthropicStream.messages.stream(anthropicRequest).finalMessage(),
    ]) {
      const first = message.content[0];
      results.push({
        model: message.model,
        text: first?.type === "text" ? first.text : null,
        usage: [message.usage.input_tokens, message.usage.output_tokens],
      });
    }
    for (const result of results) expect(result).toEqual({ model: "ollama/llama-x", text: "Rain in Oslo.", usage: [30, 4] });
  });
});
