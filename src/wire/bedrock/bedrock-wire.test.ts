import { describe, expect, it } from "vitest";
import type { CanonicalRequest, CanonicalStreamEvent } from "../../ports/canonical.js";
import { anthropicMessagesWire } from "../anthropic-messages/format.js";
import { createAnthropicStreamEncoder } from "../anthropic-messages/encode-stream.js";
import { AwsEventStreamDecoder, awsExceptionMessage, awsFramePiece } from "../shared/aws-event-stream.js";
import type { StreamDecodeSink } from "../wire-format.js";
import { bedrockChunkMessage } from "./anthropic-on-bedrock.js";
import { decodeConverseRequest } from "./converse-request-decode.js";
import { bedrockWire } from "./format.js";
import { isBedrockAnthropicModel } from "./models.js";

const CLAUDE = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const fallback = { model: CLAUDE, createResponseId: () => "resp-1", createToolCallId: () => "call-1" };

/** An Anthropic client's body with a cache mark, thinking and a tool, read as the gateway reads it. */
const anthropicClientBody = {
  model: "detour",
  max_tokens: 2048,
  system: [{ type: "text", text: "You are terse.", cache_control: { type: "ephemeral" } }],
  thinking: { type: "enabled", budget_tokens: 1024 },
  tools: [{ name: "get_weather", description: "Weather", input_schema: { type: "object", properties: { city: { type: "string" } } } }],
  messages: [{ role: "user", content: [{ type: "text", text: "Weather in Oslo?", cache_control: { type: "ephemeral" } }] }],
};

function pieces(bytes: Uint8Array[]): string[] {
  const decoder = new AwsEventStreamDecoder();
  return bytes.flatMap((chunk) => decoder.push(chunk).map(awsFramePiece));
}

class Seen implements StreamDecodeSink {
  events: CanonicalStreamEvent[] = [];
  malformedRaw: string[] = [];
  ended: { kind: string; detail?: unknown } | undefined;
  event(event: CanonicalStreamEvent): void {
    this.events.push(event);
  }
  malformed(raw: string): void {
    this.malformedRaw.push(raw);
  }
  error(detail: unknown): never {
    this.ended = { kind: "error", detail };
    throw new Error("ended");
  }
  failed(detail: string): never {
    this.ended = { kind: "failed", detail };
    throw new Error("ended");
  }
  cut(): never {
    this.ended = { kind: "cut" };
    throw new Error("ended");
  }
}

