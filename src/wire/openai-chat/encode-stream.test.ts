import { fc, test as propertyTest } from "@fast-check/vitest";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { CanonicalStreamEvent } from "../../ports/canonical.js";
import { cannedFetch, sseAnswer, UNUSED_BASE_URL } from "../__fixtures__/sdk-fetch.js";
import { createOpenAIStreamEncoder, encodeOpenAIStream, OPENAI_DONE_FRAME } from "./encode-stream.js";
import { openAIChatWire } from "./format.js";

type Json = Record<string, any>;

function payloads(frames: readonly string[]): (Json | "[DONE]")[] {
  return frames
    .join("")
    .split("\n\n")
    .filter((block) => block.startsWith("data: "))
    .map((block) => {
      const data = block.slice("data: ".length);
      return data === "[DONE]" ? "[DONE]" : (JSON.parse(data) as Json);
    });
}

const textStream: CanonicalStreamEvent[] = [
  { type: "message-start", id: "chatcmpl-1", model: "anthropic/claude-x" },
  { type: "text-delta", text: "Hel" },
  { type: "text-delta", text: "lo" },
  { type: "finish", reason: "stop", usage: { inputTokens: 5, outputTokens: 2 } },
];

const toolStream: CanonicalStreamEvent[] = [
  { type: "message-start", id: "chatcmpl-2", model: "m" },
  { type: "tool-call-delta", index: 0, id: "call_a", name: "lookup", argumentsDelta: "" },
  { type: "tool-call-delta", index: 0, argumentsDelta: '{"q":' },
  { type: "tool-call-delta", index: 0, argumentsDelta: '"cat"}' },
  { type: "tool-call-delta", index: 1, id: "call_b", name: "noop" },
  { type: "finish", reason: "tool_calls", usage: { inputTokens: 9, outputTokens: 4 } },
];

function client(frames: readonly string[]) {
  const { fetch } = cannedFetch(sseAnswer(frames));
  return new OpenAI({ apiKey: "sk-test", baseURL: `${UNUSED_BASE_URL}/v1`, fetch, maxRetries: 0 });
}

