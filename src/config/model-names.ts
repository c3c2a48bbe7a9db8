/**
 * What a model text a person typed means (SPEC R-GW-3, R-CH-1): an alias, a `provider/model` of a known
 * provider, or a bare model name that exactly one known provider offers. One resolver for the config, the
 * CLI's `--model`, `/model`, `sessions patch`, the admin API and the gateway's `model` field, so a bare name
 * can never silently go to the primary's provider in one place and be rejected in another.
 *
 * Bare names are looked up in tiers, first tier with a match wins: the models the config itself names
 * (chains, allowlist, declarations), then the catalogue of providers the config uses, then the catalogue of
 * every known provider. Two providers in the winning tier make the name ambiguous: rejected with both.
 */
import { catalogueModelIds } from "../catalogue/model-catalogue.js";
import { DetourError, ERROR_CODES } from "../core/errors.js";
import { agentSettings } from "./agent-settings.js";
import { BUILT_IN_PROVIDERS } from "./provider-defaults.js";
import type { DetourConfig } from "./schema.js";

export type ModelNameResolution =
  | { ok: true; ref: string }
  | { ok: false; message: string; candidates: readonly string[] };

/** Built-in providers plus every `models.providers` entry, sorted. */
export function knownProviderIds(config: DetourConfig): string[] {
  return [...new Set([...Object.keys(BUILT_IN_PROVIDERS), ...Object.keys(config.models.providers)])].sort();
}

export function isKnownProvider(config: DetourConfig, provider: string): boolean {
  return Object.hasOwn(BUILT_IN_PROVIDERS, provider) || Object.hasOwn(config.models.providers, provider);
}

export function unknownProviderMessage(provider: string, known: readonly string[]): string {
  return `unknown provider "${provider}"; known providers: ${known.join(", ")} (add models.providers.${provider} to use another)`;
}

/** Every `provider/model` the config names. */
export function configuredModelRefs(config: DetourConfig): string[] {
  const defaults = config.agents.defaults;
  const refs = [
    defaults.model.primary,
    ...defaults.model.fallbacks,
    defaults.heartbeat.model,
    ...Object.keys(defaults.models),
    ...config.agents.list.flatMap((agent) => {
      const settings = agentSettings(config, agent.id);
      return [settings.model?.primary, ...(settings.model?.fallbacks ?? []), settings.heartbeatModel];
    }),
    ...Object.entries(config.models.providers).flatMap(([provider, settings]) =>
      (settings.models ?? []).map((model) => `${provider}/${model.id}`),
    ),
  ];
  return [...new Set(refs.filter((ref): ref is string => typeof ref === "string" && ref.includes("/")))];
}

const DATED_SUFFIX = /^\d{4}-?\d{2}-?\d{2}$|^\d{8}$|^latest$/;

/** The catalogue lists `model` at `provider`, exactly or as a dated snapshot (`claude-sonnet-4-20250514`). */
function catalogueOffers(provider: string, model: string): boolean {
  return catalogueModelIds(provider).some(
    (id) => id === model || (id.startsWith(`${model}-`) && DATED_SUFFIX.test(id.slice(model.length + 1))),
  );
}

/**
 * Providers that share another's catalogue as a subscription twin (ChatGPT/Codex logins): a bare name means
 * the API provider, unless the config itself names the twin's model.
 */
const CATALOGUE_TWINS: Readonly<Record<string, string>> = { "openai-codex": "openai" };

/** `provider/name` for each of `providers` whose catalogue offers `name` (a twin yields to its original). */
export function catalogueCandidates(providers: readonly string[], name: string): string[] {
  const offering = providers.filter((provider) => catalogueOffers(provider, name));
  return offering
    .filter((provider) => {
      const original = Object.hasOwn(CATALOGUE_TWINS, provider) ? CATALOGUE_TWINS[provider] : undefined;
      return original === undefined || !offering.includes(original);
    })
    .map((provider) => `${provider}/${name}`);
}

function providersOf(refs: readonly string[]): string[] {
  return [...new Set(refs.map((ref) => ref.slice(0, ref.indexOf("/"))))];
}

function aliasTarget(aliases: Readonly<Record<string, string>>, text: string): string | undefined {
  const lower = text.toLowerCase();
  const match = Object.entries(aliases).find(([alias]) => alias.trim().toLowerCase() === lower);
  return match?.[1];
}

function resolveBareName(config: DetourConfig, name: string): ModelNameResolution {
  const configured = configuredModelRefs(config).filter((ref) => ref.slice(ref.indexOf("/") + 1) === name);
  const usedProviders = new Set([...providersOf(configuredModelRefs(config)), ...Object.keys(config.models.providers)]);
  const known = knownProviderIds(config);
  const tiers = [
    configured,
    catalogueCandidates(known.filter((provider) => usedProviders.has(provider)), name),
    catalogueCandidates(known, name),
  ];
  for (const tier of tiers) {
    const candidates = [...new Set(tier)];
    if (candidates.length === 1) return { ok: true, ref: candidates[0]! };
    if (candidates.length > 1) {
      return {
        ok: false,
        candidates,
        message: `model "${name}" is offered by several providers (${candidates.join(", ")}); write one of them as provider/model`,
      };
    }
  }
  return {
    ok: false,
    candidates: [],
    message:
      `model "${name}" is not an alias and no known provider offers it; write it as provider/model ` +
      `(known providers: ${known.join(", ")})`,
  };
}

/**
 * Resolves what a person typed into a `provider/model` of a known provider, or says why not (the message
 * names the known providers or the candidates).
 */
export function resolveModelName(
  config: DetourConfig,
  aliases: Readonly<Record<string, string>>,
  text: string,
): ModelNameResolution {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, candidates: [], message: "a model name is empty" };
  const target = aliasTarget(aliases, trimmed) ?? trimmed;
  const slash = target.indexOf("/");
  if (slash === -1) return resolveBareName(config, target);
  if (slash === 0 || slash === target.length - 1) {
    return { ok: false, candidates: [], message: `"${target}" is not a model reference: expected "provider/model"` };
  }
  const provider = target.slice(0, slash);
  if (!isKnownProvider(config, provider)) {
    return { ok: false, candidates: [], message: unknownProviderMessage(provider, knownProviderIds(config)) };
  }
  return { ok: true, ref: target };
}

/** A model text that names no usable model; `origin` says where it came from (`--model`, `/model`, …). */
export class ModelNameError extends DetourError {
  readonly code = ERROR_CODES.modelSelection;
  readonly input: string;
  readonly origin: string;
  readonly candidates: readonly string[];

  constructor(details: { input: string; origin: string; reason: string; candidates: readonly string[] }) {
    super(`Cannot use model ${JSON.stringify(details.input)} (${details.origin}): ${details.reason}.`);
    this.input = details.input;
    this.origin = details.origin;
    this.candidates = details.candidates;
  }
}

/** `resolveModelName`, throwing a `ModelNameError` naming `origin` when the text names no usable model. */
export function requireModelName(
  config: DetourConfig,
  aliases: Readonly<Record<string, string>>,
  text: string,
  origin: string,
): string {
  const resolution = resolveModelName(config, aliases, text);
  if (resolution.ok) return resolution.ref;
  throw new ModelNameError({ input: text, origin, reason: resolution.message, candidates: resolution.candidates });
}
