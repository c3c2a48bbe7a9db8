import { describe, expect, it } from "vitest";
import { mapOpenAiFinishReason, OPENAI_FINISH_REASONS } from "./finish-reasons.js";

describe("mapOpenAiFinishReason", () => {
  it.each([
    ["stop", "stop"],
    ["length", "length"],
    ["tool_calls", "tool_calls"],
    ["function_call", "tool_calls"],
    ["content_filter", "content_filter"],
    ["error", "error"],
    ["eos", "stop"],
  ] as const)("%s → %s", (raw, expected) => {
    expect(mapOpenAiFinishReason(raw)).toBe(expected);
  });

  it("every table row is tested above", () => {
    expect(Object.keys(OPENAI_FINISH_REASONS).sort()).toEqual(["content_filter", "error", "function_call", "length", "stop", "tool_calls"]);
  });

  it("inherited object keys are not finish reasons", () => {
    expect(mapOpenAiFinishReason("constructor")).toBe("stop");
  });
});
