/**
 * R-GW-2 as properties: whatever a client sends in canonical form, every provider's translation is a
 * request its own wire schema accepts, and no tool call or tool result is lost on the way.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CanonicalContentPart, CanonicalMessage, CanonicalRequest } from "../ports/canonical.js";
import { encodeAnthropicRequest } from "../wire/anthropic-messages/encode-request.js";
import { anthropicMessagesRequestSchema } from "../wire/anthropic-messages/schemas.js";
import { encodeGoogleRequest, toGoogleRequest } from "../wire/google-generative-ai/encode-request.js";
import { googleGenerateContentRequestSchema } from "../wire/google-generative-ai/schemas.js";
import { encodeOllamaRequest, toOllamaRequest } from "../wire/ollama/encode-request.js";
import { ollamaChatRequestSchema } from "../wire/ollama/schemas.js";
import { encodeOpenAiRequest } from "../wire/openai-chat/encode-request.js";
import { openAiChatRequestSchema } from "../wire/openai-chat/schemas.js";
import type { WireEncoding } from "../wire/shared/encoding.js";

function bodyOf<Body>(encoding: WireEncoding<Body>): Body {
  if (!encoding.ok) throw new Error(encoding.problem);
  return encoding.body;
}
const toOpenAiRequest = (...args: Parameters<typeof encodeOpenAiRequest>) => bodyOf(encodeOpenAiRequest(...args));
const toAnthropicRequest = (...args: Parameters<typeof encodeAnthropicRequest>) => bodyOf(encodeAnthropicRequest(...args));

const identifier = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,15}$/);

const part: fc.Arbitrary<CanonicalContentPart> = fc.oneof(
  fc.record({ type: fc.constant("text" as const), text: fc.string({ maxLength: 20 }) }),
  fc.record({
    type: fc.constant("image" as const),
    source: fc.oneof(
      fc.record({
        kind: fc.constant("base64" as const),
        mediaType: fc.constantFrom("image/png", "image/jpeg"),
        data: fc.base64String({ maxLength: 16 }),
      }),
      fc.record({ kind: fc.constant("url" as const), url: fc.webUrl() }),
    ),
  }),
  fc.record({
    type: fc.constant("tool-call" as const),
    id: identifier,
    name: identifier,
    arguments: fc.oneof(fc.json(), fc.string({ maxLength: 10 })),
  }),
  fc.record(
    { type: fc.constant("tool-result" as const), toolCallId: identifier, content: fc.string({ maxLength: 20 }), isError: fc.boolean() },
    { requiredKeys: ["type", "toolCallId", "content"] },
  ),
);

const message: fc.Arbitrary<CanonicalMessage> = fc.record({
  role: fc.constantFrom("user" as const, "assistant" as const, "tool" as const),
  content: fc.array(part, { maxLength: 4 }),
});

const request: fc.Arbitrary<CanonicalRequest> = fc.record(
  {
    system: fc.string({ maxLength: 20 }),
    messages: fc.array(message, { minLength: 1, maxLength: 6 }),
    tools: fc.array(
      fc.record(
        { name: identifier, description: fc.string({ maxLength: 10 }), parameters: fc.constant({ type: "object", properties: {} }) },
        { requiredKeys: ["name", "parameters"] },
      ),
      { maxLength: 3 },
    ),
    toolChoice: fc.oneof(fc.constantFrom("auto" as const, "none" as const, "required" as const), fc.record({ name: identifier })),
    temperature: fc.double({ min: 0, max: 2, noNaN: true }),
    topP: fc.double({ min: 0, max: 1, noNaN: true }),
    maxTokens: fc.integer({ min: 1, max: 100_000 }),
    stop: fc.array(fc.string({ minLength: 1, maxLength: 5 }), { maxLength: 3 }),
  },
  { requiredKeys: ["messages"] },
);

const count = (messages: readonly CanonicalMessage[], type: CanonicalContentPart["type"], roles?: readonly string[]) =>
  messages.flatMap((entry) => (roles && !roles.includes(entry.role) ? [] : entry.content)).filter((entry) => entry.type === type).length;

describe("R-GW-2: canonical → wire translation properties", () => {
  it("OpenAI: schema-valid; one tool message per tool result; assistant tool calls kept", () => {
    fc.assert(
      fc.property(request, fc.boolean(), (canonical, stream) => {
        const wire = toOpenAiRequest(canonical, { model: "m", stream, maxTokensField: "max_tokens" });
        expect(openAiChatRequestSchema.safeParse(wire).success).toBe(true);
        expect(wire.messages.filter((entry) => entry.role === "tool")).toHaveLength(count(canonical.messages, "tool-result"));
        const calls = wire.messages.flatMap((entry) => (entry.role === "assistant" ? (entry.tool_calls ?? []) : []));
        expect(calls).toHaveLength(count(canonical.messages, "tool-call", ["assistant"]));
      }),
    );
  });

  it("Anthropic: schema-valid; turns alternate; tool results lead their user turn and none is lost", () => {
    fc.assert(
      fc.property(request, (canonical) => {
        const wire = toAnthropicRequest(canonical, { model: "m", stream: false });
        expect(anthropicMessagesRequestSchema.safeParse(wire).success).toBe(true);
        wire.messages.forEach((entry, index) => {
          if (index > 0) expect(entry.role).not.toBe(wire.messages[index - 1]?.role);
          const firstOther = entry.content.findIndex((block) => block.type !== "tool_result");
          const lastResult = entry.content.map((block) => block.type).lastIndexOf("tool_result");
          if (entry.role === "user" && firstOther >= 0) expect(lastResult).toBeLessThan(firstOther);
        });
        const results = wire.messages.flatMap((entry) => entry.content).filter((block) => block.type === "tool_result");
        expect(results).toHaveLength(count(canonical.messages, "tool-result"));
      }),
    );
  });

  it("Google: schema-valid; turns alternate; one functionResponse per tool result", () => {
    fc.assert(
      fc.property(request, (canonical) => {
        const wire = toGoogleRequest(canonical);
        expect(googleGenerateContentRequestSchema.safeParse(wire).success).toBe(true);
        wire.contents.forEach((entry, index) => {
          if (index > 0) expect(entry.role).not.toBe(wire.contents[index - 1]?.role);
        });
        const responses = wire.contents.flatMap((entry) => entry.parts).filter((entry) => "functionResponse" in entry);
        expect(responses).toHaveLength(count(canonical.messages, "tool-result"));
      }),
    );
  });

  it("Ollama: schema-valid; one tool message per tool result", () => {
    fc.assert(
      fc.property(request, fc.boolean(), (canonical, stream) => {
        const wire = toOllamaRequest(canonical, { model: "m", stream });
        expect(ollamaChatRequestSchema.safeParse(wire).success).toBe(true);
        expect(wire.messages.filter((entry) => entry.role === "tool")).toHaveLength(count(canonical.messages, "tool-result"));
      }),
    );
  });
});

/** Hints with values no other field carries, so the wire body can be searched for them. */
const hints = fc.record(
  {
    seed: fc.constant(424242),
    topK: fc.constant(77),
    frequencyPenalty: fc.constant(0.123),
    presencePenalty: fc.constant(0.456),
    user: fc.constant("user-sentinel"),
    metadata: fc.constant({ team: "meta-sentinel" }),
  },
  { requiredKeys: [] },
);

