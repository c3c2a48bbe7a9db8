import { describe, expect, it } from "vitest";
import { formatDuration } from "./format-duration.js";

describe("formatDuration", () => {
  it.each([
    [0, "0s"],
    [1, "1s"],
    [30_000, "30s"],
    [59_001, "1m 0s"],
    [250_000, "4m 10s"],
    [5 * 3_600_000 - 1, "5h 0m"],
    [4 * 3_600_000 + 59 * 60_000, "4h 59m"],
  ])("%i ms reads %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
