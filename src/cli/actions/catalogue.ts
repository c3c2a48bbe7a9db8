/** What `detour catalogue update | show` do. */
import type { Command } from "commander";
import {
  explainModel,
  type ExplainedFact,
  type ModelExplanation,
  type ModelPrices,
  useRefreshedCatalogue,
} from "../../catalogue/model-catalogue.js";
import { catalogueCachePath, parseModelsDev, readCatalogueCache, writeCatalogueCache } from "../../catalogue/refreshed-catalogue.js";
import { modelAliases, modelDeclaration, readEnvKnobs, requireModelName } from "../../config/index.js";
import { ERROR_CODES, DetourError } from "../../core/errors.js";
import type { CliDeps } from "../cli-deps.js";
import { ReportedFailure } from "../cli-errors.js";
import { commandContext, loadCliConfig, type CommandContext } from "../command-context.js";
import { EXIT_RUNTIME_FAILURE } from "../output.js";

/** The catalogue could not be fetched or read; the previous cache (if any) stays in use. */
export class CatalogueFetchError extends DetourError {
  readonly code = ERROR_CODES.catalogueFetchFailed;
}

async function fetchCatalogue(url: string, timeoutSeconds: number): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutSeconds * 1000), headers: { accept: "application/json" } });
  } catch (error) {
    const cause = (error as Error).name === "TimeoutError" ? `no answer within ${timeoutSeconds} s` : describeCause(error);
    throw new CatalogueFetchError(`Cannot fetch the model catalogue from ${url}: ${cause}.`, { cause: error });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new CatalogueFetchError(`Cannot fetch the model catalogue from ${url}: it answered HTTP ${response.status}.`);
  }
  try {
    return await response.json();
  } catch (error) {
    throw new CatalogueFetchError(`The model catalogue from ${url} is not JSON: ${(error as Error).message}.`, { cause: error });
  }
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === "string") return `${cause.code}${typeof cause.message === "string" ? ` (${cause.message})` : ""}`;
  return typeof cause?.message === "string" ? cause.message : (error as Error).message;
}

/** What the user keeps when the update fails: the previous cache, named with its date, or the bundled rows. */
function previousCatalogueText(detourHome: string): string {
  const previous = readCatalogueCache(detourHome);
  return previous.state === "present"
    ? `The previous catalogue (fetched ${previous.catalogue.fetchedAt}) stays in use.`
    : "No catalogue was fetched before: the bundled catalogue stays in use.";
}

export async function updateCatalogue(
  deps: CliDeps,
  command: Command,
  options: { url: string; timeoutSeconds: number; json?: boolean },
): Promise<void> {
  const context = commandContext(deps, command);
  const { detourHome } = readEnvKnobs(deps.env, { cwd: deps.cwd });
  let parsed: ReturnType<typeof parseModelsDev>;
  try {
    parsed = parseModelsDev(await fetchCatalogue(options.url, options.timeoutSeconds));
    if (!parsed.ok) throw new CatalogueFetchError(`The model catalogue from ${options.url} cannot be used: ${parsed.problem}.`);
  } catch (error) {
    if (!(error instanceof CatalogueFetchError)) throw error;
    const kept = previousCatalogueText(detourHome);
    if (options.json) context.out.json({ ok: false, code: error.code, error: error.message, kept });
    context.out.error(`detour: ${error.message} ${kept}`);
    throw new ReportedFailure(EXIT_RUNTIME_FAILURE);
  }
  const catalogue = { fetchedAt: new Date().toISOString(), source: options.url, providers: parsed.providers };
  const path = writeCatalogueCache(detourHome, catalogue);
  useRefreshedCatalogue(catalogue);
  const providers = Object.keys(parsed.providers).length;
  if (options.json) {
    context.out.json({ ok: true, path, fetchedAt: catalogue.fetchedAt, source: options.url, providers, models: parsed.modelCount });
    return;
  }
  context.out.line(`Catalogue updated: ${parsed.modelCount} models of ${providers} providers from ${options.url}, kept in ${path}.`);
}

async function resolveRef(context: CommandContext, text: string) {
  const { config } = await loadCliConfig(context);
  const ref = requireModelName(config, modelAliases(config), text.trim(), "detour catalogue show");
  const slash = ref.indexOf("/");
  const provider = ref.slice(0, slash);
  const model = ref.slice(slash + 1);
  return { ref, provider, model, declared: modelDeclaration(config, provider, model) };
}

function money(value: number): string {
  return `$${Number(value.toPrecision(6))}`;
}

function priceText(prices: ModelPrices): string {
  const parts = [`input ${money(prices.input)}`, `output ${money(prices.output)}`];
  if (prices.cacheRead !== undefined) parts.push(`cache read ${money(prices.cacheRead)}`);
  if (prices.cacheWrite !== undefined) parts.push(`cache write ${money(prices.cacheWrite)}`);
  if (prices.reasoning !== undefined) parts.push(`reasoning ${money(prices.reasoning)}`);
  return `${parts.join(", ")} per million tokens`;
}

const FIGURES: readonly { key: keyof ModelExplanation; label: string; text: (value: never) => string }[] = [
  { key: "contextWindow", label: "context window", text: (value: number) => `${value.toLocaleString("en-US")} tokens` },
  { key: "maxOutputTokens", label: "output limit", text: (value: number) => `${value.toLocaleString("en-US")} tokens` },
  { key: "inputModalities", label: "input", text: (value: readonly string[]) => value.join(", ") },
  { key: "reasoning", label: "reasons first", text: (value: boolean) => (value ? "yes" : "no") },
  { key: "supportsPrefill", label: "prefill", text: (value: boolean) => (value ? "accepted" : "refused") },
  { key: "prices", label: "prices", text: (value: ModelPrices) => priceText(value) },
];

export async function showCatalogueModel(deps: CliDeps, command: Command, text: string, options: { json?: boolean }): Promise<void> {
  const context = commandContext(deps, command);
  const { ref, provider, model, declared } = await resolveRef(context, text);
  const explanation = explainModel(provider, model, declared);
  if (options.json) {
    context.out.json({ ref, ...explanation });
    return;
  }
  const { catalogue } = explanation;
  context.out.line(ref);
  context.out.line(
    catalogue
      ? `  catalogue: ${catalogue.layer}${catalogue.date ? ` (${catalogue.date})` : ""}, entry ${explanation.catalogueId}` +
          (catalogue.source ? `\n  published at: ${catalogue.source}` : "")
      : "  catalogue: no entry for this model; only what the config declares is known (models.providers.<id>.models[])",
  );
  for (const figure of FIGURES) {
    const fact = explanation[figure.key] as ExplainedFact<never> | undefined;
    context.out.line(`  ${`${figure.label}:`.padEnd(16)}${fact ? `${figure.text(fact.value)}  [${fact.source}]` : "unknown"}`);
  }
  const { detourHome } = readEnvKnobs(deps.env, { cwd: deps.cwd });
  if (catalogue?.layer !== "models.dev cache") {
    context.out.line(`  (refresh with \`detour catalogue update\`; the cache would be ${catalogueCachePath(detourHome)})`);
  }
}