const HINT_NAMES: Record<string, string> = {
  seed: "seed",
  topK: "top_k",
  frequencyPenalty: "frequency_penalty",
  presencePenalty: "presence_penalty",
  user: "user",
  metadata: "metadata",
};

const meaningful = fc.record(
  {
    logprobs: fc.constant(true),
    responseFormat: fc.constant({ type: "json" as const }),
    logitBias: fc.constant({ "50256": -100 }),
  },
  { requiredKeys: [] },
);

const ENCODERS: [string, (canonical: CanonicalRequest) => WireEncoding<unknown>][] = [
  ["openai-chat", (canonical) => encodeOpenAiRequest(canonical, { model: "m", stream: false, maxTokensField: "max_tokens" })],
  ["anthropic-messages", (canonical) => encodeAnthropicRequest(canonical, { model: "m", stream: false })],
  ["google-generative-ai", (canonical) => encodeGoogleRequest(canonical)],
  ["ollama", (canonical) => encodeOllamaRequest(canonical, { model: "m", stream: false })],
];

const HINT_VALUE: Record<string, string> = {
  seed: "424242",
  topK: "77",
  frequencyPenalty: "0.123",
  presencePenalty: "0.456",
  user: "user-sentinel",
  metadata: "meta-sentinel",
};

describe("R-GW-6: nothing is lost silently", () => {
  for (const [format, encode] of ENCODERS) {
    it(`R-GW-6: ${format}: every hint is carried or named in the dropped list`, () => {
      fc.assert(
        fc.property(request, hints, (canonical, extra) => {
          const encoding = encode({ ...canonical, ...extra });
          if (!encoding.ok) throw new Error(`hints alone must never make a candidate incompatible: ${encoding.problem}`);
          const text = JSON.stringify(encoding.body);
          for (const key of Object.keys(extra)) {
            const carried = text.includes(HINT_VALUE[key] ?? "");
            expect(carried || encoding.dropped.includes(HINT_NAMES[key] ?? "")).toBe(true);
          }
        }),
      );
    });

    it(`R-GW-6: ${format}: a meaning-changing field is carried or makes the candidate incompatible naming a field`, () => {
      fc.assert(
        fc.property(request, meaningful, (canonical, extra) => {
          const encoding = encode({ ...canonical, ...extra });
          if (encoding.ok) {
            const text = JSON.stringify(encoding.body);
            if (extra.logitBias) expect(text).toContain("50256");
            if (extra.logprobs) expect(text).toContain("logprobs");
            if (extra.responseFormat) expect(text).toMatch(/json/);
          } else {
            expect(["logprobs", "response_format", "logit_bias"]).toContain(encoding.field);
            expect(encoding.problem).toContain(`"${encoding.field}"`);
          }
        }),
      );
    });
  }
});
