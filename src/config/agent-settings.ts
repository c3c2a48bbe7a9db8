/**
 * Read-side helpers the runner needs from a parsed config: an agent's model selection, the alias
 * table, and what the config declares about one model.
 */
import { DEFAULT_AGENT_ID } from "./defaults.js";
import type { ModelPrices } from "../catalogue/model-catalogue.js";
import type { DetourConfig } from "./schema.js";

export interface AgentModelSelection {
  readonly primary: string;
  /** Absent when the agent names no fallbacks of its own (its selection is then strict, R-CH-2). */
  readonly fallbacks?: readonly string[];
}

export interface AgentSettings {
  readonly id: string;
  /** The agent's own model from agents.list; undefined when it has none (the defaults apply). */
  readonly model?: AgentModelSelection;
  /** The agent's heartbeat model, else agents.defaults.heartbeat.model. */
  readonly heartbeatModel?: string;
  /** The agent has an entry in agents.list. */
  readonly listed: boolean;
}

export function agentSettings(config: DetourConfig, agentId: string = DEFAULT_AGENT_ID): AgentSettings {
  const entry = config.agents.list.find((agent) => agent.id === agentId);
  const written = entry?.model;
  const model: AgentModelSelection | undefined =
    written === undefined
      ? undefined
      : typeof written === "string"
        ? { primary: written }
        : { primary: written.primary, ...(written.fallbacks ? { fallbacks: written.fallbacks } : {}) };
  const heartbeatModel = entry?.heartbeat?.model ?? config.agents.defaults.heartbeat.model;
  return Object.freeze({
    id: agentId,
    ...(model ? { model: Object.freeze(model) } : {}),
    ...(heartbeatModel !== undefined ? { heartbeatModel } : {}),
    listed: entry !== undefined,
  });
}

/** alias → `provider/model`, from agents.defaults.models (aliases are unique, checked at load). */
export function modelAliases(config: DetourConfig): Readonly<Record<string, string>> {
  const aliases: Record<string, string> = {};
  for (const [ref, entry] of Object.entries(config.agents.defaults.models)) {
    if (entry.alias !== undefined) aliases[entry.alias] = ref;
  }
  return Object.freeze(aliases);
}

export interface ModelDeclaration {
  readonly contextWindow?: number;
  readonly maxTokens?: number;
  readonly supportsPrefill?: boolean;
  /** `models[].cost`: US dollars per million tokens (R-GW-7). */
  readonly prices?: ModelPrices;
  /** `models[].embeddingSpace`: which embedding models' vectors are interchangeable. */
  readonly embeddingSpace?: string;
}

/** What `models.providers.<provider>.models` declares about one model; empty when nothing. */
export function modelDeclaration(config: DetourConfig, provider: string, model: string): ModelDeclaration {
  const providerConfig = Object.hasOwn(config.models.providers, provider) ? config.models.providers[provider] : undefined;
  const declared = providerConfig?.models?.find((entry) => entry.id === model);
  if (!declared) return Object.freeze({});
  return Object.freeze({
    ...(declared.contextWindow !== undefined ? { contextWindow: declared.contextWindow } : {}),
    ...(declared.maxTokens !== undefined ? { maxTokens: declared.maxTokens } : {}),
    ...(declared.supportsPrefill !== undefined ? { supportsPrefill: declared.supportsPrefill } : {}),
    ...(declared.cost !== undefined ? { prices: Object.freeze({ ...declared.cost }) } : {}),
    ...(declared.embeddingSpace !== undefined ? { embeddingSpace: declared.embeddingSpace } : {}),
  });
}

/**
 * The configured models that share `provider/model`'s embedding space, in config order, the model itself
 * left out: the only models an embeddings request may fall back to (vectors of other spaces do not compare).
 * Empty when the model declares no space.
 */
export function sameEmbeddingSpace(config: DetourConfig, provider: string, model: string): string[] {
  const space = modelDeclaration(config, provider, model).embeddingSpace;
  if (space === undefined) return [];
  const refs: string[] = [];
  for (const [providerId, providerConfig] of Object.entries(config.models.providers)) {
    for (const declared of providerConfig.models ?? []) {
      if (declared.embeddingSpace !== space) continue;
      if (providerId === provider && declared.id === model) continue;
      refs.push(`${providerId}/${declared.id}`);
    }
  }
  return refs;
}