describe("OpenAI SSE encoder", () => {
  it("R-GW-2: role delta first, content deltas, finish chunk, usage chunk, then [DONE]", () => {
    const frames = encodeOpenAIStream(textStream, { includeUsage: true, createdSeconds: 1 });
    const chunks = payloads(frames);
    expect(chunks).toHaveLength(6);
    expect((chunks[0] as Json).choices[0].delta).toEqual({ role: "assistant", content: "" });
    expect((chunks[1] as Json).choices[0].delta).toEqual({ content: "Hel" });
    expect((chunks[3] as Json).choices[0]).toMatchObject({ delta: {}, finish_reason: "stop" });
    expect((chunks[4] as Json).usage).toEqual({ prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 });
    expect((chunks[4] as Json).choices).toEqual([]);
    expect(chunks[5]).toBe("[DONE]");
    for (const chunk of chunks.slice(0, 5)) {
      expect(chunk).toMatchObject({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "anthropic/claude-x" });
    }
  });

  it("R-GW-2: no usage chunk unless stream_options.include_usage was set", () => {
    const chunks = payloads(encodeOpenAIStream(textStream, { includeUsage: false, createdSeconds: 1 }));
    expect(chunks.some((chunk) => chunk !== "[DONE]" && "usage" in chunk)).toBe(false);
    expect(chunks.at(-1)).toBe("[DONE]");
  });

  it("R-GW-2: the role rides on the first delta when no message-start came", () => {
    const chunks = payloads(
      encodeOpenAIStream([{ type: "text-delta", text: "x" }], { includeUsage: false, model: "m", createdSeconds: 1 }),
    );
    expect((chunks[0] as Json).choices[0].delta).toEqual({ role: "assistant", content: "x" });
    expect((chunks[0] as Json).model).toBe("m");
  });

  it("R-GW-2: tool-call deltas carry their index, id and name first, then argument pieces", () => {
    const chunks = payloads(encodeOpenAIStream(toolStream, { includeUsage: false, createdSeconds: 1 }));
    const toolDeltas = chunks.flatMap((chunk) => (chunk === "[DONE]" ? [] : (chunk.choices[0]?.delta.tool_calls ?? [])));
    expect(toolDeltas).toEqual([
      { index: 0, id: "call_a", type: "function", function: { name: "lookup", arguments: "" } },
      { index: 0, function: { arguments: '{"q":' } },
      { index: 0, function: { arguments: '"cat"}' } },
      { index: 1, id: "call_b", type: "function", function: { name: "noop", arguments: "" } },
    ]);
    expect((chunks.at(-2) as Json).choices[0].finish_reason).toBe("tool_calls");
  });

  it("R-ST-2: an error after content becomes an error chunk and no [DONE] follows", () => {
    const encoder = createOpenAIStreamEncoder({ includeUsage: true, createdSeconds: 1 });
    const frames = [
      ...encoder.encode({ type: "message-start", id: "c", model: "m" }),
      ...encoder.encode({ type: "text-delta", text: "partial" }),
      ...encoder.encode({ type: "error", error: Object.assign(new Error("upstream stalled"), { status: 504, code: "stall" }) }),
      ...encoder.encode({ type: "finish", reason: "stop" }),
    ];
    expect(encoder.finished).toBe(true);
    const chunks = payloads(frames);
    expect(chunks.at(-1)).toEqual({ error: { message: "upstream stalled", type: "timeout_error", param: null, code: "stall" } });
    expect(frames).not.toContain(OPENAI_DONE_FRAME);
  });

  it("R-ST-2: a finish with reason error is never rendered as a clean finish", () => {
    const frames = encodeOpenAIStream(
      [
        { type: "text-delta", text: "a" },
        { type: "finish", reason: "error" },
      ],
      { includeUsage: true, createdSeconds: 1 },
    );
    expect((payloads(frames).at(-1) as Json).error.type).toBe("server_error");
    expect(frames).not.toContain(OPENAI_DONE_FRAME);
  });

  it("R-ST-2: the real OpenAI SDK assembles the frames, and throws on the error chunk", async () => {
    const final = await client(encodeOpenAIStream(textStream, { includeUsage: true, createdSeconds: 1 }))
      .chat.completions.stream({ model: "x", messages: [{ role: "user", content: "hi" }], stream_options: { include_usage: true } })
      .finalChatCompletion();
    expect(final.model).toBe("anthropic/claude-x");
    expect(final.choices[0]?.message.content).toBe("Hello");
    expect(final.choices[0]?.finish_reason).toBe("stop");
    expect(final.usage?.total_tokens).toBe(7);

    const tools = await client(encodeOpenAIStream(toolStream, { includeUsage: false, createdSeconds: 1 }))
      .chat.completions.stream({ model: "x", messages: [{ role: "user", content: "hi" }] })
      .finalChatCompletion();
    expect(tools.choices[0]?.message.tool_calls?.map((call) => (call.type === "function" ? call.function : undefined))).toEqual([
      { name: "lookup", arguments: '{"q":"cat"}' },
      { name: "noop", arguments: "" },
    ]);

    const failing = encodeOpenAIStream([textStream[0]!, textStream[1]!, { type: "error", error: new Error("cut after commit") }], {
      includeUsage: false,
      createdSeconds: 1,
    });
    await expect(
      client(failing)
        .chat.completions.stream({ model: "x", messages: [{ role: "user", content: "hi" }] })
        .finalChatCompletion(),
    ).rejects.toThrow(/cut after commit/);
  });

  propertyTest.prop([fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 20 })])(
    "R-GW-2: any sequence of text deltas reassembles to the same text",
    (pieces) => {
      const events: CanonicalStreamEvent[] = [
        ...pieces.map((text) => ({ type: "text-delta" as const, text })),
        { type: "finish", reason: "stop" },
      ];
      const text = payloads(encodeOpenAIStream(events, { includeUsage: false, createdSeconds: 1 }))
        .map((chunk) => (chunk === "[DONE]" ? "" : (chunk.choices[0]?.delta.content ?? "")))
        .join("");
      expect(text).toBe(pieces.join(""));
    },
  );
});

