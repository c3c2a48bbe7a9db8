import { describe, expect, it } from "vitest";
import { ANTHROPIC_FINISH_REASONS, mapAnthropicFinishReason } from "./finish-reasons.js";

const rows = [
  ["end_turn", "stop"],
  ["stop_sequence", "stop"],
  ["pause_turn", "stop"],
  ["max_tokens", "length"],
  ["model_context_window_exceeded", "length"],
  ["tool_use", "tool_calls"],
  ["refusal", "content_filter"],
] as const;

describe("mapAnthropicFinishReason", () => {
  it.each(rows)("%s → %s", (raw, expected) => {
    expect(mapAnthropicFinishReason(raw)).toBe(expected);
  });

  it("every table row has a test row, and unknown values mean stop", () => {
    expect(Object.keys(ANTHROPIC_FINISH_REASONS).sort()).toEqual(rows.map(([raw]) => raw).sort());
    expect(mapAnthropicFinishReason("something_new")).toBe("stop");
  });
});
