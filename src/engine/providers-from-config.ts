/**
 * The providers a config can reach: every built-in provider plus every `models.providers` entry, each with
 * its effective settings (R-CF-3). Creating them opens no connection; a provider is only called when a
 * chain reaches it.
 */
import { BUILT_IN_PROVIDERS, resolveProviderSettings, type DetourConfig } from "../config/index.js";
import type { Provider } from "../ports/provider.js";
import { createProviderRegistry, type SharedProviderOptions } from "../providers/registry.js";
import type { ProviderSettings } from "../providers/shared/provider-settings.js";
import { cloudSettingsOf } from "./cloud-settings.js";

export function providersFromConfig(config: DetourConfig, shared: SharedProviderOptions = {}): Provider[] {
  const ids = new Set([...Object.keys(BUILT_IN_PROVIDERS), ...Object.keys(config.models.providers)]);
  const settingsById: Record<string, Omit<ProviderSettings, "id">> = {};
  for (const id of ids) {
    const resolved = resolveProviderSettings(config, id);
    if (!resolved) continue;
    settingsById[id] = {
      api: resolved.api,
      baseUrl: resolved.baseUrl,
      headers: resolved.headers,
      timeoutSeconds: resolved.timeoutSeconds,
      ...cloudSettingsOf(resolved),
    };
  }
  const registry = createProviderRegistry(settingsById, shared);
  return registry.ids().flatMap((id) => {
    const provider = registry.get(id);
    return provider ? [provider] : [];
  });
}