describe("OpenAI SSE encoder: text frames", () => {
  /** The chunk as an object, stringified: what every frame was built as before text frames were written directly. */
  const reference = (id: string, model: string, created: number, delta: Json, logprobs: unknown) =>
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, logprobs, finish_reason: null }] })}\n\n`;
  const logprobs = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.record({
      content: fc.array(fc.record({ token: fc.string(), logprob: fc.double({ noNaN: true, noDefaultInfinity: true }) }), { maxLength: 2 }),
    }),
  );

  propertyTest.prop([
    fc.string(),
    fc.string(),
    fc.nat(),
    fc.array(fc.tuple(fc.string({ unit: "grapheme" }), logprobs), { minLength: 1, maxLength: 4 }),
  ])(
    "role and text frames are byte for byte the stringified chunk, whatever the id, model, text and log probabilities",
    (id, model, created, deltas) => {
      const encoder = createOpenAIStreamEncoder({ includeUsage: false, createdSeconds: created });
      expect(encoder.encode({ type: "message-start", id, model })).toEqual([
        reference(id, model, created, { role: "assistant", content: "" }, null),
      ]);
      for (const [text, probabilities] of deltas) {
        const event: CanonicalStreamEvent = {
          type: "text-delta",
          text,
          ...(probabilities === undefined ? {} : { logprobs: probabilities }),
        };
        expect(encoder.encode(event)).toEqual([reference(id, model, created, { content: text }, probabilities ?? null)]);
      }
    },
  );

  it("a text delta before any message-start carries the role, and a later message-start renames later frames", () => {
    const encoder = createOpenAIStreamEncoder({ includeUsage: false, createdSeconds: 7, model: "shown" });
    expect(encoder.encode({ type: "text-delta", text: "a" })).toEqual([
      reference("chatcmpl-detour", "shown", 7, { role: "assistant", content: "a" }, null),
    ]);
    expect(encoder.encode({ type: "message-start", id: "chatcmpl-9", model: "other" })).toEqual([]);
    expect(encoder.encode({ type: "text-delta", text: "b" })).toEqual([reference("chatcmpl-9", "other", 7, { content: "b" }, null)]);
  });
});

describe("OpenAI stream encoder: the answer's identity (R-GW-10)", () => {
  it("R-GW-10: a known system_fingerprint is on every chunk, after model, text chunks included", () => {
    const frames = createOpenAIStreamEncoder({ includeUsage: true, createdSeconds: 1700000000, systemFingerprint: "fp_x" });
    const out = textStream.flatMap((event) => frames.encode(event));
    const chunks = payloads(out).filter((payload): payload is Json => payload !== "[DONE]");
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(chunk.system_fingerprint).toBe("fp_x");
      expect(Object.keys(chunk).slice(0, 5)).toEqual(["id", "object", "created", "model", "system_fingerprint"]);
    }
  });

  it("R-GW-10: without one no chunk carries a fingerprint", () => {
    const chunks = payloads(encodeOpenAIStream(textStream, { includeUsage: false, createdSeconds: 1 })).filter(
      (payload): payload is Json => payload !== "[DONE]",
    );
    expect(chunks.every((chunk) => !("system_fingerprint" in chunk))).toBe(true);
  });
});

describe("the OpenAI chat resume encoder (R-ST-4 with R-GW-10)", () => {
  it("R-GW-10: a resumed stream keeps the id, created and system_fingerprint of the answer the client holds", () => {
    const resumed = openAIChatWire.stream.resumeEncoder?.({
      model: "openai/gpt-y",
      createdSeconds: 1_800_000_000,
      includeUsage: false,
      delivered: { text: "Hel", toolCalls: [], identity: { id: "chatcmpl-first", createdSeconds: 1_700_000_000, fingerprint: "fp_first" } },
    });
    const frames = [{ type: "text-delta", text: "lo" } as const, { type: "finish", reason: "stop" } as const].flatMap(
      (event) => resumed?.encode(event) ?? [],
    );
    const chunks = payloads(frames).filter((payload): payload is Json => payload !== "[DONE]");
    expect(chunks).toHaveLength(2);
    for (const chunk of chunks)
      expect(chunk).toMatchObject({ id: "chatcmpl-first", created: 1_700_000_000, system_fingerprint: "fp_first", model: "openai/gpt-y" });
    // No second role delta: the answer already started.
    expect(chunks[0]?.choices[0].delta).toEqual({ content: "lo" });
  });
});
