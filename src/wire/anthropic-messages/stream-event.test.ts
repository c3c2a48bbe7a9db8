import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { validateWire } from "../shared/wire-json.js";
import { anthropicStreamEventSchema } from "./schemas.js";
import { matchesAnthropicStreamEvent, readAnthropicStreamEvent } from "./stream-event.js";

/** Values of every JSON kind, with the edges the schema draws lines at (negative, fractional, unsafe integers). */
const anyValue = fc.oneof(
  fc.constantFrom(null, 0, -0, 1, -1, 1.5, 2 ** 53, "", "text", true, false, [], {}),
  fc.string(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.array(fc.integer(), { maxLength: 2 }),
);
/** A field that is usually absent or of the expected kind, sometimes anything. */
const maybe = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.option(fc.oneof({ weight: 3, arbitrary }, { weight: 1, arbitrary: anyValue }), { nil: undefined });
const usage = fc.record(
  {
    input_tokens: maybe(fc.nat()),
    output_tokens: maybe(fc.nat()),
    cache_read_input_tokens: maybe(fc.nat()),
    cache_creation_input_tokens: maybe(fc.nat()),
    extra: maybe(fc.string()),
  },
  { requiredKeys: [] },
);
const block = fc.record(
  {
    type: maybe(fc.constantFrom("text", "tool_use", "thinking", "redacted_thinking", "future")),
    text: maybe(fc.string()),
    thinking: maybe(fc.string()),
    signature: maybe(fc.string()),
    data: maybe(fc.string()),
    id: maybe(fc.string()),
    name: maybe(fc.string()),
    input: maybe(fc.dictionary(fc.string(), fc.string())),
  },
  { requiredKeys: [] },
);
const delta = fc.record(
  {
    type: maybe(fc.constantFrom("text_delta", "input_json_delta", "thinking_delta", "signature_delta")),
    text: maybe(fc.string()),
    partial_json: maybe(fc.string()),
    thinking: maybe(fc.string()),
    signature: maybe(fc.string()),
    stop_reason: maybe(fc.oneof(fc.string(), fc.constant(null))),
  },
  { requiredKeys: [] },
);
const withoutUndefined = (value: Record<string, unknown>) => JSON.parse(JSON.stringify(value)) as unknown;
const event = fc
  .record(
    {
      type: fc.oneof(
        {
          weight: 8,
          arbitrary: fc.constantFrom(
            "message_start",
            "content_block_start",
            "content_block_delta",
            "content_block_stop",
            "message_delta",
            "message_stop",
            "ping",
            "error",
          ),
        },
        { weight: 1, arbitrary: anyValue },
      ),
      index: maybe(fc.integer({ min: -2, max: 5 })),
      message: maybe(
        fc.record(
          { id: maybe(fc.string()), model: maybe(fc.string()), usage: maybe(fc.oneof(usage, fc.constant(null))) },
          { requiredKeys: [] },
        ),
      ),
      content_block: maybe(block),
      delta: maybe(delta),
      usage: maybe(fc.oneof(usage, fc.constant(null))),
      error: maybe(fc.record({ type: maybe(fc.string()), message: maybe(fc.oneof(fc.string(), fc.constant(null))) }, { requiredKeys: [] })),
    },
    { requiredKeys: ["type"] },
  )
  .map(withoutUndefined);

describe("readAnthropicStreamEvent (R-ST-2: the same verdict as the schema, without running it for ordinary events)", () => {
  test.prop([fc.oneof(event, anyValue)], { numRuns: 3000 })(
    "accepts and rejects exactly what the schema does, with its problem text",
    (value) => {
      const fast = readAnthropicStreamEvent(value);
      const schema = validateWire(value, anthropicStreamEventSchema);
      expect(fast.ok).toBe(schema.ok);
      if (fast.ok && schema.ok) expect(fast.value).toEqual(schema.value);
      else expect(fast).toEqual(schema);
    },
  );

  it("vouches for the events a stream is made of, so the schema does not run for them", () => {
    const events: Record<string, unknown>[] = [
      {
        type: "message_start",
        message: {
          id: "msg_1",
          type: "message",
          role: "assistant",
          model: "claude",
          content: [],
          usage: { input_tokens: 12, output_tokens: 1 },
        },
      },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hello" } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 18 } },
      { type: "message_stop" },
      { type: "ping" },
    ];
    for (const value of events) expect(matchesAnthropicStreamEvent(value)).toBe(true);
  });

  it("leaves an index the schema rejects to the schema, which names it", () => {
    const result = readAnthropicStreamEvent({ type: "content_block_delta", index: -1, delta: { type: "text_delta", text: "x" } });
    expect(result).toMatchObject({ ok: false, problem: expect.stringMatching(/^schema mismatch at index/) });
  });
});
