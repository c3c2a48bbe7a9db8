import Anthropic from "@anthropic-ai/sdk";
import { fc, test as propertyTest } from "@fast-check/vitest";
import { createParser } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import type { CanonicalStreamEvent } from "../../ports/canonical.js";
import { cannedFetch, sseAnswer, UNUSED_BASE_URL } from "../__fixtures__/sdk-fetch.js";
import { createAnthropicStreamEncoder, encodeAnthropicStream } from "./encode-stream.js";

type Json = Record<string, any>;

function events(frames: readonly string[]): { event: string | undefined; data: Json }[] {
  const parsed: { event: string | undefined; data: Json }[] = [];
  const parser = createParser({ onEvent: (event) => parsed.push({ event: event.event, data: JSON.parse(event.data) as Json }) });
  parser.feed(frames.join(""));
  for (const { event, data } of parsed) expect(data.type).toBe(event);
  return parsed;
}

const mixedStream: CanonicalStreamEvent[] = [
  { type: "message-start", id: "msg_1", model: "openai/gpt-x" },
  { type: "text-delta", text: "Let me " },
  { type: "text-delta", text: "check." },
  { type: "tool-call-delta", index: 0, id: "call_a", name: "lookup", argumentsDelta: "" },
  { type: "tool-call-delta", index: 0, argumentsDelta: '{"q":' },
  { type: "tool-call-delta", index: 0, argumentsDelta: '"cat"}' },
  { type: "tool-call-delta", index: 1, id: "call_b", name: "noop", argumentsDelta: "{}" },
  { type: "finish", reason: "tool_calls", usage: { inputTokens: 20, outputTokens: 8 } },
];

function client(frames: readonly string[]) {
  const { fetch } = cannedFetch(sseAnswer(frames));
  return new Anthropic({ apiKey: "sk-ant-test", baseURL: UNUSED_BASE_URL, fetch, maxRetries: 0 });
}

const request = { model: "x", max_tokens: 10, messages: [{ role: "user" as const, content: "hi" }] };

describe("Anthropic SSE encoder", () => {
  it("R-GW-2: message_start, one block per text run and tool call, message_delta with stop_reason and usage, message_stop", () => {
    const parsed = events(encodeAnthropicStream(mixedStream));
    expect(parsed.map((event) => event.event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(parsed[0]?.data.message).toMatchObject({ id: "msg_1", model: "openai/gpt-x", role: "assistant", content: [] });
    expect(parsed[5]?.data).toMatchObject({ index: 1, content_block: { type: "tool_use", id: "call_a", name: "lookup", input: {} } });
    expect(parsed[6]?.data.delta).toEqual({ type: "input_json_delta", partial_json: '{"q":' });
    expect(parsed[12]?.data).toMatchObject({
      delta: { stop_reason: "tool_use", stop_sequence: null },
      usage: { input_tokens: 20, output_tokens: 8 },
    });
  });

  it("R-GW-2: message_start is synthesised when content arrives first", () => {
    const parsed = events(
      encodeAnthropicStream(
        [
          { type: "text-delta", text: "x" },
          { type: "finish", reason: "stop" },
        ],
        { id: "msg_x", model: "m", inputTokens: 3 },
      ),
    );
    expect(parsed[0]?.data.message).toMatchObject({ id: "msg_x", model: "m", usage: { input_tokens: 3, output_tokens: 0 } });
  });

  it("R-ST-2: an error after content becomes event: error and nothing follows", () => {
    const encoder = createAnthropicStreamEncoder();
    const frames = [
      ...encoder.encode({ type: "message-start", id: "m1", model: "m" }),
      ...encoder.encode({ type: "text-delta", text: "partial" }),
      ...encoder.encode({ type: "error", error: { failure: { status: 529, message: "Overloaded" } } }),
      ...encoder.encode({ type: "finish", reason: "stop" }),
    ];
    expect(encoder.finished).toBe(true);
    const parsed = events(frames);
    expect(parsed.at(-1)).toEqual({ event: "error", data: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } });
    expect(parsed.map((event) => event.event)).not.toContain("message_stop");
  });

  it("R-ST-2: a finish with reason error is never rendered as a clean finish", () => {
    const parsed = events(
      encodeAnthropicStream([
        { type: "text-delta", text: "a" },
        { type: "finish", reason: "error" },
      ]),
    );
    expect(parsed.at(-1)?.event).toBe("error");
  });

  it("R-ST-2: the real Anthropic SDK assembles the frames, and throws on event: error", async () => {
    const message = await client(encodeAnthropicStream(mixedStream)).messages.stream(request).finalMessage();
    expect(message.model).toBe("openai/gpt-x");
    expect(message.stop_reason).toBe("tool_use");
    expect(message.usage).toMatchObject({ input_tokens: 20, output_tokens: 8 });
    expect(message.content).toEqual([
      expect.objectContaining({ type: "text", text: "Let me check." }),
      expect.objectContaining({ type: "tool_use", id: "call_a", name: "lookup", input: { q: "cat" } }),
      expect.objectContaining({ type: "tool_use", id: "call_b", name: "noop", input: {} }),
    ]);

    const failing = encodeAnthropicStream([mixedStream[0]!, mixedStream[1]!, { type: "error", error: new Error("cut after commit") }]);
    await expect(client(failing).messages.stream(request).finalMessage()).rejects.toThrow(/cut after commit/);
  });

  propertyTest.prop([fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 20 })])(
    "R-GW-2: any sequence of text deltas reassembles to the same text in one block",
    (pieces) => {
      const parsed = events(
        encodeAnthropicStream([...pieces.map((text) => ({ type: "text-delta" as const, text })), { type: "finish", reason: "stop" }]),
      );
      expect(parsed.filter((event) => event.event === "content_block_start")).toHaveLength(1);
      const text = parsed.map((event) => (event.data.delta?.type === "text_delta" ? event.data.delta.text : "")).join("");
      expect(text).toBe(pieces.join(""));
    },
  );
});
