import { describe, expect, it } from "vitest";
import { costOfUsage } from "./prices.js";

const PRICES = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, reasoning: 20 };

describe("costOfUsage", () => {
  it("R-GW-7: prices input and output per million tokens", () => {
    expect(costOfUsage({ inputTokens: 1_000_000, outputTokens: 2_000_000 }, { input: 3, output: 15 })).toBeCloseTo(33, 12);
    expect(costOfUsage({ inputTokens: 1234, outputTokens: 56 }, { input: 0.15, output: 0.6 })).toBeCloseTo(
      (1234 * 0.15 + 56 * 0.6) / 1e6,
      15,
    );
  });

  it("R-GW-7: cache reads, cache writes and reasoning are priced apart when the model has prices for them", () => {
    // 1000 input tokens of which 600 were read from and 300 written to the cache; 500 output, 200 reasoning.
    const usage = { inputTokens: 1000, outputTokens: 500, cacheReadTokens: 600, cacheWriteTokens: 300, reasoningTokens: 200 };
    const expected = (100 * 3 + 600 * 0.3 + 300 * 3.75 + 300 * 15 + 200 * 20) / 1e6;
    expect(costOfUsage(usage, PRICES)).toBeCloseTo(expected, 15);
  });

  it("R-GW-7: without a price for a special kind it costs what its total's kind costs", () => {
    const usage = { inputTokens: 1000, outputTokens: 500, cacheReadTokens: 600, cacheWriteTokens: 300, reasoningTokens: 200 };
    expect(costOfUsage(usage, { input: 3, output: 15 })).toBeCloseTo((1000 * 3 + 500 * 15) / 1e6, 15);
  });

  it("R-GW-7: inconsistent or negative counts never make a cost negative", () => {
    expect(costOfUsage({ inputTokens: 10, outputTokens: -5, cacheReadTokens: 50, reasoningTokens: 9 }, PRICES)).toBeCloseTo(
      (10 * 0.3) / 1e6,
      15,
    );
    expect(costOfUsage({ inputTokens: Number.NaN, outputTokens: 0 }, PRICES)).toBe(0);
  });
});
