/**
 * What a model text a person typed means (SPEC R-GW-3, R-CH-1): an alias, a `provider/model` of a known
 * provider, or a bare model name that exactly one known provider offers. One resolver for the config, the
 * CLI's `--model`, `/model`, `sessions patch`, the admin API and the gateway's `model` field, so a bare name
 * can never silently go to the primary's provider in one place and be rejected in another.
 *
 * Bare names are looked up in tiers, first tier with a match wins: the models the config itself names
 * (chains, heartbeats, cron payloads, allowlist, declarations), then the catalogue of providers the config
 * uses, then the catalogue of every known provider; a dated snapshot and its undated name find each other.
 * Two providers in the winning tier make the name ambiguous: rejected with both. A name nobody offers is
 * rejected with the closest offered names.
 */
import { catalogueModelIds } from "../catalogue/model-catalogue.js";
import { ModelSelectionError } from "../core/errors.js";
import { declaredModelRefs, visitModelRefs } from "./model-ref-paths.js";
import { isProviderModelRef } from "./model-ref-syntax.js";
import { DATED_TAIL, nearModelRefs } from "./model-suggestions.js";
import { closestKnownKey } from "./key-distance.js";
import { BUILT_IN_PROVIDERS } from "./provider-defaults.js";
import type { DetourConfig } from "./schema.js";

export type ModelNameResolution = { ok: true; ref: string } | { ok: false; message: string; candidates: readonly string[] };

/**
 * What resolving a name needs to know about a config: its aliases, the providers it may name, the
 * `provider/model` references it names itself and the providers it uses. Built from a parsed config or,
 * defensively, from a raw file being validated — one resolver for both, so `config check` and a running
 * gateway read a name the same way.
 */
export interface ModelNaming {
  readonly aliases: Readonly<Record<string, string>>;
  readonly knownProviders: readonly string[];
  readonly configuredRefs: readonly string[];
  readonly usedProviders: ReadonlySet<string>;
}

function providerIdsOf(config: unknown): string[] {
  const models = typeof config === "object" && config !== null ? (config as { models?: unknown }).models : undefined;
  const providers = typeof models === "object" && models !== null ? (models as { providers?: unknown }).providers : undefined;
  return typeof providers === "object" && providers !== null && !Array.isArray(providers) ? Object.keys(providers) : [];
}

function providerOf(ref: string): string {
  return ref.slice(0, ref.indexOf("/"));
}

function modelOf(ref: string): string {
  return ref.slice(ref.indexOf("/") + 1);
}

type ConfigNaming = Omit<ModelNaming, "aliases">;

/** A loaded config is frozen, so what it names is read once per config, not on every request. */
const namingOfLoadedConfig = new WeakMap<object, ConfigNaming>();

export function modelNaming(config: unknown, aliases: Readonly<Record<string, string>>): ModelNaming {
  const frozen = typeof config === "object" && config !== null && Object.isFrozen(config);
  let naming = frozen ? namingOfLoadedConfig.get(config) : undefined;
  if (!naming) {
    naming = readConfigNaming(config);
    if (frozen) namingOfLoadedConfig.set(config as object, naming);
  }
  return { ...naming, aliases };
}

function readConfigNaming(config: unknown): ConfigNaming {
  const configuredProviders = providerIdsOf(config);
  const refs: string[] = [];
  visitModelRefs(config, (value) => {
    if (typeof value === "string" && isProviderModelRef(value)) refs.push(value);
  });
  refs.push(...declaredModelRefs(config).filter(isProviderModelRef));
  const configuredRefs = [...new Set(refs)];
  return {
    knownProviders: [...new Set([...Object.keys(BUILT_IN_PROVIDERS), ...configuredProviders])].sort(),
    configuredRefs,
    usedProviders: new Set([...configuredRefs.map(providerOf), ...configuredProviders]),
  };
}

/** Built-in providers plus every `models.providers` entry, sorted. */
export function knownProviderIds(config: DetourConfig): string[] {
  return [...new Set([...Object.keys(BUILT_IN_PROVIDERS), ...Object.keys(config.models.providers)])].sort();
}

export function isKnownProvider(config: DetourConfig, provider: string): boolean {
  return Object.hasOwn(BUILT_IN_PROVIDERS, provider) || Object.hasOwn(config.models.providers, provider);
}

/** The known provider id `provider` is most likely a typo of (`anthropc` → `anthropic`). */
export function nearProviderId(provider: string, known: readonly string[]): string | undefined {
  return closestKnownKey(provider, known);
}

/** `model` is the rest of the reference, so the suggestion is the whole `provider/model` that was meant. */
export function unknownProviderMessage(provider: string, known: readonly string[], model?: string): string {
  const near = nearProviderId(provider, known);
  const hint = near === undefined ? "" : `did you mean "${model === undefined ? near : `${near}/${model}`}"? `;
  return `unknown provider "${provider}"; ${hint}known providers: ${known.join(", ")} (add models.providers.${provider} to use another)`;
}

/** Every `provider/model` the config names: chains, heartbeats, cron payloads, the allowlist, declarations. */
export function configuredModelRefs(config: DetourConfig): string[] {
  return [...modelNaming(config, {}).configuredRefs];
}

/** `offered` names `name`: the same id, or one is a dated snapshot of the other (`claude-sonnet-4-20250514`). */
function sameModelName(offered: string, name: string): boolean {
  if (offered === name) return true;
  const [longer, shorter] = offered.length > name.length ? [offered, name] : [name, offered];
  return longer.startsWith(`${shorter}-`) && DATED_TAIL.test(longer.slice(shorter.length));
}

