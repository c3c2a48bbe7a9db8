/**
 * The engine setup shared by `detour run` and `detour gateway`: R-CF-5 discovery against the agent's store,
 * providers from the config (a discovered local Ollama supplies the `ollama` base URL unless the config sets
 * one), and the canonical runner over them.
 */
import type { DetourConfig } from "../config/index.js";
import type { Detour } from "../engine/create-detour.js";
import { discoverCredentials, type CredentialDiscovery } from "../engine/discover-credentials.js";
import { providersFromConfig } from "../engine/providers-from-config.js";
import { createHeadroomRecorder } from "../engine/headroom-recorder.js";
import { createCanonicalRunner, type CanonicalRunner } from "../engine/run-canonical.js";
import { systemClock } from "../ports/system-clock.js";

export interface PreparedRunner {
  discovery: CredentialDiscovery;
  runner: CanonicalRunner;
}

/** Points the built-in `ollama` provider at the discovered server, unless the user configured its URL. */
export function withDiscoveredOllama(config: DetourConfig, discovery: CredentialDiscovery): DetourConfig {
  if (discovery.kind !== "discovered" || !discovery.ollama) return config;
  const configured = Object.hasOwn(config.models.providers, "ollama") ? config.models.providers.ollama : undefined;
  if (configured?.baseUrl !== undefined) return config;
  const copy = structuredClone(config) as { models: { providers: Record<string, Record<string, unknown>> } };
  copy.models.providers.ollama = { ...configured, baseUrl: discovery.ollama.baseUrl };
  return copy as unknown as DetourConfig;
}

export async function prepareCanonicalRunner(
  detour: Detour,
  config: DetourConfig,
  options: { env: Readonly<Record<string, string | undefined>>; agentId?: string },
): Promise<PreparedRunner> {
  const discovery = await discoverCredentials({ config, store: await detour.store(options.agentId), env: options.env });
  const providers = new Map(providersFromConfig(withDiscoveredOllama(config, discovery)).map((provider) => [provider.id, provider]));
  const runner = createCanonicalRunner(detour, providers, {
    clock: systemClock,
    ttftTimeoutSeconds: config.gateway.ttftTimeoutSeconds,
    streamStallSeconds: config.gateway.streamStallSeconds,
    headroom: createHeadroomRecorder({ store: (agentId) => detour.store(agentId), clock: systemClock }),
  });
  return { discovery, runner };
}
