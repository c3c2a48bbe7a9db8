import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { parseOpenAIChatRequest, toCanonicalFromOpenAI } from "./decode-request.js";
import { vouchesForOpenAIChatRequest } from "./request-check.js";
import { openAIChatRequestSchema } from "./request-schema.js";

/** Values of every JSON kind, with the edges the schema draws lines at. */
const anyValue = fc.oneof(
  fc.constantFrom(null, 0, 1, -1, 0.5, 2.5, 3, 2 ** 53, "", "x", true, false, [], {}, ["a"], [{ type: "text", text: "t" }]),
  fc.string({ maxLength: 3 }),
);
/** Mostly what the schema expects, now and then anything: most bodies are valid, many are off by one field. */
const sometimesWrong = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: 30, arbitrary }, { weight: 1, arbitrary: anyValue });
/** Usually absent. */
const rarely = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
/** Often absent. */
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(sometimesWrong(arbitrary), { nil: undefined, freq: 2 });
const text = fc.string({ maxLength: 4 });
const textPart = sometimesWrong(
  fc.record({
    type: fc.oneof({ weight: 12, arbitrary: fc.constant("text") }, { weight: 1, arbitrary: fc.constantFrom("refusal", "image_url") }),
    text,
  }),
);
const textContent = fc.oneof(text, fc.array(textPart, { maxLength: 2 }));
const toolCall = sometimesWrong(
  fc.record({
    id: fc.constantFrom("call_1", "call_2"),
    type: fc.constant("function"),
    function: fc.record({ name: fc.constantFrom("read", "write"), arguments: text }),
  }),
);
const message = sometimesWrong(
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record(
        { role: fc.constantFrom("system", "developer", "user"), content: sometimesWrong(textContent), name: optional(text) },
        { requiredKeys: ["role", "content"] },
      ),
    },
    {
      weight: 2,
      arbitrary: fc.record(
        {
          role: fc.constant("assistant"),
          content: optional(fc.oneof(textContent, fc.constant(null))),
          refusal: optional(fc.oneof(text, fc.constant(null))),
          tool_calls: optional(fc.array(toolCall, { maxLength: 2 })),
          name: optional(text),
        },
        { requiredKeys: ["role"] },
      ),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        role: fc.constant("tool"),
        tool_call_id: sometimesWrong(fc.constantFrom("call_1", "call_2")),
        content: sometimesWrong(textContent),
      }),
    },
    { weight: 1, arbitrary: fc.record({ role: fc.constantFrom("other", "function"), content: text }) },
  ),
);
const tool = sometimesWrong(
  fc.record({
    type: fc.constant("function"),
    function: fc.record(
      {
        name: fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom("lookup", "read_file") },
          { weight: 1, arbitrary: fc.constantFrom("bad name", "x".repeat(65), "") },
        ),
        description: optional(text),
        parameters: optional(fc.constant({ type: "object", properties: { q: { type: "string" } } })),
        strict: optional(fc.oneof(fc.boolean(), fc.constant(null))),
      },
      { requiredKeys: ["name"] },
    ),
  }),
);
const withoutUndefined = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
const body = fc
  .record(
    {
      model: sometimesWrong(fc.constantFrom("anthropic/claude", "gpt-4o")),
      messages: sometimesWrong(fc.array(message, { minLength: 1, maxLength: 3 })),
      stream: optional(fc.oneof(fc.boolean(), fc.constant(null))),
      stream_options: optional(fc.record({ include_usage: optional(fc.boolean()) }, { requiredKeys: [] })),
      temperature: optional(fc.double({ min: -0.5, max: 2.5, noNaN: true })),
      top_p: optional(fc.double({ min: -0.5, max: 1.5, noNaN: true })),
      max_tokens: optional(fc.integer({ min: -1, max: 5000 })),
      max_completion_tokens: optional(fc.integer({ min: -1, max: 5000 })),
      user: optional(text),
      tools: optional(fc.array(tool, { maxLength: 2 })),
      tool_choice: optional(
        fc.oneof(
          fc.constantFrom("none", "auto", "required", "any"),
          fc.record({ type: fc.constant("function"), function: fc.record({ name: fc.constantFrom("lookup", "") }) }),
        ),
      ),
      parallel_tool_calls: optional(fc.oneof(fc.boolean(), fc.constant(null))),
      stop: optional(fc.oneof(text, fc.array(text, { maxLength: 2 }), fc.constant(null))),
      // Fields the check leaves to the schema, now and then.
      seed: rarely(fc.integer()),
      metadata: rarely(fc.dictionary(fc.string({ maxLength: 2 }), fc.string({ maxLength: 2 }))),
      custom_field: optional(text),
    },
    { requiredKeys: ["model", "messages"] },
  )
  .map(withoutUndefined);

