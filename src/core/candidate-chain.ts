/**
 * Model references and the candidate chain of one run (SPEC R-CH-1).
 *
 * The chain is the ordered list of models the fallback runner may try: the requested model first,
 * then either the caller's explicit list or the configured fallbacks, and — only when the caller gave
 * no explicit list — the configured primary as the last resort.
 */
import { ModelSelectionError } from "./errors.js";
import type { ModelRef } from "./types.js";

/** alias -> "provider/model" (built from `agents.defaults.models`). */
export type ModelAliases = Readonly<Record<string, string>>;

/**
 * Splits `provider/model`. Only the first `/` separates: model ids may contain slashes themselves
 * (`openrouter/meta-llama/llama-3.3-70b`). Provider ids are case-insensitive and stored lower-case;
 * model ids are kept as written because some providers treat them case-sensitively.
 * A bare model id takes `defaultProvider` when one is given, otherwise it does not parse.
 */
export function parseModelRef(text: string, defaultProvider?: string): ModelRef | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  const slash = trimmed.indexOf("/");
  if (slash === -1) {
    const provider = defaultProvider?.trim().toLowerCase();
    return provider ? { provider, model: trimmed } : undefined;
  }
  const provider = trimmed.slice(0, slash).trim().toLowerCase();
  const model = trimmed.slice(slash + 1).trim();
  if (provider === "" || model === "") return undefined;
  return { provider, model };
}

export function formatModelRef(ref: ModelRef): string {
  return `${ref.provider}/${ref.model}`;
}

export function sameModelRef(a: ModelRef, b: ModelRef): boolean {
  return a.provider === b.provider && a.model === b.model;
}

/**
 * Resolves what an operator or caller wrote into a model ref. Aliases win over everything (an alias
 * may look like a ref); then `provider/model`; then a bare model id that is the model of exactly one
 * alias target (`claude-sonnet-4-6` when `sonnet -> anthropic/claude-sonnet-4-6` is configured); then
 * a bare id under `defaultProvider`.
 */
export function resolveModelRef(text: string, options: { aliases?: ModelAliases; defaultProvider?: string } = {}): ModelRef | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  const aliasTargets = Object.entries(options.aliases ?? {}).flatMap(([alias, target]) => {
    const ref = parseModelRef(target);
    return ref ? [{ alias: alias.trim().toLowerCase(), ref }] : [];
  });

  const byAlias = aliasTargets.find((entry) => entry.alias === trimmed.toLowerCase());
  if (byAlias) return byAlias.ref;
  if (trimmed.includes("/")) return parseModelRef(trimmed);

  const byModelId = aliasTargets.filter((entry) => entry.ref.model === trimmed);
  const providers = new Set(byModelId.map((entry) => entry.ref.provider));
  if (providers.size === 1 && byModelId[0]) return byModelId[0].ref;

  return parseModelRef(trimmed, options.defaultProvider);
}

export interface CandidateChainInput {
  requested: string | ModelRef;
  /** The caller's explicit list. Present (even `[]`) = exactly these, no appended primary. */
  fallbacksOverride?: readonly string[];
  configuredFallbacks?: readonly string[];
  configuredPrimary?: string;
  aliases?: ModelAliases;
}

/**
 * Builds the chain of R-CH-1. Explicit fallbacks are never filtered by the model allowlist: they are
 * operator intent. An unresolvable entry throws instead of being dropped, so a typo in a list does not
 * silently shorten the chain.
 *
 * Bare model ids (no provider, no alias) in configured lists take the configured primary's provider;
 * in the requested model and the caller's own list they take the requested model's provider.
 */
export function buildCandidateChain(input: CandidateChainInput): ModelRef[] {
  const aliases = input.aliases;
  const primaryText = input.configuredPrimary;
  const configuredPrimary = primaryText === undefined ? undefined : resolveModelRef(primaryText, { aliases });

  const requested =
    typeof input.requested === "string"
      ? resolveModelRef(input.requested, { aliases, defaultProvider: configuredPrimary?.provider })
      : normalizeRef(input.requested);
  if (!requested) {
    throw new ModelSelectionError({ input: textOf(input.requested), origin: "requested model" });
  }

  const candidates: ModelRef[] = [requested];
  if (input.fallbacksOverride !== undefined) {
    candidates.push(...resolveList(input.fallbacksOverride, "fallbacks override", aliases, requested.provider));
  } else {
    const defaultProvider = configuredPrimary?.provider ?? requested.provider;
    candidates.push(...resolveList(input.configuredFallbacks ?? [], "configured fallbacks", aliases, defaultProvider));
    if (primaryText !== undefined) {
      if (!configuredPrimary) {
        throw new ModelSelectionError({ input: primaryText, origin: "configured primary" });
      }
      candidates.push(configuredPrimary);
    }
  }
  return dedupeModelRefs(candidates);
}

/** Keeps the first occurrence of each `provider/model`. */
export function dedupeModelRefs(refs: readonly ModelRef[]): ModelRef[] {
  const seen = new Set<string>();
  return refs.filter((ref) => {
    const key = formatModelRef(ref);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function resolveList(entries: readonly string[], origin: string, aliases: ModelAliases | undefined, defaultProvider: string): ModelRef[] {
  return entries.map((entry, index) => {
    const ref = resolveModelRef(entry, { aliases, defaultProvider });
    if (!ref) throw new ModelSelectionError({ input: entry, origin: `${origin}[${index}]` });
    return ref;
  });
}

function normalizeRef(ref: ModelRef): ModelRef | undefined {
  const provider = ref.provider.trim().toLowerCase();
  const model = ref.model.trim();
  return provider && model ? { provider, model } : undefined;
}

function textOf(value: string | ModelRef): string {
  return typeof value === "string" ? value : `${value.provider}/${value.model}`;
}
