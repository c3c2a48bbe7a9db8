import { describe, expect, it } from "vitest";
import { MetricLabelCache } from "./metric-label-cache.js";
import { PASS_THROUGH_LABELS, type MetricLabels } from "./metric-labels.js";

const CONFIGURED: MetricLabels = {
  ...PASS_THROUGH_LABELS,
  provider: (provider) => (provider === "openai" ? provider : "other"),
  model: (provider, model) => (provider === "openai" && model === "gpt-5" ? model : "other"),
};

describe("MetricLabelCache", () => {
  it("R-GW-8: hands out the same frozen label objects per pair, with the configured names or `other`", () => {
    const cache = new MetricLabelCache(CONFIGURED);
    const known = cache.of("openai", "gpt-5");
    expect(cache.of("openai", "gpt-5")).toBe(known);
    expect(known.pair).toEqual({ provider: "openai", model: "gpt-5" });
    expect(known.tokens.cache_read).toEqual({ provider: "openai", model: "gpt-5", kind: "cache_read" });
    expect(known.attempt("none")).toBe(known.attempt("none"));
    expect(known.attempt("rate_limit")).toEqual({ provider: "openai", model: "gpt-5", reason: "rate_limit" });
    expect(known.latency("succeeded")).toEqual({ provider: "openai", model: "gpt-5", outcome: "succeeded" });
    expect(Object.isFrozen(known.attempt("none"))).toBe(true);
    expect(cache.of("openai", "made-up").pair).toEqual({ provider: "openai", model: "other" });
    expect(cache.of("acme", "x").tokens.input).toEqual({ provider: "other", model: "other", kind: "input" });
  });

  it("R-GW-8: a client naming a thousand made-up models does not grow the cache past its bound", () => {
    const cache = new MetricLabelCache(CONFIGURED);
    const first = cache.of("openai", "gpt-5");
    for (let index = 0; index < 1000; index += 1) cache.of("openai", `made-up-${index}`);
    // The cache was dropped whole on reaching its bound: the pair is built again, with the same values.
    const again = cache.of("openai", "gpt-5");
    expect(again).not.toBe(first);
    expect(again.pair).toEqual(first.pair);
  });

  it("R-GW-8: new label values after a config reload replace what was built for the old ones", () => {
    const cache = new MetricLabelCache(PASS_THROUGH_LABELS);
    expect(cache.of("acme", "x").pair).toEqual({ provider: "acme", model: "x" });
    cache.use(CONFIGURED);
    expect(cache.of("acme", "x").pair).toEqual({ provider: "other", model: "other" });
  });
});
