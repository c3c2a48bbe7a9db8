import { describe, expect, it } from "vitest";
import { GOOGLE_FINISH_REASONS, mapGoogleFinishReason } from "./finish-reasons.js";

const rows = [
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
] as const;

describe("mapGoogleFinishReason", () => {
  it.each(rows)("%s → %s", (raw, expected) => {
    expect(mapGoogleFinishReason(raw)).toBe(expected);
  });

  it("every table row has a test row, and unknown values mean stop", () => {
    expect(Object.keys(GOOGLE_FINISH_REASONS).sort()).toEqual(rows.map(([raw]) => raw).sort());
    expect(mapGoogleFinishReason("NEW_REASON")).toBe("stop");
  });
});
