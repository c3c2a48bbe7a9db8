/**
 * `--model` on `detour run` and `detour sessions patch` is typed by a person, so a model the engine could
 * never call is bad input (exit 2) caught before any store is opened or provider called: text that resolves
 * to no `provider/model`, or a provider that is neither built in nor configured.
 */
import { BUILT_IN_PROVIDERS, agentSettings, modelAliases, type DetourConfig } from "../config/index.js";
import { resolveModelRef } from "../core/candidate-chain.js";
import type { ModelRef } from "../core/types.js";
import { CliUsageError } from "./output.js";

/** Providers a model may name: the built-in defaults plus `models.providers`. */
export function knownProviders(config: DetourConfig): string[] {
  return [...new Set([...Object.keys(BUILT_IN_PROVIDERS), ...Object.keys(config.models.providers)])].sort();
}

/** Resolves `--model` as the engine will (aliases first, a bare id under the agent's primary provider). */
export function checkModelFlag(config: DetourConfig, text: string, agentId: string, flag = "--model"): ModelRef {
  const aliases = modelAliases(config);
  const primary = agentSettings(config, agentId).model?.primary ?? config.agents.defaults.model.primary;
  const defaultProvider = primary !== undefined ? resolveModelRef(primary, { aliases })?.provider : undefined;
  const ref = /^\S+$/.test(text) ? resolveModelRef(text, { aliases, defaultProvider }) : undefined;
  if (!ref) {
    throw new CliUsageError(
      `${flag} "${text}" is not a model: write "provider/model" (e.g. "openai/gpt-4o-mini") or use an alias ` +
        "from agents.defaults.models.",
    );
  }
  const known = knownProviders(config);
  if (!known.includes(ref.provider)) {
    throw new CliUsageError(
      `${flag} "${text}": no provider "${ref.provider}" is built in or configured (known: ${known.join(", ")}). ` +
        `Add models.providers.${ref.provider} (api, baseUrl) to detour.json5, or pick a known provider.`,
    );
  }
  return ref;
}
