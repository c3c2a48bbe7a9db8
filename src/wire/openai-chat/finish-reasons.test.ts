import { describe } from "vitest";
import { itMapsEveryFinishReason } from "../__fixtures__/finish-reason-table.js";
import { mapOpenAiFinishReason, OPENAI_FINISH_REASONS } from "./finish-reasons.js";

describe("mapOpenAiFinishReason", () => {
  itMapsEveryFinishReason(mapOpenAiFinishReason, OPENAI_FINISH_REASONS, [
    ["stop", "stop"],
    ["length", "length"],
    ["tool_calls", "tool_calls"],
    ["function_call", "tool_calls"],
    ["content_filter", "content_filter"],
    ["error", "error"],
  ]);
});
