/**
 * OpenClaw configs may declare providers on APIs Detour does not speak (e.g. `github-copilot`; its
 * `bedrock-converse-stream` is spoken, as `bedrock`). R-CF-1 says such a config must still load, so instead of rejecting the file the
 * provider entry is left out with a warning: a built-in provider of that id keeps its defaults, and models
 * of any other such provider fail over like an unreachable provider would.
 */
import { formatConfigPath } from "./config-path.js";
import { CLOUD_PROVIDER_API_IDS, PROVIDER_API_ALIASES, PROVIDER_API_IDS } from "./schema.js";

const SPOKEN_APIS: readonly string[] = [...PROVIDER_API_IDS, ...CLOUD_PROVIDER_API_IDS];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function dropUnsupportedProviderApis(raw: unknown): { value: unknown; warnings: string[] } {
  const models = isRecord(raw) ? raw.models : undefined;
  const providers = isRecord(models) ? models.providers : undefined;
  if (!isRecord(raw) || !isRecord(models) || !isRecord(providers)) return { value: raw, warnings: [] };

  const warnings: string[] = [];
  const kept: Record<string, unknown> = {};
  for (const [id, provider] of Object.entries(providers)) {
    const api = isRecord(provider) ? provider.api : undefined;
    if (typeof api === "string" && !SPOKEN_APIS.includes(api) && !Object.hasOwn(PROVIDER_API_ALIASES, api)) {
      warnings.push(
        `${formatConfigPath(["models", "providers", id, "api"])}: Detour does not speak "${api}" ` +
          `(it speaks ${SPOKEN_APIS.join(", ")}); this provider entry is ignored. ` +
          `Set api to one of those to use it.`,
      );
      continue;
    }
    kept[id] = provider;
  }
  if (warnings.length === 0) return { value: raw, warnings };
  return { value: { ...raw, models: { ...models, providers: kept } }, warnings };
}
