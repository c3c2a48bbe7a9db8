/** Resolves the config into the plain settings the runner takes (the runner imports no config). */
import { describeModel } from "../catalogue/model-catalogue.js";
import type { DetourConfig } from "../config/index.js";
import { modelDeclaration, resolveCooldownSettings, resolveProviderSettings } from "../config/index.js";
import { DEFAULT_MODEL_FAILOVER, DEFAULT_PROVIDER_TIMEOUT_SECONDS } from "../config/defaults.js";
import type { RunnerSettings } from "../runner/runner-deps.js";

export function runnerSettingsFromConfig(config: DetourConfig): RunnerSettings {
  const failover = config.agents.defaults.modelFailover;
  const providerCache = new Map<string, ReturnType<typeof resolveProviderSettings>>();
  const provider = (id: string) => {
    if (!providerCache.has(id)) providerCache.set(id, resolveProviderSettings(config, id));
    return providerCache.get(id);
  };
  return {
    cooldowns: resolveCooldownSettings(config),
    modelFailover: {
      retrySameProfileOnTimeout: failover.retrySameProfileOnTimeout,
      retrySameProfileOnServerError: failover.retrySameProfileOnServerError,
      retryBackoffMs: [
        failover.retryBackoffMs[0] ?? DEFAULT_MODEL_FAILOVER.retryBackoffMs[0],
        failover.retryBackoffMs[1] ?? DEFAULT_MODEL_FAILOVER.retryBackoffMs[1],
      ],
      shortWaitSeconds: failover.shortWaitSeconds,
      waitForCooldownMaxSeconds: failover.waitForCooldownMaxSeconds,
    },
    // An unknown provider (neither built in nor configured) records like any other.
    providerRecordsCooldowns: (id) => provider(id)?.cooldowns ?? true,
    attemptTimeoutMs: (id) => (provider(id)?.timeoutSeconds ?? DEFAULT_PROVIDER_TIMEOUT_SECONDS) * 1000,
    runTimeoutMs: config.agents.defaults.timeoutSeconds * 1000,
    // Config declarations win over the catalogue (R-FB-5, R-FB-8).
    modelFacts: (ref) => describeModel(ref.provider, ref.model, modelDeclaration(config, ref.provider, ref.model)),
    headroom: { minRemaining: config.auth.headroom.minRemaining, strategy: config.auth.headroom.strategy },
    streamStallMs: config.gateway.streamStallSeconds * 1000,
  };
}
