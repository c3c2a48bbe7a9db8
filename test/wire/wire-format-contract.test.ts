/**
 * Every WireFormat of the registry through the same cases (DESIGN §1: one contract, hono's `runTest`
 * style): the registry's names, the finish tables, usage, errors, both request and response codecs, the
 * stream encoder against the same format's scanner and assembler (or, where each stream chunk is an answer,
 * against the format's answer decoder), and the same-wire lane's splice. The server codecs (request decode,
 * answer, stream and error render) are what the gateway answers its clients with and what the mock provider
 * answers with, so every format has them. A format lacks a member only where it has no such side (the
 * gateway serves no Google or Ollama clients: no lane, no resumed streams); the members it has meet the same
 * cases as every other format's.
 */
import { createParser } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import { PROVIDER_API_ALIASES, PROVIDER_API_IDS } from "../../src/config/schema.js";
import type {
  CanonicalFinishReason,
  CanonicalRequest,
  CanonicalResponse,
  CanonicalStreamEvent,
  CanonicalUsage,
} from "../../src/ports/canonical.js";
import { WIRE_FORMAT_IDS, WIRE_FORMATS, wireFormatIdOf, wireFormatNamed } from "../../src/wire/formats.js";
import { AwsEventStreamDecoder, awsFramePiece } from "../../src/wire/shared/aws-event-stream.js";
import { scanChatBody } from "../../src/wire/shared/scan-chat-body.js";
import type { UpstreamBody } from "../../src/wire/shared/body-bytes.js";
import type { StreamDecodeSink, StreamFraming, WireFormat, WireFormatId, WireStreamDecoder } from "../../src/wire/wire-format.js";

const CANONICAL_FINISH_REASONS: readonly CanonicalFinishReason[] = ["stop", "length", "tool_calls", "content_filter", "error"];

/** Reasons a format does not say in its finish field: the answer's content says them, or the wire has no word. */
const UNSAID_FINISH_REASONS: Readonly<Record<WireFormatId, readonly CanonicalFinishReason[]>> = {
  "openai-chat": [],
  "openai-responses": ["tool_calls"],
  "anthropic-messages": [],
  "google-generative-ai": ["tool_calls"],
  ollama: ["tool_calls", "content_filter"],
  bedrock: [],
};

/**
 * What each format's wire says in its own words, for the members that have no writer to produce it (a
 * provider-only format's answers and usage), and a client body for the formats the lane serves.
 */
interface FormatSamples {
  /** A wire usage object that means 7 input and 3 output tokens. */
  usage: unknown;
  /** A non-streamed answer saying "Rain in Oslo." that ended normally, with 7 + 3 tokens. */
  answer: unknown;
  /** A client request body with a model, one user turn, and what the format requires. */
  clientBody?: Record<string, unknown>;
}

const SAMPLES: Readonly<Record<WireFormatId, FormatSamples>> = {
  "openai-chat": {
    usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
    answer: {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1,
      model: "gpt-x",
      choices: [{ index: 0, message: { role: "assistant", content: "Rain in Oslo." }, finish_reason: "stop" }],
      usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
    },
    clientBody: { model: "detour", messages: [{ role: "user", content: "Weather?" }], temperature: 0.5 },
  },
  "openai-responses": {
    usage: { input_tokens: 7, output_tokens: 3, total_tokens: 10 },
    answer: {
      id: "resp_1",
      object: "response",
      created_at: 1,
      status: "completed",
      model: "gpt-x",
      output: [
        {
          type: "message",
          id: "msg_1",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "Rain in Oslo.", annotations: [] }],
        },
      ],
      usage: { input_tokens: 7, output_tokens: 3, total_tokens: 10 },
    },
    clientBody: { model: "detour", input: "Weather?", temperature: 0.5 },
  },
  "anthropic-messages": {
    usage: { input_tokens: 7, output_tokens: 3 },
    answer: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-x",
      content: [{ type: "text", text: "Rain in Oslo." }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 7, output_tokens: 3 },
    },
    clientBody: { model: "detour", max_tokens: 64, messages: [{ role: "user", content: "Weather?" }], temperature: 0.5 },
  },
  "google-generative-ai": {
    usage: { promptTokenCount: 7, candidatesTokenCount: 3, totalTokenCount: 10 },
    answer: {
      candidates: [{ content: { role: "model", parts: [{ text: "Rain in Oslo." }] }, finishReason: "STOP" }],
      usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 3, totalTokenCount: 10 },
      modelVersion: "gemini-x",
    },
  },
  ollama: {
    usage: { prompt_eval_count: 7, eval_count: 3 },
    answer: {
      model: "llama-x",
      created_at: "2026-01-01T00:00:00Z",
      message: { role: "assistant", content: "Rain in Oslo." },
      done: true,
      done_reason: "stop",
      prompt_eval_count: 7,
      eval_count: 3,
    },
  },
  // A Converse answer (the generic model id of these cases is not a Claude id, so Converse is the body).
  bedrock: {
    usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 },
    answer: {
      output: { message: { role: "assistant", content: [{ text: "Rain in Oslo." }] } },
      stopReason: "end_turn",
      usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 },
      metrics: { latencyMs: 120 },
    },
  },
};

