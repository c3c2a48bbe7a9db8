/**
 * The library reads model names like the gateway, the CLI and the config do (R-GW-3): a bare name is the
 * one `provider/model` that offers it, else a `ModelNameError` listing the candidates or the closest
 * names — never silently the primary's provider. A `provider/model` in `run`/`runWith` stays as written,
 * since a caller's own `attempt` may call a provider the config does not know; a session choice must be
 * callable on later turns, so `sessions.patch` also refuses unknown providers.
 */
import { modelAliases, requireModelName, type DetourConfig } from "../config/index.js";
import { parseModelRef } from "../core/candidate-chain.js";
import { ModelSelectionError } from "../core/errors.js";
import type { ModelRef } from "../core/types.js";

interface NamedModels {
  model?: string;
  fallbacks?: readonly string[] | "none";
}

function resolveBare(config: DetourConfig, text: string, origin: string): string {
  return text.includes("/") ? text : requireModelName(config, modelAliases(config), text, origin);
}

export function resolveBareRunModels<T extends NamedModels>(config: DetourConfig, run: T): T {
  const model = run.model !== undefined ? resolveBare(config, run.model, "model") : undefined;
  const fallbacks = Array.isArray(run.fallbacks)
    ? run.fallbacks.map((entry: string, index: number) => resolveBare(config, entry, `fallbacks[${index}]`))
    : run.fallbacks;
  return {
    ...run,
    ...(model !== undefined ? { model } : {}),
    ...(fallbacks !== undefined ? { fallbacks } : {}),
  };
}

export function resolveSessionModel(config: DetourConfig, text: string): ModelRef {
  const ref = parseModelRef(requireModelName(config, modelAliases(config), text, "sessions.patch model"));
  if (!ref) throw new ModelSelectionError({ input: text, origin: "sessions.patch model" });
  return ref;
}
