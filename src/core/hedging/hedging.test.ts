import { describe, expect, it } from "vitest";
import { FirstTokenSamples, nearestRank } from "./first-token-samples.js";
import { HedgeBudget } from "./hedge-budget.js";
import { hedgeAfterMs, learnedFirstTokenDeadlineMs } from "./hedge-timing.js";
import { SilentRoutes } from "./silent-route.js";

function samplesOf(values: readonly number[]): FirstTokenSamples {
  const samples = new FirstTokenSamples();
  for (const value of values) samples.record("openai", "gpt-5", value);
  return samples;
}

describe("first-token samples", () => {
  it("R-HG-2 keeps a bounded sample per model, newest samples replacing the oldest", () => {
    const samples = new FirstTokenSamples({ perModel: 3, models: 2 });
    for (const value of [100, 200, 300, 400]) samples.record("openai", "gpt-5", value);
    expect(samples.stats("openai", "gpt-5")).toEqual({ count: 3, p50Ms: 300, p95Ms: 400, p99Ms: 400 });
    samples.record("anthropic", "claude", 50);
    samples.record("google", "gemini", 60);
    // Three models with room for two: the least recently recorded is forgotten.
    expect(samples.stats("openai", "gpt-5")).toBeUndefined();
    expect([...samples.models()].map((entry) => entry.model)).toEqual(["claude", "gemini"]);
  });

  it("R-HG-2 ignores times that are not a duration", () => {
    const samples = samplesOf([Number.NaN, -5, Number.POSITIVE_INFINITY]);
    expect(samples.stats("openai", "gpt-5")).toBeUndefined();
  });

  it.each([
    [[5], 0.5, 5],
    [[1, 2, 3, 4], 0.5, 2],
    [[1, 2, 3, 4], 0.95, 4],
    [Array.from({ length: 100 }, (_, index) => index + 1), 0.99, 99],
  ])("R-HG-2 nearest-rank percentile of %j at %d is %d", (values, fraction, expected) => {
    expect(nearestRank(values, fraction)).toBe(expected);
  });
});

describe("when to hedge", () => {
  it("R-HG-2 before 20 samples: min(5 s, deadline ÷ 3)", () => {
    expect(hedgeAfterMs({ stats: undefined, ttftDeadlineMs: 15_000 })).toBe(5_000);
    expect(hedgeAfterMs({ stats: undefined, ttftDeadlineMs: 60_000 })).toBe(5_000);
    expect(hedgeAfterMs({ stats: undefined, ttftDeadlineMs: 6_000 })).toBe(2_000);
    const few = samplesOf(Array.from({ length: 19 }, () => 300)).stats("openai", "gpt-5");
    expect(hedgeAfterMs({ stats: few, ttftDeadlineMs: 15_000 })).toBe(5_000);
  });

  it("R-HG-2 from 20 samples: 1.5 × the model's p95, at least 1 s", () => {
    const steady = samplesOf(Array.from({ length: 20 }, (_, index) => 1_000 + index * 100)).stats("openai", "gpt-5");
    expect(steady?.p95Ms).toBe(2_800);
    expect(hedgeAfterMs({ stats: steady, ttftDeadlineMs: 15_000 })).toBe(4_200);
    const fast = samplesOf(Array.from({ length: 40 }, () => 200)).stats("openai", "gpt-5");
    expect(hedgeAfterMs({ stats: fast, ttftDeadlineMs: 15_000 })).toBe(1_000);
  });

  it("R-HG-2 a configured hedging.afterMs wins", () => {
    const fast = samplesOf(Array.from({ length: 40 }, () => 200)).stats("openai", "gpt-5");
    expect(hedgeAfterMs({ stats: fast, ttftDeadlineMs: 15_000, configuredAfterMs: 7_500 })).toBe(7_500);
  });
});