const request: CanonicalRequest = {
  system: "You are terse.",
  messages: [{ role: "user", content: [{ type: "text", text: "Weather?" }] }],
  maxTokens: 64,
  temperature: 0.5,
};

const usage: CanonicalUsage = { inputTokens: 7, outputTokens: 3 };

const answer: CanonicalResponse = {
  id: "resp-9",
  model: "house/model-x",
  content: [{ type: "text", text: "Rain in Oslo." }],
  finishReason: "stop",
  usage,
};

const events: CanonicalStreamEvent[] = [
  { type: "message-start", id: "resp-9", model: "house/model-x" },
  { type: "text-delta", text: "Rain " },
  { type: "text-delta", text: "in Oslo." },
  { type: "finish", reason: "stop", usage },
];

/** A stream that says some text, then calls a tool whose arguments arrive in two pieces. */
const toolStreamEvents: CanonicalStreamEvent[] = [
  ...events.slice(0, 3),
  { type: "tool-call-delta", index: 0, id: "call_1", name: "get_weather", argumentsDelta: '{"city":' },
  { type: "tool-call-delta", index: 0, argumentsDelta: '"Oslo"}' },
  { type: "finish", reason: "tool_calls", usage },
];

const WEATHER_PARAMETERS = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
const FORECAST_SCHEMA = { type: "object", properties: { forecast: { type: "string" } }, required: ["forecast"] };

/** Formats whose every stream chunk is an answer object of its own (the rest stream events that are not). */
const CHUNKS_ARE_ANSWERS: readonly WireFormatId[] = ["google-generative-ai", "ollama"];

/** Formats with no JSON mode: a request asking for one is refused rather than answered differently (R-GW-6). */
const NO_JSON_MODE: readonly WireFormatId[] = ["anthropic-messages"];

