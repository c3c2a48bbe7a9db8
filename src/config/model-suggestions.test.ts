import { describe, expect, it } from "vitest";
import { DATED_TAIL, nearModelRefs } from "./model-suggestions.js";

const OFFERED = [
  "openai/gpt-4o-mini",
  "openai/gpt-4o",
  "openai/o1",
  "anthropic/claude-sonnet-4-20250514",
  "anthropic/claude-3-5-haiku-20241022",
];

describe("nearModelRefs", () => {
  it("R-GW-3: suggests the offered names a typo is closest to, closest first, as family names", () => {
    expect(nearModelRefs("gpt-4o-mni", OFFERED)).toEqual(["openai/gpt-4o-mini"]);
    expect(nearModelRefs("claude-sonnet-4-5", OFFERED)).toEqual(["anthropic/claude-sonnet-4"]);
    expect(nearModelRefs("GPT-4O", OFFERED)).toEqual(["openai/gpt-4o"]);
  });

  it("R-GW-3: short names need an exact family match, and far names get no suggestion", () => {
    expect(nearModelRefs("o3", OFFERED)).toEqual([]);
    expect(nearModelRefs("llama-3.3-70b", OFFERED)).toEqual([]);
  });

  it("R-GW-3: a snapshot tail is a date or `latest` and nothing else", () => {
    for (const tail of ["-20250514", "-2024-08-06", "-latest"]) expect(DATED_TAIL.test(tail)).toBe(true);
    for (const tail of ["-5-20250929", "-mini", "20250514"]) expect(DATED_TAIL.test(tail)).toBe(false);
  });
});
