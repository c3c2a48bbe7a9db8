/**
 * The models a gateway request names (`model`, `x-detour-fallbacks`) resolved before the engine sees them
 * (R-GW-3): an alias or a bare name becomes the one `provider/model` it means, an unknown provider or an
 * ambiguous name is a 400 listing what would work — never silently the primary's provider.
 */
import { modelAliases, requireModelName, type DetourConfig } from "../config/index.js";

/** What both lanes' run options share: the models a request names. */
interface NamedModels {
  model?: string;
  fallbacks?: readonly string[] | "none";
}

export function resolveRunModels<T extends NamedModels>(config: DetourConfig, options: T): T {
  const aliases = modelAliases(config);
  const model = options.model !== undefined ? requireModelName(config, aliases, options.model, "model") : undefined;
  const fallbacks = Array.isArray(options.fallbacks)
    ? options.fallbacks.map((entry) => requireModelName(config, aliases, entry, "x-detour-fallbacks"))
    : options.fallbacks;
  return {
    ...options,
    ...(model !== undefined ? { model } : {}),
    ...(fallbacks !== undefined ? { fallbacks } : {}),
  };
}