let vouched = 0;

describe("vouchesForOpenAIChatRequest (R-GW-4: the schema's verdict, without running it for ordinary requests)", () => {
  test.prop([body], { numRuns: 4000 })("vouches only for bodies the schema accepts, whose output is the body itself", (value) => {
    if (!vouchesForOpenAIChatRequest(value)) return;
    vouched += 1;
    const parsed = openAIChatRequestSchema.safeParse(value);
    expect(parsed.success).toBe(true);
    expect(value).toEqual(parsed.data);
    // The canonical request is the one the schema's output gives.
    const result = parseOpenAIChatRequest(value);
    expect(result.ok && result.request).toEqual(toCanonicalFromOpenAI(parsed.data as never));
  });

  it("the generated bodies include many it vouches for (the property above is not vacuous)", () => {
    expect(vouched).toBeGreaterThan(300);
  });

  test.prop([body], { numRuns: 1000 })(
    "a body it leaves to the schema parses exactly as before: the same issues or the same request",
    (value) => {
      fc.pre(!vouchesForOpenAIChatRequest(value));
      const parsed = openAIChatRequestSchema.safeParse(value);
      const result = parseOpenAIChatRequest(value);
      expect(result.ok).toBe(parsed.success);
    },
  );

  it("vouches for what agents send every request: text turns, tool calls and results, tools, stream options", () => {
    const agentBody = {
      model: "anthropic/claude-sonnet",
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      max_tokens: 1024,
      tools: [
        {
          type: "function",
          function: {
            name: "read_file",
            description: "Reads a file",
            parameters: { type: "object", properties: { path: { type: "string" } } },
          },
        },
      ],
      tool_choice: "auto",
      messages: [
        { role: "system", content: "You are a coding agent." },
        { role: "user", content: [{ type: "text", text: "Open main.ts" }] },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"main.ts"}' } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "export {}" },
      ],
    };
    expect(vouchesForOpenAIChatRequest(agentBody)).toBe(true);
  });

  it("leaves a bad body to the schema, whose 400 issues name the field", () => {
    const bad = { model: "m", messages: [{ role: "user", content: 42 }] };
    expect(vouchesForOpenAIChatRequest(bad)).toBe(false);
    const result = parseOpenAIChatRequest(bad);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues[0]?.path).toMatch(/^messages\[0\]\.content/);
  });

  it.each([
    ["no messages", { model: "m", messages: [] }],
    ["an empty model", { model: "", messages: [{ role: "user", content: "hi" }] }],
    ["an assistant turn with neither content nor tool calls", { model: "m", messages: [{ role: "assistant", content: null }] }],
    ["a tool result without its call id", { model: "m", messages: [{ role: "tool", tool_call_id: "", content: "x" }] }],
    ["n (left to the schema)", { model: "m", n: 1, messages: [{ role: "user", content: "hi" }] }],
  ])("does not vouch for %s", (_case, value) => {
    expect(vouchesForOpenAIChatRequest(value)).toBe(false);
  });

  it("leaves an own __proto__ key to the schema", () => {
    const value = JSON.parse('{"model":"m","messages":[{"role":"user","content":"hi"}],"__proto__":{"x":1}}') as unknown;
    expect(vouchesForOpenAIChatRequest(value)).toBe(false);
  });
});
