import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { openAIWire } from "../../testing/mock-provider/wire/openai-wire.js";
import type { MockReply } from "../../testing/mock-provider/reply.js";
import { OpenAiCompletionAssembler } from "./assemble-completion.js";
import { openAiChatCompletionSchema } from "./schemas.js";

function fixture(name: string): string {
  return readFileSync(fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url)), "utf8");
}

/** The `data:` payloads of an SSE text, `[DONE]` left out. */
function chunksOf(sse: string): unknown[] {
  return sse
    .split(/\n\n/)
    .map((event) => event.replace(/^data: ?/, "").trim())
    .filter((data) => data !== "" && data !== "[DONE]")
    .map((data) => JSON.parse(data) as unknown);
}

function assemble(chunks: unknown[]): Record<string, unknown> {
  const assembler = new OpenAiCompletionAssembler();
  for (const chunk of chunks) assembler.accept(chunk);
  return assembler.completion();
}

describe("OpenAiCompletionAssembler (R-ST-6: a streamed answer in the shape of the non-streamed one)", () => {
  it.each([
    ["assembled-text", "text with log probabilities, cached-token usage, service tier and fingerprint"],
    ["assembled-tool-calls", "two parallel tool calls of a reasoning model, null content and fingerprint"],
    ["assembled-reasoning-compatible", "a compatible provider's reasoning_content and two choices"],
  ])("R-ST-6: %s — %s — equals the provider's non-streamed JSON", (name) => {
    const expected = JSON.parse(fixture(`${name}.completion.json`)) as unknown;
    const assembled = assemble(chunksOf(fixture(`${name}.chunks.txt`)));
    expect(assembled).toStrictEqual(expected);
    // And it is a completion the wire schema (and so the OpenAI SDK's types) accepts.
    expect(openAiChatCompletionSchema.safeParse(assembled).success).toBe(true);
  });

  it("R-ST-6: keeps the chat.completion key order and drops stream-only fields", () => {
    const assembled = assemble(chunksOf(fixture("assembled-text.chunks.txt")));
    expect(Object.keys(assembled)).toEqual(["id", "object", "created", "model", "choices", "usage", "service_tier", "system_fingerprint"]);
    expect(assembled).not.toHaveProperty("obfuscation");
  });

  it("R-ST-6: the mock provider's stream assembles to its own non-streamed answer (text and tool call)", () => {
    const context = { id: "chatcmpl-mock-1", model: "gpt-4o-mini", createdSeconds: 1_760_000_000, includeUsage: true };
    const replies: MockReply[] = [
      { textTokens: ["Hello", " from", " the", " mock."], finishReason: "stop", usage: { inputTokens: 12, outputTokens: 4 } },
      {
        textTokens: [],
        toolCall: { id: "call_mock_1", name: "get_weather", arguments: '{"city":"mock-city","days":1}' },
        finishReason: "tool_calls",
        usage: { inputTokens: 30, outputTokens: 9 },
      },
    ];
    for (const reply of replies) {
      const frames = openAIWire.streamFrames(reply, context);
      const sse = [...frames.lead, ...frames.content, ...frames.finish, ...frames.done].join("");
      expect(assemble(chunksOf(sse))).toStrictEqual(openAIWire.renderJson(reply, context));
    }
  });

  it("R-ST-6: a stream without a usage chunk gives an answer without usage (nothing is invented)", () => {
    const chunks = chunksOf(fixture("assembled-text.chunks.txt")).filter((chunk) => (chunk as { choices: unknown[] }).choices.length > 0);
    expect(assemble(chunks)).not.toHaveProperty("usage");
  });
});
