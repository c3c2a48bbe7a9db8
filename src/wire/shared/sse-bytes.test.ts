import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { includesBetween, indexOfBetween } from "./sse-bytes.js";

describe("indexOfBetween (bounded search on one event of a read)", () => {
  const read = Buffer.from('data: {"a":1}\n\ndata: {"error":{"message":"x"}}\n\n');
  const firstEnd = read.indexOf("\n\n") + 2;
  const key = Buffer.from('"error"');

  it("finds a needle inside the range, as an offset into the whole read", () => {
    expect(indexOfBetween(read, key, firstEnd, read.length)).toBe(read.indexOf(key));
  });

  it("does not see a needle of a later event: the range ends the search", () => {
    expect(indexOfBetween(read, key, 0, firstEnd)).toBe(-1);
    expect(includesBetween(read, key, 0, firstEnd)).toBe(false);
  });

  it("a needle that straddles the end of the range is not found; a range shorter than the needle is empty", () => {
    const at = read.indexOf(key);
    expect(indexOfBetween(read, key, 0, at + key.length - 1)).toBe(-1);
    expect(indexOfBetween(read, key, at, at + key.length)).toBe(at);
    expect(indexOfBetween(read, key, at, at + 2)).toBe(-1);
  });

  test.prop([fc.string({ unit: fc.constantFrom("a", "b", "\n", "é"), maxLength: 900 }), fc.nat(), fc.nat(), fc.constantFrom("ab", "b\n", "é", "aab")])(
    "equals a search of exactly the range, wherever the range ends in the read (short and long tails)",
    (text, first, second, needleText) => {
      const bytes = Buffer.from(text);
      const needle = Buffer.from(needleText);
      const [from, end] = [first % (bytes.length + 1), second % (bytes.length + 1)].sort((a, b) => a - b) as [number, number];
      const inRange = bytes.subarray(from, end).indexOf(needle);
      expect(indexOfBetween(bytes, needle, from, end)).toBe(inRange === -1 ? -1 : from + inRange);
    },
  );
});
