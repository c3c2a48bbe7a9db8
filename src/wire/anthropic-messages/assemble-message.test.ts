import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { MockReply } from "../../testing/mock-provider/reply.js";
import { anthropicWire } from "../../testing/mock-provider/wire/anthropic-wire.js";
import { AnthropicMessageAssembler } from "./assemble-message.js";
import { anthropicMessageSchema } from "./schemas.js";

function fixture(name: string): string {
  return readFileSync(fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url)), "utf8");
}

/** The `data:` payloads of an SSE text. */
function eventsOf(sse: string): unknown[] {
  return sse
    .split(/\n\n/)
    .map((event) =>
      event
        .split("\n")
        .find((line) => line.startsWith("data:"))
        ?.replace(/^data: ?/, ""),
    )
    .filter((data): data is string => data !== undefined && data.trim() !== "")
    .map((data) => JSON.parse(data) as unknown);
}

function assemble(events: unknown[]): { message: Record<string, unknown>; finished: boolean } {
  const assembler = new AnthropicMessageAssembler();
  for (const event of events) assembler.accept(event);
  return { message: assembler.message(), finished: assembler.finished };
}

describe("AnthropicMessageAssembler (R-ST-6: a streamed answer in the shape of the non-streamed one)", () => {
  it.each([
    ["assembled-thinking-tool-use", "thinking with its signature, text, a tool call's streamed input, cache usage details"],
    ["assembled-citations", "citations on a text block, two text blocks, a stop sequence"],
  ])("R-ST-6: %s — %s — equals the provider's non-streamed JSON", (name) => {
    const expected = JSON.parse(fixture(`${name}.message.json`)) as unknown;
    const { message, finished } = assemble(eventsOf(fixture(`${name}.events.txt`)));
    expect(finished).toBe(true);
    expect(message).toStrictEqual(expected);
    expect(anthropicMessageSchema.safeParse(message).success).toBe(true);
  });

  it("R-ST-6: the mock provider's stream assembles to its own non-streamed answer (text and tool call)", () => {
    const context = { id: "msg_mock_1", model: "claude-sonnet-4-5", createdSeconds: 1_760_000_000, includeUsage: true };
    const replies: MockReply[] = [
      { textTokens: ["Hello", " from", " the", " mock."], finishReason: "stop", usage: { inputTokens: 12, outputTokens: 4 } },
      {
        textTokens: [],
        toolCall: { id: "toolu_mock_1", name: "get_weather", arguments: '{"city":"mock-city","days":1}' },
        finishReason: "tool_calls",
        usage: { inputTokens: 30, outputTokens: 9 },
      },
    ];
    for (const reply of replies) {
      const frames = anthropicWire.streamFrames(reply, context);
      const sse = [...frames.lead, ...frames.content, ...frames.finish, ...frames.done].join("");
      expect(assemble(eventsOf(sse)).message).toStrictEqual(anthropicWire.renderJson(reply, context));
    }
  });

  it("R-ST-6: a stream cut before its stop reason is not finished (the lane fails it over, never answers with half)", () => {
    const events = eventsOf(fixture("assembled-citations.events.txt")).slice(0, 4);
    expect(assemble(events).finished).toBe(false);
  });
});
