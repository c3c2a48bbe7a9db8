/**
 * Rules that need more than one field (SPEC R-CF-2, R-CF-3). They run even when single fields already
 * failed, so the value may be partly invalid: every read here is defensive.
 */
import { modelNaming, resolveModelNameWith } from "./model-names.js";
import { visitModelRefs } from "./model-ref-paths.js";
import { MODEL_REF_MESSAGE, isAliasWord, isProviderId, isProviderModelRef } from "./model-ref-syntax.js";
import { BUILT_IN_PROVIDERS, builtInProviderDefaults } from "./provider-defaults.js";

export interface CustomIssue {
  [key: string]: unknown;
  code: "custom";
  message: string;
  path: PropertyKey[];
}

/** The part of zod's refinement context this module uses. */
export interface IssueSink {
  addIssue(issue: CustomIssue): void;
}

type Report = (path: PropertyKey[], message: string) => void;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function at(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (!isRecord(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

function entries(value: unknown): [string, unknown][] {
  return isRecord(value) ? Object.entries(value) : [];
}

function items(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function crossCheckConfig(config: unknown, context: IssueSink): void {
  const report: Report = (path, message) => context.addIssue({ code: "custom", message, path });
  const aliases = checkModelAllowlist(config, report);
  checkModelRefs(config, aliases, report);
  checkProviders(config, report);
  checkUniqueIds(at(config, "agents", "list"), ["agents", "list"], "agent", report);
  checkUniqueIds(at(config, "cron", "jobs"), ["cron", "jobs"], "cron job", report);
  checkStateBackend(config, report);
}

/** Validates `agents.defaults.models` and returns its aliases (alias → `provider/model`). */
function checkModelAllowlist(config: unknown, report: Report): Readonly<Record<string, string>> {
  const aliases = new Map<string, string>();
  const base = ["agents", "defaults", "models"];
  for (const [ref, entry] of entries(at(config, ...base))) {
    if (!isProviderModelRef(ref)) report([...base, ref], MODEL_REF_MESSAGE);
    const alias = at(entry, "alias");
    if (typeof alias !== "string") continue;
    if (!isAliasWord(alias)) {
      report([...base, ref, "alias"], 'expected an alias word without "/" or spaces');
      continue;
    }
    const owner = aliases.get(alias);
    if (owner !== undefined) {
      report([...base, ref, "alias"], `alias "${alias}" is already used by "${owner}"`);
    } else {
      aliases.set(alias, ref);
    }
  }
  return Object.fromEntries(aliases);
}

/**
 * Every model reference must name a model a run can call (R-GW-3): an alias, a `provider/model` of a known
 * provider, or a bare name that exactly one provider offers (read as that `provider/model` after parsing,
 * see bare-model-names.ts). The resolver is the one the CLI, `/model` and the gateway use; its message
 * lists the known providers, the candidates of an ambiguous name, or the closest names to a typo.
 */
function checkModelRefs(config: unknown, aliases: Readonly<Record<string, string>>, report: Report): void {
  const naming = modelNaming(config, aliases);
  visitModelRefs(config, (value, path) => {
    // Malformed text (spaces, empty parts) is reported by the field's own schema.
    if (typeof value !== "string" || !(isProviderModelRef(value) || isAliasWord(value))) return;
    const resolution = resolveModelNameWith(naming, value);
    if (resolution.ok) return;
    report(path, isProviderModelRef(value) ? resolution.message : `${MODEL_REF_MESSAGE}: ${resolution.message}`);
  });
}

/** `bedrock` and its OpenClaw name (schema.ts PROVIDER_API_ALIASES; not imported: schema.ts imports this file). */
function isBedrockApi(api: unknown): boolean {
  return api === "bedrock" || api === "bedrock-converse-stream";
}

function checkProviders(config: unknown, report: Report): void {
  const base = ["models", "providers"];
  for (const [id, provider] of entries(at(config, ...base))) {
    if (!isProviderId(id)) {
      report([...base, id], "expected a provider id of letters, digits, '.', '_' or '-'");
      continue;
    }
    const builtIn = builtInProviderDefaults(id);
    if (!isRecord(provider)) continue;
    if (!builtIn) {
      for (const key of ["api", "baseUrl"]) {
        if (provider[key] === undefined && !(key === "baseUrl" && cloudAddressesItself(provider))) {
          report([...base, id, key], `required for "${id}", which has no built-in defaults`);
        }
      }
    }
    if (provider.api === "vertex" && provider.vertex === undefined) {
      report([...base, id, "vertex"], `required for "${id}" (api "vertex"): set vertex.project and vertex.location`);
    }
    const oauth = provider.oauth;
    if (isRecord(oauth) && !builtIn?.oauth) {
      for (const key of ["tokenUrl", "clientId"]) {
        if (oauth[key] === undefined) {
          report([...base, id, "oauth", key], `required for "${id}", which has no built-in OAuth defaults`);
        }
      }
    }
  }
}

/** Azure names its endpoint by resource and Vertex by location (its own check asks for it), so those need no `baseUrl`. */
function cloudAddressesItself(provider: Record<string, unknown>): boolean {
  if (provider.api === "azure-openai") return isRecord(provider.azure) && provider.azure.resource !== undefined;
  // A Bedrock provider's base URL follows from its region.
  if (isBedrockApi(provider.api)) return typeof provider.region === "string";
  return provider.api === "vertex";
}

function checkUniqueIds(list: unknown, path: PropertyKey[], what: string, report: Report): void {
  const seen = new Set<string>();
  items(list).forEach((entry, index) => {
    const id = at(entry, "id");
    if (typeof id !== "string") return;
    if (seen.has(id)) report([...path, index, "id"], `duplicate ${what} id "${id}"`);
    seen.add(id);
  });
}

function checkStateBackend(config: unknown, report: Report): void {
  if (at(config, "state", "backend") === "redis" && at(config, "state", "redis") === undefined) {
    report(["state", "redis", "url"], 'required when state.backend is "redis"');
  }
}
