import { describe } from "vitest";
import { itMapsEveryFinishReason } from "../__fixtures__/finish-reason-table.js";
import { GOOGLE_FINISH_REASONS, mapGoogleFinishReason } from "./finish-reasons.js";

describe("mapGoogleFinishReason", () => {
  itMapsEveryFinishReason(mapGoogleFinishReason, GOOGLE_FINISH_REASONS, [
    ["FINISH_REASON_UNSPECIFIED", "stop"],
    ["STOP", "stop"],
    ["MAX_TOKENS", "length"],
    ["SAFETY", "content_filter"],
    ["RECITATION", "content_filter"],
    ["BLOCKLIST", "content_filter"],
    ["PROHIBITED_CONTENT", "content_filter"],
    ["SPII", "content_filter"],
    ["IMAGE_SAFETY", "content_filter"],
    ["IMAGE_PROHIBITED_CONTENT", "content_filter"],
    ["LANGUAGE", "error"],
    ["MALFORMED_FUNCTION_CALL", "error"],
    ["UNEXPECTED_TOOL_CALL", "error"],
    ["TOO_MANY_TOOL_CALLS", "error"],
    ["OTHER", "error"],
  ]);
});
