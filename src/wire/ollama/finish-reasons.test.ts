import { describe, expect, it } from "vitest";
import { mapOllamaFinishReason, OLLAMA_FINISH_REASONS } from "./finish-reasons.js";

const rows = [
  ["stop", "stop"],
  ["length", "length"],
  ["load", "stop"],
  ["unload", "stop"],
] as const;

describe("mapOllamaFinishReason", () => {
  it.each(rows)("%s → %s", (raw, expected) => {
    expect(mapOllamaFinishReason(raw)).toBe(expected);
  });

  it("every table row has a test row, and unknown values mean stop", () => {
    expect(Object.keys(OLLAMA_FINISH_REASONS).sort()).toEqual(rows.map(([raw]) => raw).sort());
    expect(mapOllamaFinishReason("something")).toBe("stop");
  });
});
