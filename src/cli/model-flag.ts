/**
 * `--model` on `detour run` and `detour sessions patch` is typed by a person, so a model the engine could
 * never call is bad input (exit 2) caught before any store is opened or provider called: text that resolves
 * to no `provider/model`, a provider that is neither built in nor configured, or a bare name that no known
 * provider offers or several do. Resolved by the resolver the config, `/model` and the gateway use (R-GW-3).
 */
import { knownProviderIds, modelAliases, resolveModelName, type DetourConfig } from "../config/index.js";
import type { ModelRef } from "../core/types.js";
import { CliUsageError } from "./output.js";

/** Providers a model may name: the built-in defaults plus `models.providers`. */
export function knownProviders(config: DetourConfig): string[] {
  return knownProviderIds(config);
}

/** Resolves `--model` to the one `provider/model` it means, or throws bad input naming the candidates. */
export function checkModelFlag(config: DetourConfig, text: string, _agentId: string, flag = "--model"): ModelRef {
  if (!/^\S+$/.test(text)) {
    throw new CliUsageError(
      `${flag} "${text}" is not a model: write "provider/model" (e.g. "openai/gpt-4o-mini") or use an alias ` +
        "from agents.defaults.models.",
    );
  }
  const resolution = resolveModelName(config, modelAliases(config), text);
  if (!resolution.ok) throw new CliUsageError(`${flag} "${text}": ${resolution.message}.`);
  const slash = resolution.ref.indexOf("/");
  return { provider: resolution.ref.slice(0, slash), model: resolution.ref.slice(slash + 1) };
}

/** `provider/model` text of a checked flag. */
export function checkedModelText(config: DetourConfig, text: string, agentId: string, flag = "--model"): string {
  const ref = checkModelFlag(config, text, agentId, flag);
  return `${ref.provider}/${ref.model}`;
}
