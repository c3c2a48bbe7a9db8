/**
 * Rules that need more than one field (SPEC R-CF-2, R-CF-3). They run even when single fields already
 * failed, so the value may be partly invalid: every read here is defensive.
 */
import { catalogueCandidates, unknownProviderMessage } from "./model-names.js";
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

/** Validates `agents.defaults.models` and returns its aliases. */
function checkModelAllowlist(config: unknown, report: Report): ReadonlySet<string> {
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
  return new Set(aliases.keys());
}

/**
 * A bare word is a valid model ref only when it names a declared alias (the hint names the providers whose
 * catalogue offers it, R-GW-3); a `provider/model` must name a known provider, or the chain would fail on
 * every run.
 */
function checkModelRefs(config: unknown, aliases: ReadonlySet<string>, report: Report): void {
  const known = [...new Set([...Object.keys(BUILT_IN_PROVIDERS), ...entries(at(config, "models", "providers")).map(([id]) => id)])].sort();
  const check = (value: unknown, path: PropertyKey[]) => {
    if (typeof value !== "string") return;
    if (!isProviderModelRef(value)) {
      if (isAliasWord(value) && !aliases.has(value)) {
        const candidates = catalogueCandidates(known, value);
        report(path, candidates.length > 0 ? `${MODEL_REF_MESSAGE} (a bare name must be an alias; write ${candidates.map((ref) => `"${ref}"`).join(" or ")})` : MODEL_REF_MESSAGE);
      }
      return;
    }
    const provider = value.slice(0, value.indexOf("/"));
    if (!known.includes(provider)) report(path, unknownProviderMessage(provider, known));
  };
  const checkSelection = (selection: unknown, path: PropertyKey[]) => {
    if (typeof selection === "string") return check(selection, path);
    check(at(selection, "primary"), [...path, "primary"]);
    items(at(selection, "fallbacks")).forEach((ref, index) => check(ref, [...path, "fallbacks", index]));
  };

  checkSelection(at(config, "agents", "defaults", "model"), ["agents", "defaults", "model"]);
  check(at(config, "agents", "defaults", "heartbeat", "model"), ["agents", "defaults", "heartbeat", "model"]);
  items(at(config, "agents", "list")).forEach((agent, index) => {
    checkSelection(at(agent, "model"), ["agents", "list", index, "model"]);
    check(at(agent, "heartbeat", "model"), ["agents", "list", index, "heartbeat", "model"]);
  });
  items(at(config, "cron", "jobs")).forEach((job, index) => {
    const path = ["cron", "jobs", index, "payload"];
    check(at(job, "payload", "model"), [...path, "model"]);
    items(at(job, "payload", "fallbacks")).forEach((ref, i) => check(ref, [...path, "fallbacks", i]));
  });
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
        if (provider[key] === undefined) {
          report([...base, id, key], `required for "${id}", which has no built-in defaults`);
        }
      }
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
