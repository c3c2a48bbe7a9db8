/**
 * R-GW-7 at the gateway: every answer's usage becomes token metrics and, when the model's prices are known,
 * a cost — `detour_cost_usd_total`, the profile's 24-hour spend (the engine's `recordUsage`, best effort) and,
 * on non-streamed answers, `x-detour-cost-usd`. Streamed answers send their headers before the usage exists,
 * so their cost reaches the metric and the spend only.
 */
import type { CanonicalUsage } from "../ports/canonical.js";
import type { GatewayContext } from "./gateway-context.js";

export const COST_HEADER = "x-detour-cost-usd";

export interface AnsweredBy {
  agentId?: string;
  provider: string;
  model: string;
  profileId?: string;
  /** The run that answered, so its trace gets the tokens and the cost. */
  runId?: string;
}

/** Counts the tokens and prices them; returns the cost in US dollars, or undefined without prices. */
export function accountUsage(
  context: Pick<GatewayContext, "metrics" | "detour">,
  answered: AnsweredBy,
  usage: CanonicalUsage,
): number | undefined {
  context.metrics.observeTokens(answered.provider, answered.model, usage);
  const costUsd = context.detour.recordUsage?.({
    ...(answered.agentId !== undefined ? { agentId: answered.agentId } : {}),
    provider: answered.provider,
    model: answered.model,
    ...(answered.profileId !== undefined ? { profileId: answered.profileId } : {}),
    ...(answered.runId !== undefined ? { runId: answered.runId } : {}),
    usage,
  });
  if (costUsd !== undefined) context.metrics.observeCost(answered.provider, answered.model, costUsd);
  return costUsd;
}

/** Dollars as a plain decimal (no exponent), to a millionth of a cent. */
export function formatCostUsd(costUsd: number): string {
  return costUsd.toFixed(10).replace(/\.?0+$/, "") || "0";
}

export function costHeader(costUsd: number | undefined): Record<string, string> {
  return costUsd === undefined ? {} : { [COST_HEADER]: formatCostUsd(costUsd) };
}
