/**
 * R-GW-8: metric label values come from the configuration, never from the request — a client naming a
 * thousand made-up models must not create a thousand time series. Providers are the known ones (built in
 * or configured), models the ones the config names for that provider; anything else is `other`.
 */
import { configuredModelRefs, knownProviderIds, type DetourConfig } from "../config/index.js";

export const OTHER_LABEL = "other";

export interface MetricLabels {
  provider(provider: string): string;
  model(provider: string, model: string): string;
  /** A `provider/model` text (fallback metrics). */
  modelRef(ref: string): string;
  agent(agentId: string): string;
}

/** Without a config (a bare GatewayMetrics in a test) labels pass through. */
export const PASS_THROUGH_LABELS: MetricLabels = {
  provider: (provider) => provider,
  model: (_provider, model) => model,
  modelRef: (ref) => ref,
  agent: (agentId) => agentId,
};

export function configuredMetricLabels(config: DetourConfig): MetricLabels {
  const providers = new Set(knownProviderIds(config));
  const refs = new Set(configuredModelRefs(config));
  const agents = new Set(["main", ...config.agents.list.map((agent) => agent.id)]);
  return {
    provider: (provider) => (providers.has(provider) ? provider : OTHER_LABEL),
    model: (provider, model) => (refs.has(`${provider}/${model}`) ? model : OTHER_LABEL),
    modelRef: (ref) => (refs.has(ref) ? ref : OTHER_LABEL),
    agent: (agentId) => (agents.has(agentId) ? agentId : OTHER_LABEL),
  };
}
