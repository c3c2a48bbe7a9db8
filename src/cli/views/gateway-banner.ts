/**
 * What `detour gateway` prints when it starts, for the person who started it: where clients connect, which
 * config file it read, each agent's model chain, where state is kept, what it found in the environment, and —
 * when no chain is configured — exactly what to write so `"model": "detour"` works.
 */
import type { DetourConfig } from "../../config/index.js";
import { agentSettings } from "../../config/index.js";
import { redactUrl, sqliteStatePath, type CredentialDiscovery } from "../../engine/index.js";

/** A model worth starting with for each provider whose key the environment holds (all in the catalogue). */
export const STARTER_MODELS: Readonly<Record<string, string>> = Object.freeze({
  openai: "openai/gpt-5",
  anthropic: "anthropic/claude-sonnet-4-6",
  google: "google/gemini-2.5-pro",
  openrouter: "openrouter/openai/gpt-5",
});

export interface GatewayBannerInput {
  url: string;
  config: DetourConfig;
  /** The config file read at start; absent when none was found. */
  configFile?: string;
  detourHome: string;
  discovery: CredentialDiscovery;
  cronJobs: ReadonlyArray<{ id: string; nextRun?: string | null }>;
  /** Which Host names and browser origins the gateway answers (describeAllowedClients). */
  allowed?: { hosts: string; origins: string };
}

const LABEL_WIDTH = 19;

function row(label: string, value: string): string {
  return `  ${`${label}:`.padEnd(LABEL_WIDTH)}${value}`;
}

/** One agent's chain as R-CH-2 builds it for a request that names no model. */
function chainOf(config: DetourConfig, agentId: string): string | undefined {
  const defaults = config.agents.defaults.model;
  const own = agentSettings(config, agentId).model;
  if (own) {
    const fallbacks = own.fallbacks ?? [];
    return [own.primary, ...fallbacks].join(" → ") + (fallbacks.length === 0 ? " (no fallback)" : "");
  }
  if (defaults.primary === undefined) return undefined;
  const chain = [defaults.primary, ...defaults.fallbacks.filter((model) => model !== defaults.primary)];
  return chain.join(" → ") + (chain.length === 1 ? " (no fallback)" : "");
}

function storeOf(config: DetourConfig, detourHome: string): string {
  const state = config.state;
  if (state.backend === "memory") return "in memory (nothing is kept after the gateway stops)";
  if (state.backend === "redis") {
    return `Redis ${state.redis?.url ? redactUrl(state.redis.url) : "(no url)"} (key prefix "${state.redis?.keyPrefix ?? "detour"}")`;
  }
  return `SQLite, one file per agent: ${sqliteStatePath(detourHome, "main")}`;
}

/** The models to suggest, from what discovery found: a key's provider first, then a local Ollama model. */
function suggestedChain(discovery: CredentialDiscovery): string[] {
  if (discovery.kind !== "discovered") return [];
  const fromKeys = [...new Set(discovery.envProfiles.map((found) => found.provider))].flatMap((provider) =>
    STARTER_MODELS[provider] ? [STARTER_MODELS[provider]] : [],
  );
  const ollama = discovery.ollama?.models[0];
  return ollama !== undefined ? [...fromKeys, `ollama/${ollama}`] : fromKeys;
}

/** The lines that say what to write when no agent has a chain, so `model: "detour"` cannot work yet. */
function noChainHint(discovery: CredentialDiscovery): string[] {
  const [primary, ...fallbacks] = suggestedChain(discovery);
  const example = primary ?? "openai/gpt-5";
  const snippet = `agents: { defaults: { model: { primary: "${example}"${
    fallbacks.length > 0 ? `, fallbacks: [${fallbacks.map((model) => `"${model}"`).join(", ")}]` : ""
  } } } }`;
  return [
    `  No model chain is configured, so "model": "detour" has nothing to run. Either name a model in each`,
    `  request ("model": "${example}"), or write this in detour.json5 (the gateway reloads it):`,
    `    ${snippet}`,
  ];
}

export function gatewayBanner(input: GatewayBannerInput): string[] {
  const { config, discovery, url } = input;
  const lines = [
    `Detour gateway listening on ${url}`,
    row("OpenAI clients", `base URL ${url}/v1`),
    row("Anthropic clients", `base URL ${url}`),
    row("Dashboard", `${url}/`),
    ...(input.allowed ? [row("Answers hosts", input.allowed.hosts), row("Browser origins", input.allowed.origins)] : []),
    row("Config file", input.configFile ?? "none found (./detour.json5 or $DETOUR_HOME/detour.json5); built-in defaults"),
    row("Store", storeOf(config, input.detourHome)),
  ];
  const agentIds = ["main", ...config.agents.list.map((agent) => agent.id).filter((id) => id !== "main")];
  const chains = agentIds.map((id) => ({ id, chain: chainOf(config, id) }));
  for (const { id, chain } of chains) {
    lines.push(row(id === "main" ? "Agent main" : `Agent ${id}`, chain ?? "no model chain"));
  }
  if (discovery.kind === "discovered") {
    for (const found of discovery.envProfiles) lines.push(row("Credential", `${found.profileId} from $${found.variable}`));
    if (discovery.ollama) lines.push(row("Credential", `the local Ollama at ${discovery.ollama.baseUrl} (no key)`));
  }
  if (chains[0]?.chain === undefined) lines.push(...noChainHint(discovery));
  for (const job of input.cronJobs) lines.push(row(`Cron job ${job.id}`, `next run ${job.nextRun ?? "never"}`));
  lines.push("Press Ctrl+C to stop.");
  return lines;
}