/** The catalogue lists `model` at `provider`, exactly or as a dated snapshot either way round. */
function catalogueOffers(provider: string, model: string): boolean {
  return catalogueModelIds(provider).some((id) => sameModelName(id, model));
}

/**
 * Providers that share another's catalogue as a subscription twin (ChatGPT/Codex logins): a bare name means
 * the API provider, unless the config itself names the twin's model.
 */
const CATALOGUE_TWINS: Readonly<Record<string, string>> = { "openai-codex": "openai" };

/** Drops `twin/model` where `original/model` is there too. */
function withoutTwins(refs: readonly string[]): string[] {
  return refs.filter((ref) => {
    const provider = providerOf(ref);
    const original = Object.hasOwn(CATALOGUE_TWINS, provider) ? CATALOGUE_TWINS[provider] : undefined;
    return original === undefined || !refs.includes(`${original}/${modelOf(ref)}`);
  });
}

/** `provider/name` for each of `providers` whose catalogue offers `name` (a twin yields to its original). */
function catalogueCandidates(providers: readonly string[], name: string): string[] {
  return withoutTwins(providers.filter((provider) => catalogueOffers(provider, name)).map((provider) => `${provider}/${name}`));
}

/** The alias `text` names (aliases match case-insensitively), as its `provider/model` target. */
export function aliasTarget(aliases: Readonly<Record<string, string>>, text: string): string | undefined {
  const lower = text.trim().toLowerCase();
  const match = Object.entries(aliases).find(([alias]) => alias.trim().toLowerCase() === lower);
  return match?.[1];
}

function unknownNameMessage(naming: ModelNaming, name: string): string {
  const offered = [
    // A configured reference of an unknown provider is offered as the known provider it is a typo of.
    ...naming.configuredRefs.flatMap((ref) => {
      if (naming.knownProviders.includes(providerOf(ref))) return [ref];
      const near = nearProviderId(providerOf(ref), naming.knownProviders);
      return near === undefined ? [] : [`${near}/${modelOf(ref)}`];
    }),
    ...naming.knownProviders.flatMap((provider) => catalogueModelIds(provider).map((id) => `${provider}/${id}`)),
  ];
  const near = withoutTwins(nearModelRefs(name, offered, 6)).slice(0, 3);
  const hint = near.length > 0 ? `did you mean ${near.map((ref) => `"${ref}"`).join(" or ")}? ` : "";
  return (
    `model "${name}" is not an alias and no known provider offers it; ${hint}write it as provider/model ` +
    `(known providers: ${naming.knownProviders.join(", ")})`
  );
}

/**
 * A bare name, in tiers (the first tier with a match wins): the models the config names itself, then the
 * catalogue of the providers the config uses, then the catalogue of every known provider. Two providers in
 * the winning tier make the name ambiguous.
 */
function resolveBareName(naming: ModelNaming, name: string): ModelNameResolution {
  const configured = naming.configuredRefs
    .filter((ref) => naming.knownProviders.includes(providerOf(ref)) && sameModelName(modelOf(ref), name))
    .map((ref) => `${providerOf(ref)}/${name}`);
  const known = naming.knownProviders;
  const tiers = [
    configured,
    catalogueCandidates(
      known.filter((provider) => naming.usedProviders.has(provider)),
      name,
    ),
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
  return { ok: false, candidates: [], message: unknownNameMessage(naming, name) };
}

/** `resolveModelName` over a prepared naming context (config validation builds one from the raw file). */
export function resolveModelNameWith(naming: ModelNaming, text: string): ModelNameResolution {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, candidates: [], message: "a model name is empty" };
  const target = aliasTarget(naming.aliases, trimmed) ?? trimmed;
  const slash = target.indexOf("/");
  if (slash === -1) return resolveBareName(naming, target);
  if (slash === 0 || slash === target.length - 1) {
    return { ok: false, candidates: [], message: `"${target}" is not a model reference: expected "provider/model"` };
  }
  const provider = target.slice(0, slash);
  if (!naming.knownProviders.includes(provider)) {
    return { ok: false, candidates: [], message: unknownProviderMessage(provider, naming.knownProviders, target.slice(slash + 1)) };
  }
  return { ok: true, ref: target };
}

/**
 * Resolves what a person typed into a `provider/model` of a known provider, or says why not (the message
 * names the known providers or the candidates).
 */
export function resolveModelName(config: DetourConfig, aliases: Readonly<Record<string, string>>, text: string): ModelNameResolution {
  return resolveModelNameWith(modelNaming(config, aliases), text);
}

/**
 * A model text that names no usable model; `origin` says where it came from (`--model`, `/model`, …).
 * The same error as `ModelSelectionError` (one code, one doc row), with the names it could have meant.
 */
export class ModelNameError extends ModelSelectionError {
  declare readonly input: string;
  readonly candidates: readonly string[];

  constructor(details: { input: string; origin: string; reason: string; candidates: readonly string[] }) {
    super(details);
    this.candidates = details.candidates;
  }
}

/** `resolveModelName`, throwing a `ModelNameError` naming `origin` when the text names no usable model. */
export function requireModelName(config: DetourConfig, aliases: Readonly<Record<string, string>>, text: string, origin: string): string {
  const resolution = resolveModelName(config, aliases, text);
  if (resolution.ok) return resolution.ref;
  throw new ModelNameError({ input: text, origin, reason: resolution.message, candidates: resolution.candidates });
}
