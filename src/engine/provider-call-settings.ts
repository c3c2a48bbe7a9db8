/** The HTTP settings of one provider from the config, for the endpoints called without a Provider object. */
import { resolveProviderSettings, type DetourConfig } from "../config/index.js";
import type { ProviderSettings } from "../providers/shared/provider-settings.js";
import { cloudSettingsOf } from "./cloud-settings.js";

export function providerCallSettings(config: DetourConfig, providerId: string): ProviderSettings | undefined {
  const resolved = resolveProviderSettings(config, providerId);
  if (!resolved) return undefined;
  return {
    id: providerId,
    api: resolved.api,
    baseUrl: resolved.baseUrl,
    headers: resolved.headers,
    timeoutSeconds: resolved.timeoutSeconds,
    ...cloudSettingsOf(resolved),
  };
}
