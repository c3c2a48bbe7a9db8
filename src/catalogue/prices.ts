/**
 * R-GW-7: what one answer cost, from its usage and the model's prices (US dollars per million tokens).
 * Input counts include cache reads and writes (the canonical usage), and output counts include reasoning,
 * so each special kind is taken out of its total and priced on its own when the model has a price for it;
 * without one it costs what its total's kind costs.
 */
import type { ModelPrices } from "./model-catalogue.js";

/** The usage counts that are priced; the canonical usage has this shape. */
export interface PricedUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens?: number;
  readonly cacheWriteTokens?: number;
  readonly reasoningTokens?: number;
}

const PER_MILLION = 1_000_000;

function bounded(count: number | undefined, limit: number): number {
  return count !== undefined && Number.isFinite(count) && count > 0 ? Math.min(count, limit) : 0;
}

/** The cost in US dollars; never negative, whatever a provider reports. */
export function costOfUsage(usage: PricedUsage, prices: ModelPrices): number {
  const input = bounded(usage.inputTokens, Number.MAX_SAFE_INTEGER);
  const output = bounded(usage.outputTokens, Number.MAX_SAFE_INTEGER);
  const cacheRead = bounded(usage.cacheReadTokens, input);
  const cacheWrite = bounded(usage.cacheWriteTokens, input - cacheRead);
  const reasoning = bounded(usage.reasoningTokens, output);
  const micro =
    (input - cacheRead - cacheWrite) * prices.input +
    cacheRead * (prices.cacheRead ?? prices.input) +
    cacheWrite * (prices.cacheWrite ?? prices.input) +
    (output - reasoning) * prices.output +
    reasoning * (prices.reasoning ?? prices.output);
  return micro / PER_MILLION;
}
