import { describe } from "vitest";
import { itMapsEveryFinishReason } from "../__fixtures__/finish-reason-table.js";
import { ANTHROPIC_FINISH_REASONS, mapAnthropicFinishReason } from "./finish-reasons.js";

describe("mapAnthropicFinishReason", () => {
  itMapsEveryFinishReason(mapAnthropicFinishReason, ANTHROPIC_FINISH_REASONS, [
    ["end_turn", "stop"],
    ["stop_sequence", "stop"],
    ["pause_turn", "stop"],
    ["max_tokens", "length"],
    ["model_context_window_exceeded", "length"],
    ["tool_use", "tool_calls"],
    ["refusal", "content_filter"],
  ]);
});
