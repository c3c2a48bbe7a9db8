/**
 * The same-wire lane's bound of a request's facts (R-FB-8): read from the scan alone, it must never fall below
 * the exact estimate of the parsed request, or the pre-call fit would call a model it would have skipped.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { requestFacts } from "../../pipe/request-facts.js";
import { parseAnthropicMessagesRequest } from "../anthropic-messages/decode-request.js";
import { parseOpenAIChatRequest } from "../openai-chat/decode-request.js";
import { anthropicMessagesLane } from "../anthropic-messages/lane.js";
import { openAIChatLane } from "../openai-chat/lane.js";
import { openAIResponsesLane } from "../openai-responses/lane.js";
import { scanChatBody } from "./scan-chat-body.js";

function scanned(body: unknown) {
  const result = scanChatBody(Buffer.from(JSON.stringify(body)));
  if (!result.ok) throw new Error(result.problem);
  return result.body;
}

// Text with what shrinks or grows when decoded: escapes, quotes, backslashes, multi-byte and astral characters.
const unit = fc.constantFrom("a", " ", '"', "\\", "\n", "\t", "\u0001", "é", "中", "😀", "\u2028");
// Mostly short strings, some long ones (where the bound is tightest: bytes ≈ characters).
const text = fc.oneof(
  { arbitrary: fc.string({ unit, maxLength: 40 }), weight: 3 },
  {
    arbitrary: fc.string({
      unit: fc.oneof({ arbitrary: fc.constant("a"), weight: 20 }, { arbitrary: unit, weight: 1 }),
      minLength: 500,
      maxLength: 3_000,
    }),
    weight: 1,
  },
);
const toolCall = fc.record({ id: text, type: fc.constant("function" as const), function: fc.record({ name: text, arguments: text }) });
const openAiMessage = fc.oneof(
  fc.record({ role: fc.constantFrom("system", "developer", "user"), content: text }),
  fc.record({
    role: fc.constant("user"),
    content: fc.array(fc.record({ type: fc.constant("text"), text }), { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ role: fc.constant("assistant"), content: fc.option(text, { nil: null }), tool_calls: fc.array(toolCall, { maxLength: 2 }) }),
  fc.record({ role: fc.constant("tool"), tool_call_id: text, content: text }),
);
const openAiTool = fc.record({
  type: fc.constant("function" as const),
  function: fc.record({ name: text, description: text, parameters: fc.constant({ type: "object" }) }, { requiredKeys: ["name"] }),
});
const openAiBody = fc.record(
  {
    model: fc.constant("openai/x"),
    messages: fc.array(openAiMessage, { minLength: 1, maxLength: 6 }),
    tools: fc.array(openAiTool, { maxLength: 4 }),
    max_tokens: fc.integer({ min: 1, max: 200_000 }),
    max_completion_tokens: fc.integer({ min: 1, max: 200_000 }),
  },
  { requiredKeys: ["model", "messages"] },
);
const anthropicBlock = fc.oneof(
  fc.record({ type: fc.constant("text"), text }),
  fc.record({
    type: fc.constant("tool_result"),
    tool_use_id: text,
    content: fc.oneof(text, fc.array(fc.record({ type: fc.constant("text"), text }), { maxLength: 3 })),
  }),
);
const anthropicMessage = fc.oneof(
  fc.record({ role: fc.constantFrom("user", "assistant"), content: text }),
  fc.record({ role: fc.constant("user"), content: fc.array(anthropicBlock, { minLength: 1, maxLength: 4 }) }),
  fc.record({
    role: fc.constant("assistant"),
    content: fc.array(
      fc.oneof(
        fc.record({ type: fc.constant("text"), text }),
        fc.record({ type: fc.constant("tool_use"), id: text, name: text, input: fc.dictionary(text, text, { maxKeys: 3 }) }),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  }),
);
const anthropicBody = fc.record(
  {
    model: fc.constant("anthropic/x"),
    max_tokens: fc.integer({ min: 1, max: 200_000 }),
    system: fc.oneof(text, fc.array(fc.record({ type: fc.constant("text"), text }), { maxLength: 3 })),
    messages: fc.array(anthropicMessage, { minLength: 1, maxLength: 6 }),
    tools: fc.array(
      fc.record(
        { name: text, description: text, input_schema: fc.constant({ type: "object" }) },
        { requiredKeys: ["name", "input_schema"] },
      ),
      { maxLength: 4 },
    ),
  },
  { requiredKeys: ["model", "max_tokens", "messages"] },
);

describe("laneFactsBound (R-FB-8 facts on demand)", () => {
  test.prop([openAiBody])("R-FB-8: an OpenAI body's bound is never below its exact estimate, and names its max_tokens", (body) => {
    const parsed = parseOpenAIChatRequest(body);
    fc.pre(parsed.ok);
    if (!parsed.ok) return;
    const exact = requestFacts(parsed.request);
    const bound = openAIChatLane.factsBound(scanned(body));
    expect(bound.inputTokens).toBeGreaterThanOrEqual(exact.inputTokens);
    expect(bound.maxOutputTokens).toBe(exact.maxOutputTokens);
    expect(bound.modalities).toEqual([]);
  });

  test.prop([anthropicBody])("R-FB-8: an Anthropic body's bound is never below its exact estimate, and names its max_tokens", (body) => {
    const parsed = parseAnthropicMessagesRequest(body);
    fc.pre(parsed.ok);
    if (!parsed.ok) return;
    const exact = requestFacts(parsed.request);
    const bound = anthropicMessagesLane.factsBound(scanned(body));
    expect(bound.inputTokens).toBeGreaterThanOrEqual(exact.inputTokens);
    expect(bound.maxOutputTokens).toBe(exact.maxOutputTokens);
  });

  it("R-FB-8: a body that may carry an image, or whose top-level keys are escaped, has no input bound", () => {
    const image = scanned({
      model: "m",
      messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://x/a.png" } }] }],
    });
    expect(openAIChatLane.factsBound(image)).toEqual({ modalities: ["image"] });
    const escaped = scanChatBody(Buffer.from('{"model":"m","max\\u005ftokens":100000,"messages":[{"role":"user","content":"hi"}]}'));
    if (!escaped.ok) throw new Error(escaped.problem);
    expect(escaped.body.escapedKey).toBe(true);
    expect(openAIChatLane.factsBound(escaped.body)).toEqual({ modalities: [] });
    // The full parse reads such a body: `max_tokens` in disguise is still seen.
    expect(openAIChatLane.shapeOk(escaped.body)).toBe(false);
    expect(openAIResponsesLane.factsBound(scanned({ model: "m", input: "hi", max_output_tokens: 5 }))).toEqual({ modalities: [] });
  });

  it("R-FB-8: OpenAI's max_completion_tokens wins over max_tokens, as its decoder reads them", () => {
    const both = scanned({ model: "m", max_tokens: 10, max_completion_tokens: 20, messages: [{ role: "user", content: "hi" }] });
    expect(openAIChatLane.factsBound(both).maxOutputTokens).toBe(20);
    const nulled = scanned({ model: "m", max_tokens: 10, max_completion_tokens: null, messages: [{ role: "user", content: "hi" }] });
    expect(openAIChatLane.factsBound(nulled).maxOutputTokens).toBe(10);
    expect(anthropicMessagesLane.factsBound(both).maxOutputTokens).toBe(10);
  });
});
