import { describe, expect, it } from "vitest";
import { isRefusalBody, isRefusalFinish } from "./refusal-answer.js";

const body = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

describe("R-GW-11 answers that are refusals", () => {
  const bodies: [string, Buffer, boolean][] = [
    ["Anthropic stop_reason refusal", body({ type: "message", role: "assistant", content: [], stop_reason: "refusal" }), true],
    [
      "Anthropic end_turn",
      body({ type: "message", role: "assistant", content: [{ type: "text", text: "a refusal of sorts" }], stop_reason: "end_turn" }),
      false,
    ],
    [
      "OpenAI finish_reason content_filter",
      body({ choices: [{ index: 0, message: { role: "assistant", content: "" }, finish_reason: "content_filter" }] }),
      true,
    ],
    [
      "OpenAI refusal message",
      body({
        choices: [{ index: 0, message: { role: "assistant", content: null, refusal: "I can't help with that." }, finish_reason: "stop" }],
      }),
      true,
    ],
    [
      "OpenAI refusal: null",
      body({ choices: [{ index: 0, message: { role: "assistant", content: "hi", refusal: null }, finish_reason: "stop" }] }),
      false,
    ],
    [
      "Responses incomplete for content_filter",
      body({ object: "response", status: "incomplete", incomplete_details: { reason: "content_filter" }, output: [] }),
      true,
    ],
    [
      "Responses refusal part",
      body({ object: "response", status: "completed", output: [{ type: "message", content: [{ type: "refusal", refusal: "No." }] }] }),
      true,
    ],
    [
      "Responses completed text",
      body({
        object: "response",
        status: "completed",
        output: [{ type: "message", content: [{ type: "output_text", text: 'the word "refusal" in text' }] }],
      }),
      false,
    ],
    ["not JSON", Buffer.from('"refusal" <html>'), false],
  ];
  it.each(bodies)("R-GW-11: %s → %s", (_title, bytes, refused) => {
    expect(isRefusalBody(bytes)).toBe(refused);
  });

  const finishes: [string | undefined, boolean][] = [
    ["refusal", true],
    ["content_filter", true],
    ["incomplete:content_filter", true],
    ["end_turn", false],
    ["stop", false],
    ["incomplete:max_output_tokens", false],
    [undefined, false],
  ];
  it.each(finishes)("R-GW-11: raw finish %s → %s", (finish, refused) => {
    expect(isRefusalFinish(finish)).toBe(refused);
  });
});