describe("the Bedrock wire format", () => {
  it.each([
    ["anthropic.claude-3-5-haiku-20241022-v1:0", true],
    [CLAUDE, true],
    ["global.anthropic.claude-opus-4-1-20250805-v1:0", true],
    ["arn:aws:bedrock:eu-west-1:123456789012:inference-profile/eu.anthropic.claude-haiku-4-5-20251001-v1:0", true],
    ["amazon.nova-pro-v1:0", false],
    ["meta.llama3-70b-instruct-v1:0", false],
  ])("R-GW-12: %s is a Claude model on InvokeModel: %s", (model, claude) => {
    expect(isBedrockAnthropicModel(model)).toBe(claude);
  });

  it("R-GW-12: a Claude request is Anthropic's body without model and stream, with the Bedrock anthropic_version, carrying cache_control, thinking and tools", () => {
    const decoded = anthropicMessagesWire.request.decode?.(anthropicClientBody);
    if (!decoded?.ok) throw new Error("the client body is valid");
    const encoded = bedrockWire.request.encode(decoded.value.request, { model: CLAUDE, stream: true });
    if (!encoded.ok) throw new Error(encoded.problem);
    const body = encoded.body as Record<string, unknown>;
    expect(body.model).toBeUndefined();
    expect(body.stream).toBeUndefined();
    expect(body.anthropic_version).toBe("bedrock-2023-05-31");
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 1024 });
    expect(body.system).toEqual(anthropicClientBody.system);
    expect(body.tools).toEqual(anthropicClientBody.tools);
    expect(body.messages).toEqual(anthropicClientBody.messages);
  });

  it("R-GW-12: a client's Anthropic beta flags go into a Claude InvokeModel body as anthropic_beta; a Converse body has no such field", () => {
    const request: CanonicalRequest = {
      messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }],
      maxTokens: 64,
      anthropicBetas: ["context-1m-2025-08-07", "interleaved-thinking-2025-05-14"],
    };
    const claude = bedrockWire.request.encode(request, { model: CLAUDE, stream: false });
    if (!claude.ok) throw new Error(claude.problem);
    expect((claude.body as Record<string, unknown>).anthropic_beta).toEqual(["context-1m-2025-08-07", "interleaved-thinking-2025-05-14"]);
    const { anthropicBetas: _betas, ...plain } = request;
    const without = bedrockWire.request.encode(plain, { model: CLAUDE, stream: false });
    expect(without.ok && (without.body as Record<string, unknown>).anthropic_beta).toBe(undefined);
    const converse = bedrockWire.request.encode(request, { model: "amazon.nova-pro-v1:0", stream: false });
    expect(converse.ok && JSON.stringify(converse.body)).not.toContain("beta");
  });

  it("R-GW-12: a non-Claude request is a Converse body with the system, inference settings and tools in Converse's fields", () => {
    const encoded = bedrockWire.request.encode(
      {
        system: "Be brief.",
        messages: [{ role: "user", content: [{ type: "text", text: "Hi", cache: { type: "ephemeral" } }] }],
        maxTokens: 100,
        temperature: 0.2,
        stop: ["END"],
        tools: [{ name: "f", parameters: { type: "object" } }],
        toolChoice: "required",
      },
      { model: "amazon.nova-pro-v1:0", stream: false },
    );
    if (!encoded.ok) throw new Error(encoded.problem);
    expect(encoded.body).toEqual({
      messages: [{ role: "user", content: [{ text: "Hi" }, { cachePoint: { type: "default" } }] }],
      system: [{ text: "Be brief." }],
      inferenceConfig: { maxTokens: 100, temperature: 0.2, stopSequences: ["END"] },
      toolConfig: { tools: [{ toolSpec: { name: "f", inputSchema: { json: { type: "object" } } } }], toolChoice: { any: {} } },
    });
  });

  it("R-GW-12: what the Converse encoder writes, the Converse decoder reads back: turns, tool results, cache points, tools and settings", () => {
    const request: CanonicalRequest = {
      systemParts: [{ role: "system", text: "Be brief.", cache: { type: "ephemeral" } }],
      messages: [
        { role: "user", content: [{ type: "text", text: "Weather in Oslo?", cache: { type: "ephemeral" } }] },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Checking." },
            { type: "tool-call", id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' },
          ],
        },
        { role: "tool", content: [{ type: "tool-result", toolCallId: "call_1", content: "Rain", isError: true }] },
        { role: "user", content: [{ type: "text", text: "Thanks" }] },
      ],
      tools: [{ name: "get_weather", description: "Weather", parameters: { type: "object" }, cache: { type: "ephemeral" } }],
      toolChoice: { name: "get_weather" },
      maxTokens: 100,
      temperature: 0.2,
      topP: 0.9,
      topK: 5,
      stop: ["END"],
    };
    const encoded = bedrockWire.request.encode(request, { model: "amazon.nova-pro-v1:0", stream: true });
    if (!encoded.ok) throw new Error(encoded.problem);
    const decoded = decodeConverseRequest(JSON.parse(JSON.stringify(encoded.body)), { model: "amazon.nova-pro-v1:0", stream: true });
    if (!decoded.ok) throw new Error(JSON.stringify(decoded.issues));
    expect(decoded.value).toMatchObject({ model: "amazon.nova-pro-v1:0", stream: true, includeUsage: true });
    expect(decoded.value.request).toEqual({ ...request, system: "Be brief." });
  });

  it("R-GW-12: the Converse decoder refuses a body Bedrock refuses (a model in it, an empty turn) and a path without a model", () => {
    const ask = { messages: [{ role: "user", content: [{ text: "Hi" }] }] };
    expect(decodeConverseRequest({ ...ask, model: "x" }, { model: "m" })).toMatchObject({ ok: false, issues: [{ path: "(body)" }] });
    expect(decodeConverseRequest({ messages: [{ role: "user", content: [] }] }, { model: "m" })).toMatchObject({
      ok: false,
      issues: [{ path: "messages[0].content" }],
    });
    expect(decodeConverseRequest(ask, {})).toMatchObject({ ok: false, issues: [{ path: "(url)" }] });
    expect(decodeConverseRequest(ask, { model: "m" })).toMatchObject({ ok: true, value: { stream: false } });
  });

  it("R-GW-6: Converse refuses what would change a non-Claude answer (JSON mode, reasoning) instead of dropping it", () => {
    const base = { messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "Hi" }] }] };
    const json = bedrockWire.request.encode(
      { ...base, responseFormat: { type: "json" } },
      { model: "amazon.nova-pro-v1:0", stream: false },
    );
    const reasoning = bedrockWire.request.encode(
      { ...base, reasoning: { enabled: true } },
      { model: "amazon.nova-pro-v1:0", stream: false },
    );
    expect(json).toMatchObject({ ok: false, field: "response_format" });
    expect(reasoning).toMatchObject({ ok: false, field: "reasoning_effort" });
  });

  it("R-GW-12: a Claude stream of chunk messages reads as Anthropic's events: text, thinking, tool call, finish and usage", () => {
    const encoder = createAnthropicStreamEncoder({ model: CLAUDE });
    const events: CanonicalStreamEvent[] = [
      { type: "message-start", id: "msg_1", model: CLAUDE },
      { type: "thinking-delta", index: 0, text: "Oslo is rainy." },
      { type: "thinking-delta", index: 0, signature: "sig" },
      { type: "text-delta", text: "Checking." },
      { type: "tool-call-delta", index: 0, id: "toolu_1", name: "get_weather", argumentsDelta: '{"city":"Oslo"}' },
      { type: "finish", reason: "tool_calls", usage: { inputTokens: 12, outputTokens: 5 } },
    ];
    const sse = events.flatMap((event) => encoder.encode(event)).join("");
    const messages = [...sse.matchAll(/^data: (.*)$/gm)].map((match) => bedrockChunkMessage(match[1] as string));
    const wire = Buffer.concat(messages);
    // Split mid-message: a read may end anywhere.
    const seen = new Seen();
    const decoder = bedrockWire.stream.decoder({ ...fallback, dropped: [] });
    let complete = false;
    for (const piece of pieces([wire.subarray(0, 50), wire.subarray(50)])) complete ||= decoder.take(piece, seen);
    expect(complete).toBe(true);
    expect(seen.malformedRaw).toEqual([]);
    const thinking = seen.events.flatMap((event) => (event.type === "thinking-delta" ? [event] : []));
    expect(thinking.map((event) => event.text ?? "").join("")).toBe("Oslo is rainy.");
    expect(thinking.find((event) => event.signature !== undefined)?.signature).toBe("sig");
    expect(seen.events.map((event) => (event.type === "text-delta" ? event.text : "")).join("")).toBe("Checking.");
    expect(seen.events.find((event) => event.type === "tool-call-delta")).toMatchObject({ name: "get_weather" });
    expect(seen.events.at(-1)).toMatchObject({ type: "finish", reason: "tool_calls", usage: { inputTokens: 12, outputTokens: 5 } });
  });

  it("R-GW-12: an exception message inside the stream ends it with Bedrock's error and its HTTP equivalent", () => {
    const seen = new Seen();
    const decoder = bedrockWire.stream.decoder({ ...fallback, dropped: [] });
    const [piece] = pieces([awsExceptionMessage("throttlingException", "Too many tokens, please wait before trying again.")]);
    expect(() => decoder.take(piece as string, seen)).toThrow("ended");
    expect(seen.ended).toEqual({
      kind: "error",
      detail: { message: "Too many tokens, please wait before trying again.", errorType: "ThrottlingException", status: 429 },
    });
  });

  it("R-GW-12: an error answer is read from the x-amzn-ErrorType header and the JSON message", () => {
    expect(
      bedrockWire.errors.read('{"message":"Input is too long for requested model."}', {
        "x-amzn-errortype": "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/",
      }),
    ).toEqual({ message: "Input is too long for requested model.", errorType: "ValidationException" });
    expect(bedrockWire.errors.read('{"__type":"com.amazon.coral.service#UnrecognizedClientException","Message":"bad key"}')).toEqual({
      message: "bad key",
      errorType: "UnrecognizedClientException",
    });
  });

  it("R-GW-12: a Claude answer decodes as Anthropic's message, a Converse answer as Converse's", () => {
    const claude = bedrockWire.response.decode(
      JSON.stringify({
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: CLAUDE,
        content: [{ type: "text", text: "Hi" }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 3, output_tokens: 1 },
      }),
      fallback,
    );
    expect(claude).toMatchObject({ ok: true, response: { id: "msg_1", content: [{ type: "text", text: "Hi" }], finishReason: "stop" } });
    expect(bedrockWire.usage.read({ input_tokens: 3, output_tokens: 1 })).toEqual({ inputTokens: 3, outputTokens: 1 });
    expect(bedrockWire.usage.read({ inputTokens: 3, outputTokens: 1, cacheReadInputTokens: 2 })).toEqual({
      inputTokens: 5,
      outputTokens: 1,
      cacheReadTokens: 2,
    });
  });
});
