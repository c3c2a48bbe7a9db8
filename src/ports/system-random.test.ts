import { describe, expect, it } from "vitest";
import { cryptoRandom } from "./system-random.js";

describe("cryptoRandom", () => {
  it("returns floats in [0, 1) that are not all the same", () => {
    const values = Array.from({ length: 1_000 }, () => cryptoRandom.next());
    for (const value of values) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
    expect(new Set(values).size).toBeGreaterThan(990);
  });
});