/** A second turn after a tool call, asking for JSON with reasoning on. */
const toolRequest: CanonicalRequest = {
  messages: [
    { role: "user", content: [{ type: "text", text: "Weather in Oslo?" }] },
    { role: "assistant", content: [{ type: "tool-call", id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' }] },
    { role: "tool", content: [{ type: "tool-result", toolCallId: "call_1", content: "Rain" }] },
  ],
  tools: [{ name: "get_weather", parameters: WEATHER_PARAMETERS }],
  maxTokens: 2048,
  temperature: 0.5,
  responseFormat: { type: "json-schema", name: "forecast", schema: FORECAST_SCHEMA },
  reasoning: { enabled: true, budgetTokens: 1024 },
};

const toolAnswer: CanonicalResponse = {
  id: "resp-10",
  model: "house/model-x",
  content: [{ type: "tool-call", id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' }],
  finishReason: "tool_calls",
  usage,
};

const fallback = { model: "fallback-model", createResponseId: () => "made-up-id", createToolCallId: () => "call_1" };

function textOf(response: CanonicalResponse): string {
  return response.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/**
 * A stream through the format's same-wire lane in assemble-only mode (what a non-streamed client of a streamed
 * call gets), decoded back by the format's own response decoder.
 */
function assembledByLane(format: WireFormat, bytes: Buffer): CanonicalResponse {
  const lane = format.lane;
  if (!lane) throw new Error("only a lane format assembles");
  const assembler = lane.assembler();
  const assembling = lane.scanner({
    shownModel: "house/model-x",
    forwardUsage: true,
    keepUpstreamModel: true,
    onEvent: assembler.accept,
    assembleOnly: true,
  });
  assembling.push(bytes);
  assembling.end();
  const decoded = format.response.decode(JSON.stringify(assembler.answer()), fallback);
  if (!decoded.ok) throw new Error(decoded.problem);
  return decoded.response;
}

function bytesOf(body: UpstreamBody): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.concat(body.chunks as Buffer[]);
}

/**
 * The pieces a stream's framing cuts its text into: each SSE event's data, each non-blank NDJSON line, or each
 * AWS event-stream message (its bytes carried one character per byte) as the union member it is.
 */
function framedPieces(text: string, framing: StreamFraming): string[] {
  if (framing === "aws-event-stream") return new AwsEventStreamDecoder().push(Buffer.from(text, "latin1")).map(awsFramePiece);
  if (framing === "ndjson")
    return text
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "");
  const pieces: string[] = [];
  const parser = createParser({ onEvent: (event) => pieces.push(event.data) });
  parser.feed(text);
  parser.feed("\n\n");
  return pieces;
}

/** What a decoder said, by kind; its ending findings stop it as the provider's sink does (by throwing). */
class SeenStream implements StreamDecodeSink {
  readonly events: CanonicalStreamEvent[] = [];
  readonly malformedChunks: string[] = [];
  ending: { kind: "error" | "failed" | "cut"; detail?: unknown } | undefined;
  event(event: CanonicalStreamEvent): void {
    this.events.push(event);
  }
  malformed(raw: string): void {
    this.malformedChunks.push(raw);
  }
  error(details: unknown): never {
    this.ending = { kind: "error", detail: details };
    throw new Error("ended");
  }
  failed(rawFinishReason: string): never {
    this.ending = { kind: "failed", detail: rawFinishReason };
    throw new Error("ended");
  }
  cut(): never {
    this.ending = { kind: "cut" };
    throw new Error("ended");
  }
  /** Feeds the pieces until the decoder says complete, then (when it did not) ends it. */
  read(decoder: WireStreamDecoder, pieces: readonly string[]): { complete: boolean } {
    try {
      for (const piece of pieces) if (decoder.take(piece, this)) return { complete: true };
      decoder.end(this);
      return { complete: false };
    } catch (error) {
      if (this.ending === undefined) throw error;
      return { complete: false };
    }
  }
}

describe("the wire format registry", () => {
  it("names every format by its own id, once", () => {
    for (const id of WIRE_FORMAT_IDS) expect(WIRE_FORMATS[id].id).toBe(id);
    expect(new Set(WIRE_FORMAT_IDS).size).toBe(WIRE_FORMAT_IDS.length);
  });

  it("finds each format by its id and by each older name, and no two formats share a name", () => {
    const names = WIRE_FORMAT_IDS.flatMap((id) => [id, ...WIRE_FORMATS[id].aliases]);
    expect(new Set(names).size).toBe(names.length);
    for (const id of WIRE_FORMAT_IDS) {
      for (const name of [id, ...WIRE_FORMATS[id].aliases]) {
        expect(wireFormatNamed(name)).toBe(WIRE_FORMATS[id]);
        expect(wireFormatIdOf(name)).toBe(id);
      }
    }
    expect(wireFormatNamed("bedrock-converse")).toBeUndefined();
  });

  it("keeps the old config name of the OpenAI chat format as an alias", () => {
    expect(wireFormatIdOf("openai-completions")).toBe("openai-chat");
  });

  it("R-CF-3: config `api` takes exactly the registry's ids and older names, and reads an older name as its id", () => {
    expect([...PROVIDER_API_IDS].sort()).toEqual([...WIRE_FORMAT_IDS].sort());
    for (const [alias, id] of Object.entries(PROVIDER_API_ALIASES)) expect(wireFormatIdOf(alias)).toBe(id);
    const registryAliases = WIRE_FORMAT_IDS.flatMap((id) => WIRE_FORMATS[id].aliases);
    expect(registryAliases.sort()).toEqual(Object.keys(PROVIDER_API_ALIASES).sort());
  });
});

/** The optional parts of a WireFormat that some of the contract's cases check. */
type OptionalPart =
  | "finish.fromCanonical"
  | "usage.render"
  | "errors.render"
  | "errors.readErrorAnswer"
  | "request.decode"
  | "response.render"
  | "stream.encoder"
  | "stream.resumeEncoder"
  | "lane";

function optionalPartsOf(format: WireFormat): OptionalPart[] {
  const present: Record<OptionalPart, boolean> = {
    "finish.fromCanonical": format.finish.fromCanonical !== undefined,
    "usage.render": format.usage.render !== undefined,
    "errors.render": format.errors.render !== undefined,
    "errors.readErrorAnswer": format.errors.readErrorAnswer !== undefined,
    "request.decode": format.request.decode !== undefined,
    "response.render": format.response.render !== undefined,
    "stream.encoder": format.stream.encoder !== undefined,
    "stream.resumeEncoder": format.stream.resumeEncoder !== undefined,
    lane: format.lane !== undefined,
  };
  return (Object.keys(present) as OptionalPart[]).filter((part) => present[part]);
}

/**
 * What each format has of its optional parts. The cases below that check a part are listed only for the
 * formats that have it (not skipped for the others), so this table is what keeps a format from losing a part
 * unnoticed.
 */
const OPTIONAL_PARTS: Record<WireFormatId, readonly OptionalPart[]> = {
  "openai-chat": [
    "finish.fromCanonical",
    "usage.render",
    "errors.render",
    "errors.readErrorAnswer",
    "request.decode",
    "response.render",
    "stream.encoder",
    "stream.resumeEncoder",
    "lane",
  ],
  "openai-responses": [
    "finish.fromCanonical",
    "usage.render",
    "errors.render",
    "errors.readErrorAnswer",
    "request.decode",
    "response.render",
    "stream.encoder",
    "lane",
  ],
  "anthropic-messages": [
    "finish.fromCanonical",
    "usage.render",
    "errors.render",
    "errors.readErrorAnswer",
    "request.decode",
    "response.render",
    "stream.encoder",
    "stream.resumeEncoder",
    "lane",
  ],
  "google-generative-ai": ["finish.fromCanonical", "usage.render", "errors.render", "request.decode", "response.render", "stream.encoder"],
  ollama: ["finish.fromCanonical", "usage.render", "errors.render", "request.decode", "response.render", "stream.encoder"],
  bedrock: ["finish.fromCanonical", "usage.render", "errors.render", "response.render", "stream.encoder"],
};

/** A case for the formats it applies to; for the others it is not listed at all. */
function caseFor(applies: boolean): (name: string, check: () => void | Promise<void>) => void {
  return applies ? (name, check) => it(name, check) : () => undefined;
}

describe.each(WIRE_FORMAT_IDS.map((id) => [id, WIRE_FORMATS[id]] as [WireFormatId, WireFormat]))("WireFormat %s", (id, format) => {
  const samples = SAMPLES[id];

  it("has exactly the optional parts its format is known to have", () => {
    expect(optionalPartsOf(format)).toEqual(OPTIONAL_PARTS[id]);
  });

  it("finish table: every wire value reads as a canonical reason", () => {
    for (const reason of Object.values(format.finish.toCanonical)) expect(CANONICAL_FINISH_REASONS).toContain(reason);
    expect(Object.keys(format.finish.toCanonical).length).toBeGreaterThan(0);
  });

  caseFor(format.finish.fromCanonical !== undefined)("finish table: what Detour writes reads back as the same reason", () => {
    const fromCanonical = format.finish.fromCanonical as Readonly<Record<CanonicalFinishReason, string>>;
    for (const reason of CANONICAL_FINISH_REASONS) {
      // `error` is never written as a finish (the stream ends with an error frame instead, R-ST-2); a format
      // that says a turn called tools through its output (Responses items, Gemini and Ollama parts), or that
      // has no word for a reason at all, is listed in UNSAID_FINISH_REASONS.
      if (reason === "error" || UNSAID_FINISH_REASONS[id].includes(reason)) continue;
      expect(format.finish.toCanonical[fromCanonical[reason]], `${reason} → ${fromCanonical[reason]}`).toBe(reason);
    }
  });

  it("usage: reads the wire's usage, and nothing from what is not usage", () => {
    expect(format.usage.read(samples.usage)).toMatchObject(usage);
    expect(format.usage.read(undefined)).toBeUndefined();
    expect(format.usage.read(null)).toBeUndefined();
    expect(format.usage.read("seven tokens")).toBeUndefined();
  });

  caseFor(format.usage.render !== undefined)("usage: what Detour renders reads back the same", () => {
    const rendered = JSON.parse(JSON.stringify(format.usage.render?.(usage))) as unknown;
    expect(format.usage.read(rendered)).toMatchObject(usage);
  });

  it("errors: a body that is not the wire's error shape is read as its text", () => {
    expect(format.errors.read("upstream connect error")).toMatchObject({ message: "upstream connect error" });
    expect(format.errors.read("")).toMatchObject({ message: "" });
  });

  it("errors: an in-band stream error of any shape becomes a message, never a throw", () => {
    for (const raw of ["overloaded", 42, { unexpected: true }, null]) {
      const details = format.errors.readStreamError(raw);
      expect(typeof details.message).toBe("string");
    }
  });

  caseFor(format.errors.render !== undefined)("errors: what Detour renders reads back with its message", () => {
    const body = format.errors.render?.({ message: "The model is busy.", status: 529, code: "overloaded" });
    expect(format.errors.read(JSON.stringify(body)).message).toBe("The model is busy.");
  });

  caseFor(format.errors.readErrorAnswer !== undefined && format.errors.render !== undefined)(
    "R-GW-10: errors: the format's error body sent for a stream reads as its error; an answer does not",
    () => {
      const body = format.errors.render?.({ message: "Rate limit reached for requests.", status: 429, code: "rate_limit_exceeded" });
      expect(format.errors.readErrorAnswer?.(JSON.stringify(body))).toMatchObject({ message: "Rate limit reached for requests." });
      expect(format.errors.readErrorAnswer?.(JSON.stringify(samples.answer))).toBeUndefined();
      expect(format.errors.readErrorAnswer?.("<html>502</html>")).toBeUndefined();
    },
  );

  it("request: encodes a plain conversation", () => {
    const encoded = format.request.encode(request, { model: "model-x", stream: false });
    expect(encoded.ok).toBe(true);
    expect(JSON.stringify(encoded.ok ? encoded.body : null)).toContain("Weather?");
  });

  caseFor(format.request.decode !== undefined)("request: what is encoded decodes to the same conversation", () => {
    const encoded = format.request.encode(request, { model: "model-x", stream: true });
    if (!encoded.ok) throw new Error(encoded.problem);
    // Where the format puts the model and the streaming switch in the URL (Gemini), the route says them.
    const decoded = format.request.decode?.(JSON.parse(JSON.stringify(encoded.body)), { model: "model-x", stream: true });
    if (!decoded?.ok) throw new Error(JSON.stringify(decoded));
    expect(decoded.value.model).toBe("model-x");
    expect(decoded.value.stream).toBe(true);
    expect(decoded.value.request.messages).toEqual(request.messages);
    expect(decoded.value.request.maxTokens).toBe(64);
  });

  it("response: decodes the wire's answer", () => {
    const decoded = format.response.decode(JSON.stringify(samples.answer), fallback);
    if (!decoded.ok) throw new Error(decoded.problem);
    expect(textOf(decoded.response)).toBe("Rain in Oslo.");
    expect(decoded.response.finishReason).toBe("stop");
    expect(decoded.response.usage).toMatchObject(usage);
    expect(format.response.decode("<html>502</html>", fallback).ok).toBe(false);
  });

  caseFor(format.response.render !== undefined)("response: what Detour renders decodes to the same answer", () => {
    const rendered = format.response.render?.(answer, { createdSeconds: 1_700_000_000 });
    const decoded = format.response.decode(JSON.stringify(rendered), fallback);
    if (!decoded.ok) throw new Error(decoded.problem);
    expect(textOf(decoded.response)).toBe("Rain in Oslo.");
    expect(decoded.response.finishReason).toBe("stop");
    expect(decoded.response.usage).toMatchObject(usage);
  });

  caseFor(format.request.decode !== undefined)("request: a tool turn, JSON mode and reasoning decode back the same", () => {
    const saysJson = !NO_JSON_MODE.includes(id);
    const { responseFormat: _json, ...withoutJson } = toolRequest;
    const encoded = format.request.encode(saysJson ? toolRequest : withoutJson, { model: "model-x", stream: false });
    if (!encoded.ok) throw new Error(encoded.problem);
    const decoded = format.request.decode?.(JSON.parse(JSON.stringify(encoded.body)), { model: "model-x", stream: false });
    if (!decoded?.ok) throw new Error(JSON.stringify(decoded));
    expect(decoded.value.stream).toBe(false);
    expect(decoded.value.request.messages).toEqual(toolRequest.messages);
    expect(decoded.value.request.tools?.map((tool) => [tool.name, tool.parameters])).toEqual([["get_weather", WEATHER_PARAMETERS]]);
    if (saysJson) expect(decoded.value.request.responseFormat).toMatchObject({ type: "json-schema", schema: FORECAST_SCHEMA });
    expect(decoded.value.request.reasoning).toMatchObject({ enabled: true });
    expect(decoded.value.request.temperature).toBe(0.5);
  });

  caseFor(format.response.render !== undefined)("response: a tool call renders and decodes back, finishing with tool_calls", () => {
    const rendered = format.response.render?.(toolAnswer, { createdSeconds: 1_700_000_000 });
    const decoded = format.response.decode(JSON.stringify(rendered), fallback);
    if (!decoded.ok) throw new Error(decoded.problem);
    const calls = decoded.response.content.flatMap((part) =>
      part.type === "tool-call" ? [[part.name, JSON.parse(part.arguments) as unknown]] : [],
    );
    expect(calls).toEqual([["get_weather", { city: "Oslo" }]]);
    expect(decoded.response.finishReason).toBe("tool_calls");
  });

  caseFor(format.errors.render !== undefined && format.stream.encoder !== undefined)(
    "stream: an error event ends the stream with the format's error, read back with its message",
    () => {
      const encoder = format.stream.encoder?.({ model: "house/model-x", createdSeconds: 1, includeUsage: true });
      if (!encoder) throw new Error("checked by caseFor");
      encoder.encode(events[0] as CanonicalStreamEvent);
      const frames = encoder.encode({ type: "error", error: { message: "The model is busy.", status: 529 } });
      expect(encoder.finished).toBe(true);
      expect(encoder.encode(events[1] as CanonicalStreamEvent)).toEqual([]);
      expect(frames.join("")).toContain("The model is busy.");
    },
  );

  caseFor(CHUNKS_ARE_ANSWERS.includes(id) && format.stream.encoder !== undefined)(
    "stream: each frame the encoder writes is a chunk the format's answer decoder reads, and together they are the answer",
    () => {
      const encoder = format.stream.encoder?.({ model: "house/model-x", createdSeconds: 1_700_000_000, includeUsage: true });
      if (!encoder) throw new Error("checked by caseFor");
      // A tool call whose arguments arrive in pieces goes out whole, once.
      const frames = toolStreamEvents.flatMap((event) => encoder.encode(event));
      expect(encoder.finished).toBe(true);
      const decodedFrames = frames.map((frame) => {
        // Server-sent events carry the chunk after `data: `; NDJSON is the chunk itself.
        const decoded = format.response.decode(frame.replace(/^data: /, "").trim(), fallback);
        if (!decoded.ok) throw new Error(`${decoded.problem}: ${frame}`);
        return decoded;
      });
      const chunks = decodedFrames.map((decoded) => decoded.response);
      expect(chunks.map(textOf).join("")).toBe("Rain in Oslo.");
      const calls = chunks.flatMap((chunk) =>
        chunk.content.flatMap((part) => (part.type === "tool-call" ? [[part.name, JSON.parse(part.arguments) as unknown]] : [])),
      );
      expect(calls).toEqual([["get_weather", { city: "Oslo" }]]);
      // The last chunk alone has no call in it: it carries the format's own word for a turn that called tools.
      expect(decodedFrames.at(-1)?.rawFinishReason).toBe(format.finish.fromCanonical?.tool_calls);
      expect(chunks.at(-1)?.usage).toMatchObject(usage);
    },
  );

  it("stream decoder: reads the encoder's frames back as the same text, tool call, finish and usage", () => {
    const encoder = format.stream.encoder?.({ model: "house/model-x", createdSeconds: 1_700_000_000, includeUsage: true });
    if (!encoder) throw new Error("every format writes streams");
    const text = toolStreamEvents.flatMap((event) => encoder.encode(event)).join("");
    const seen = new SeenStream();
    const decoder = format.stream.decoder({ ...fallback, dropped: ["logitBias"] });
    seen.read(decoder, framedPieces(text, format.stream.framing));
    expect(seen.ending).toBeUndefined();
    expect(seen.malformedChunks).toEqual([]);
    expect(seen.events[0]).toMatchObject({ type: "message-start", dropped: ["logitBias"] });
    expect(seen.events.map((event) => (event.type === "text-delta" ? event.text : "")).join("")).toBe("Rain in Oslo.");
    const argumentsText = seen.events.map((event) => (event.type === "tool-call-delta" ? (event.argumentsDelta ?? "") : "")).join("");
    expect(JSON.parse(argumentsText)).toEqual({ city: "Oslo" });
    expect(seen.events.find((event) => event.type === "tool-call-delta" && event.name !== undefined)).toMatchObject({
      name: "get_weather",
    });
    const finishes = seen.events.filter((event) => event.type === "finish");
    expect(finishes).toHaveLength(1);
    expect(finishes[0]).toMatchObject({ reason: "tool_calls", usage });
  });

  it("stream decoder: a stream cut before its finish ends as cut; a chunk that is not JSON is skipped and counted", () => {
    const encoder = format.stream.encoder?.({ model: "house/model-x", createdSeconds: 1_700_000_000, includeUsage: true });
    if (!encoder) throw new Error("every format writes streams");
    const text = events
      .slice(0, 3)
      .flatMap((event) => encoder.encode(event))
      .join("");
    const seen = new SeenStream();
    seen.read(format.stream.decoder({ ...fallback, dropped: [] }), ["{not json", ...framedPieces(text, format.stream.framing)]);
    expect(seen.malformedChunks).toEqual(["{not json"]);
    expect(seen.events.map((event) => (event.type === "text-delta" ? event.text : "")).join("")).toBe("Rain in Oslo.");
    expect(seen.ending).toEqual({ kind: "cut" });
  });

  caseFor(format.errors.render !== undefined)("stream decoder: the format's in-band error event ends the stream with its message", () => {
    const encoder = format.stream.encoder?.({ model: "house/model-x", createdSeconds: 1, includeUsage: true });
    if (!encoder) throw new Error("every format writes streams");
    const frames = [
      ...encoder.encode(events[0] as CanonicalStreamEvent),
      ...encoder.encode({ type: "error", error: { message: "The model is busy.", status: 529 } }),
    ];
    const seen = new SeenStream();
    seen.read(format.stream.decoder({ ...fallback, dropped: [] }), framedPieces(frames.join(""), format.stream.framing));
    expect(seen.ending?.kind).toBe("error");
    expect(seen.ending?.detail).toMatchObject({ message: "The model is busy." });
  });

  caseFor(format.lane !== undefined)("stream: the encoder's frames pass the same format's scanner, and assemble into the answer", () => {
    const lane = format.lane;
    const encoder = format.stream.encoder?.({ model: "house/model-x", createdSeconds: 1_700_000_000, includeUsage: true });
    if (!lane || !encoder) throw new Error("a lane format writes streams");
    const bytes = Buffer.from(events.flatMap((event) => encoder.encode(event)).join(""));
    expect(encoder.finished).toBe(true);

    const forwarded = lane.scanner({ shownModel: "house/model-x", forwardUsage: true });
    // Split in two reads mid-event: a read may end anywhere.
    const cut = Math.floor(bytes.length / 2);
    const out = [forwarded.push(bytes.subarray(0, cut)).forward, forwarded.push(bytes.subarray(cut)).forward].filter(
      (part) => part !== undefined,
    );
    forwarded.end();
    expect(forwarded.committed).toBe(true);
    expect(forwarded.complete).toBe(true);
    expect(forwarded.malformedChunks).toBe(0);
    expect(format.usage.read(forwarded.usage)).toMatchObject(usage);
    expect(forwarded.delivered().text).toBe("Rain in Oslo.");
    expect(Buffer.concat(out as Buffer[]).toString()).toContain("in Oslo.");

    const assembled = assembledByLane(format, bytes);
    expect(textOf(assembled)).toBe("Rain in Oslo.");
    expect(assembled.usage).toMatchObject(usage);
  });

  caseFor(format.lane !== undefined)(
    "R-GW-10: lane: a whole JSON answer sent for a stream becomes this format's stream of the same answer",
    () => {
      const lane = format.lane;
      if (!lane) throw new Error("runs for lane formats");
      const bytes = lane.answerAsStream(Buffer.from(JSON.stringify(samples.answer)), { createdSeconds: 1_700_000_000 });
      if (!bytes) throw new Error("the sample answer is an answer");
      const scanned = lane.scanner({ shownModel: "house/model-x", forwardUsage: true });
      const forward = scanned.push(bytes).forward;
      scanned.end();
      expect(scanned.committed).toBe(true);
      expect(scanned.complete).toBe(true);
      expect(scanned.malformedChunks).toBe(0);
      expect(format.usage.read(scanned.usage)).toMatchObject(usage);
      expect(scanned.delivered().text).toBe("Rain in Oslo.");
      // The answer's own id travels with it (the scanner renames only the model).
      expect(forward?.toString()).toContain(JSON.stringify((samples.answer as { id: string }).id));
      const assembled = assembledByLane(format, bytes);
      expect(textOf(assembled)).toBe("Rain in Oslo.");
      expect(assembled.finishReason).toBe("stop");
      expect(lane.answerAsStream(Buffer.from("<html>502</html>"), { createdSeconds: 1 })).toBeUndefined();
      expect(lane.answerAsStream(Buffer.from('{"not":"an answer"}'), { createdSeconds: 1 })).toBeUndefined();
    },
  );

  caseFor(format.lane !== undefined && format.errors.render !== undefined)(
    "R-GW-10: lane: an error body sent for a stream is read as the same error mid-stream",
    () => {
      const lane = format.lane;
      const body = format.errors.render?.({ message: "Rate limit reached for requests.", status: 429, code: "rate_limit_exceeded" });
      if (!lane || body === undefined) throw new Error("runs for lane formats with an error renderer");
      // Pretty-printed on purpose: the event must still be one line of data.
      const bytes = lane.answerAsStream(Buffer.from(JSON.stringify(body, null, 2)), { createdSeconds: 1 });
      if (!bytes) throw new Error("an error body becomes the stream's error event");
      const scanned = lane.scanner({ shownModel: "house/model-x" });
      const step = scanned.push(bytes);
      expect(step.failure).toBeDefined();
      expect(scanned.committed).toBe(false);
      expect(format.errors.readStreamError(step.failure).message).toBe("Rate limit reached for requests.");
    },
  );

  caseFor(format.stream.resumeEncoder !== undefined)("stream: a resumed stream goes on without starting a second answer", () => {
    const fresh = format.stream.encoder?.({ model: "house/model-x", createdSeconds: 1, includeUsage: true });
    const resumed = format.stream.resumeEncoder?.({
      model: "house/model-x",
      createdSeconds: 1,
      includeUsage: true,
      delivered: { text: "Rain ", toolCalls: [], blocks: { started: 1, openText: 0 } },
    });
    if (!fresh || !resumed) throw new Error("a resumable format also writes fresh streams");
    const freshStart = fresh.encode(events[0] as CanonicalStreamEvent).join("");
    const resumedFrames = [resumed.encode(events[0] as CanonicalStreamEvent), resumed.encode(events[2] as CanonicalStreamEvent)]
      .flat()
      .join("");
    expect(freshStart).not.toBe("");
    expect(resumedFrames).not.toContain(freshStart);
    expect(resumedFrames).toContain("in Oslo.");
  });

  caseFor(samples.clientBody !== undefined)(
    "lane: the client's bytes for a candidate differ only in `model`, and stay a valid request",
    () => {
      const lane = format.lane;
      if (!lane || !samples.clientBody) throw new Error("a format with a client body has a lane");
      const scanned = scanChatBody(Buffer.from(JSON.stringify(samples.clientBody)));
      if (!scanned.ok) throw new Error(scanned.problem);
      const plain = JSON.parse(bytesOf(lane.bodyFor(scanned.body, "model-y", false)).toString()) as Record<string, unknown>;
      expect(plain).toEqual({ ...samples.clientBody, model: "model-y" });
      const streamed = JSON.parse(bytesOf(lane.streamedBodyFor(scanned.body, "model-y")).toString()) as Record<string, unknown>;
      expect(streamed).toMatchObject({ ...samples.clientBody, model: "model-y", stream: true });
      for (const body of [plain, streamed]) expect(format.request.decode?.(body)?.ok).toBe(true);
      expect(lane.clientWantsUsage(scanned.body, false)).toBe(id !== "openai-chat");
    },
  );
});
