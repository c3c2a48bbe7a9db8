import { describe, expect, it } from "vitest";
import { seatLimitOf } from "./seat-limit.js";

const ROWS: [string, { maxConcurrent?: number } | undefined, { maxConcurrentPerProfile?: number } | undefined, number | undefined][] = [
  ["the profile's own limit wins over its provider's", { maxConcurrent: 2 }, { maxConcurrentPerProfile: 5 }, 2],
  ["a profile without one takes its provider's", {}, { maxConcurrentPerProfile: 5 }, 5],
  ["a profile only in the store (not in the config) takes its provider's", undefined, { maxConcurrentPerProfile: 3 }, 3],
  ["a profile's own limit holds when its provider sets none", { maxConcurrent: 1 }, undefined, 1],
  ["no limit anywhere means no seats are counted", {}, {}, undefined],
  ["no config at all means no seats are counted", undefined, undefined, undefined],
];

describe("seatLimitOf", () => {
  for (const [title, profile, provider, expected] of ROWS) {
    it(`R-PO-8 ${title}`, () => {
      expect(seatLimitOf(profile, provider)).toBe(expected);
    });
  }
});
