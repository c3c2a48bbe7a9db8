/**
 * The refreshed catalogue: models.dev's `api.json`, fetched by `detour catalogue update` and kept under
 * `$DETOUR_HOME/catalogue/models-dev.json` with the day it was fetched. Only the fields Detour reads are
 * kept. Reading happens once at start-up (never on the request path); a missing or unreadable cache means
 * the bundled snapshot and the pinned package answer alone.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { CatalogueEntry, CatalogueModels } from "./catalogue-entry.js";

export const MODELS_DEV_URL = "https://models.dev/api.json";
const CACHE_FORMAT = 1;

/** models.dev provider id → its models. */
export type RefreshedProviders = Readonly<Record<string, CatalogueModels>>;

export interface RefreshedCatalogue {
  /** When it was fetched (ISO 8601). */
  readonly fetchedAt: string;
  /** Where it was fetched from. */
  readonly source: string;
  readonly providers: RefreshedProviders;
}

export function catalogueCachePath(detourHome: string): string {
  return join(detourHome, "catalogue", "models-dev.json");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function finiteNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

function readEntry(id: string, raw: Record<string, unknown>): CatalogueEntry {
  const cost = isRecord(raw.cost) ? raw.cost : undefined;
  const limit = isRecord(raw.limit) ? raw.limit : undefined;
  const modalities = isRecord(raw.modalities) && Array.isArray(raw.modalities.input) ? raw.modalities.input : undefined;
  return definedOnly({
    id,
    reasoning: typeof raw.reasoning === "boolean" ? raw.reasoning : undefined,
    release_date: typeof raw.release_date === "string" ? raw.release_date : undefined,
    modalities: modalities ? { input: modalities.filter((item): item is string => typeof item === "string") } : undefined,
    cost: cost
      ? definedOnly({
          input: finiteNumber(cost.input),
          output: finiteNumber(cost.output),
          cache_read: finiteNumber(cost.cache_read),
          cache_write: finiteNumber(cost.cache_write),
          reasoning: finiteNumber(cost.reasoning),
        })
      : undefined,
    limit: limit ? definedOnly({ context: finiteNumber(limit.context), output: finiteNumber(limit.output) }) : undefined,
  });
}

export type ParsedCatalogue =
  | { readonly ok: true; readonly providers: RefreshedProviders; readonly modelCount: number }
  | { readonly ok: false; readonly problem: string };

/** Reads models.dev's `api.json` shape: `{ <provider>: { models: { <model id>: {...} } } }`. */
export function parseModelsDev(raw: unknown): ParsedCatalogue {
  if (!isRecord(raw)) return { ok: false, problem: "the answer is not a JSON object of providers" };
  const providers: Record<string, CatalogueModels> = {};
  let modelCount = 0;
  for (const [providerId, provider] of Object.entries(raw)) {
    if (!isRecord(provider) || !isRecord(provider.models)) continue;
    const models: Record<string, CatalogueEntry> = {};
    for (const [modelId, model] of Object.entries(provider.models)) {
      if (!isRecord(model)) continue;
      models[modelId] = readEntry(modelId, model);
      modelCount += 1;
    }
    providers[providerId] = { models };
  }
  if (modelCount === 0) return { ok: false, problem: "it lists no provider with models" };
  return { ok: true, providers, modelCount };
}

export type CacheRead =
  | { readonly state: "present"; readonly catalogue: RefreshedCatalogue }
  | { readonly state: "missing" }
  | { readonly state: "unreadable"; readonly problem: string };

/** Reads the cache once (start-up and `detour catalogue show` only). */
export function readCatalogueCache(detourHome: string): CacheRead {
  const path = catalogueCachePath(detourHome);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { state: "missing" };
    return { state: "unreadable", problem: `${path} cannot be read: ${(error as Error).message}` };
  }
  try {
    const stored = JSON.parse(text) as unknown;
    if (!isRecord(stored) || stored.format !== CACHE_FORMAT || typeof stored.fetchedAt !== "string") {
      return { state: "unreadable", problem: `${path} is not a catalogue cache this version writes; run \`detour catalogue update\`` };
    }
    const parsed = parseModelsDev(stored.providers);
    if (!parsed.ok) return { state: "unreadable", problem: `${path}: ${parsed.problem}; run \`detour catalogue update\`` };
    const source = typeof stored.source === "string" ? stored.source : MODELS_DEV_URL;
    return { state: "present", catalogue: { fetchedAt: stored.fetchedAt, source, providers: parsed.providers } };
  } catch (error) {
    return { state: "unreadable", problem: `${path} is not valid JSON (${(error as Error).message}); run \`detour catalogue update\`` };
  }
}

/** Writes the cache whole or not at all: a temporary file renamed over the old one. */
export function writeCatalogueCache(detourHome: string, catalogue: RefreshedCatalogue): string {
  const path = catalogueCachePath(detourHome);
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ format: CACHE_FORMAT, ...catalogue })}\n`, { mode: 0o644 });
  renameSync(temporary, path);
  return path;
}