describe("learned first-token deadlines", () => {
  it("R-TT-1 keeps the static default until 50 samples", () => {
    const stats = samplesOf(Array.from({ length: 49 }, () => 40_000)).stats("openai", "gpt-5");
    expect(learnedFirstTokenDeadlineMs({ stats, staticDefaultMs: 15_000 })).toBe(15_000);
  });

  it("R-TT-1 a model whose healthy first token takes 40 s is not cut at 15 s: 2 × p99", () => {
    const stats = samplesOf(Array.from({ length: 60 }, (_, index) => 30_000 + index * 200)).stats("openai", "gpt-5");
    expect(stats?.p99Ms).toBe(41_800);
    expect(learnedFirstTokenDeadlineMs({ stats, staticDefaultMs: 15_000 })).toBe(83_600);
  });

  it.each([
    ["never below the static default", 500, 15_000, 15_000],
    ["never above 180 s", 150_000, 15_000, 180_000],
    ["a reasoning model's 60 s stays the floor", 5_000, 60_000, 60_000],
  ])("R-TT-1 %s", (_title, typical, staticDefaultMs, expected) => {
    const stats = samplesOf(Array.from({ length: 50 }, () => typical)).stats("openai", "gpt-5");
    expect(learnedFirstTokenDeadlineMs({ stats, staticDefaultMs })).toBe(expected);
  });

  it("R-TT-1 a configured ttftTimeoutSeconds wins over what was learned", () => {
    const stats = samplesOf(Array.from({ length: 50 }, () => 40_000)).stats("openai", "gpt-5");
    expect(learnedFirstTokenDeadlineMs({ stats, staticDefaultMs: 15_000, configuredMs: 20_000 })).toBe(20_000);
  });
});

describe("hedge budget", () => {
  it("R-HG-3 starts full with the burst, so a quiet gateway hedges its first slow requests", () => {
    const budget = new HedgeBudget({ budgetPercent: 10, burst: 3 });
    expect([budget.tryHedge("openai"), budget.tryHedge("openai"), budget.tryHedge("openai"), budget.tryHedge("openai")]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    // Another provider has its own bucket.
    expect(budget.tryHedge("anthropic")).toBe(true);
  });

  it("R-HG-3 during a full outage hedges stay within budgetPercent of the provider's requests (plus the burst)", () => {
    const budget = new HedgeBudget({ budgetPercent: 10, burst: 3 });
    let hedges = 0;
    const requests = 1_000;
    for (let index = 0; index < requests; index += 1) {
      budget.noteRequest("openai");
      if (budget.tryHedge("openai")) hedges += 1;
    }
    expect(hedges).toBeLessThanOrEqual(requests * 0.1 + 3);
    expect(hedges).toBeGreaterThanOrEqual(requests * 0.1 - 1);
  });

  it("R-HG-3 refills with requests, never beyond the burst", () => {
    const budget = new HedgeBudget({ budgetPercent: 50, burst: 2 });
    for (let index = 0; index < 100; index += 1) budget.noteRequest("openai");
    expect(budget.available("openai")).toBe(2);
    expect(budget.tryHedge("openai")).toBe(true);
    expect(budget.tryHedge("openai")).toBe(true);
    expect(budget.tryHedge("openai")).toBe(false);
    budget.noteRequest("openai");
    budget.noteRequest("openai");
    expect(budget.tryHedge("openai")).toBe(true);
  });
});

describe("silent routes", () => {
  it("R-HG-4 two byte-less hedge losses in a row make a route silent: recorded once", () => {
    const routes = new SilentRoutes();
    expect(routes.noteLost("openai:a", "gpt-5", false)).toBe(false);
    expect(routes.noteLost("openai:a", "gpt-5", false)).toBe(true);
    // Counted again from zero after it was recorded.
    expect(routes.noteLost("openai:a", "gpt-5", false)).toBe(false);
  });

  it("R-HG-4 a loss with bytes, a win or another model breaks the row", () => {
    const routes = new SilentRoutes();
    expect(routes.noteLost("openai:a", "gpt-5", false)).toBe(false);
    expect(routes.noteLost("openai:a", "gpt-5", true)).toBe(false);
    expect(routes.noteLost("openai:a", "gpt-5", false)).toBe(false);
    routes.noteHeard("openai:a", "gpt-5");
    expect(routes.noteLost("openai:a", "gpt-5", false)).toBe(false);
    expect(routes.noteLost("openai:a", "gpt-5-mini", false)).toBe(false);
    expect(routes.noteLost("openai:a", "gpt-5", false)).toBe(true);
  });
});
