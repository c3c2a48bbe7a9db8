/**
 * Unknown keys that are almost a known key. Unknown keys are warnings (OpenClaw configs carry many
 * unrelated ones), but `fallback` for `fallbacks` or `gatway` for `gateway` silently turns a feature off,
 * so a key that is a typo of a key Detour knows at the same place is an error that names the key meant.
 *
 * "Almost": the optimal-string-alignment distance (insert, delete, substitute, swap two neighbours),
 * compared without case, is at most 1 — or at most 2 when both keys are 12 characters or longer
 * (`retrySameProfileOnTimout`). Keys OpenClaw itself uses that happen to be that close to a Detour key
 * (`session`, `gateway.auth.token`) stay warnings, with the hint.
 */
import { formatConfigPath } from "./config-path.js";
import { closestKnownKey } from "./key-distance.js";
import { toJsonSchema } from "./json-schema.js";

export { closestKnownKey, keyEditDistance } from "./key-distance.js";

type JsonSchemaNode = Record<string, unknown>;

export interface NearMissKey {
  readonly path: PropertyKey[];
  readonly suggestion: string;
  /** True for a key OpenClaw uses there: it is reported as a warning only. */
  readonly openClawKey: boolean;
}

/** Key paths (`*` = any map key or list index) that OpenClaw configs carry and Detour ignores. */
const OPENCLAW_KEY_PATHS: readonly string[] = ["session", "gateway.auth.token"];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

let configSchema: JsonSchemaNode | undefined;

/** The alternatives of a node: an `anyOf`/`oneOf`/`allOf` is each of its branches. */
function branches(node: unknown): JsonSchemaNode[] {
  if (!isRecord(node)) return [];
  const nested = [node.anyOf, node.oneOf, node.allOf].filter(Array.isArray).flat() as unknown[];
  return [node, ...nested.flatMap(branches)];
}

function childNodes(nodes: readonly JsonSchemaNode[], segment: string | number): JsonSchemaNode[] {
  return nodes.flatMap((node) => {
    if (typeof segment === "number") {
      const prefix = Array.isArray(node.prefixItems) ? (node.prefixItems[segment] as unknown) : undefined;
      return branches(prefix ?? node.items);
    }
    const properties = isRecord(node.properties) ? node.properties : {};
    if (Object.hasOwn(properties, segment)) return branches(properties[segment]);
    return branches(node.additionalProperties);
  });
}

/** Keys the schema names for an object at these nodes; undefined where any key is allowed (a map). */
function namedKeys(nodes: readonly JsonSchemaNode[]): Set<string> | undefined {
  const keys = new Set<string>();
  for (const node of nodes) {
    if (isRecord(node.additionalProperties)) return undefined;
    if (isRecord(node.properties)) for (const key of Object.keys(node.properties)) keys.add(key);
  }
  return keys;
}

function matchesPattern(path: readonly PropertyKey[], pattern: string): boolean {
  const parts = pattern.split(".");
  return parts.length === path.length && parts.every((part, index) => part === "*" || part === String(path[index]));
}

function walk(raw: unknown, nodes: JsonSchemaNode[], path: PropertyKey[], found: NearMissKey[]): void {
  if (nodes.length === 0) return;
  if (Array.isArray(raw)) {
    raw.forEach((item, index) => walk(item, childNodes(nodes, index), [...path, index], found));
    return;
  }
  if (!isRecord(raw)) return;
  const known = namedKeys(nodes);
  for (const [key, value] of Object.entries(raw)) {
    const keyPath = [...path, key];
    if (known !== undefined && !known.has(key)) {
      const suggestion = closestKnownKey(key, known);
      if (suggestion !== undefined) {
        found.push({ path: keyPath, suggestion, openClawKey: OPENCLAW_KEY_PATHS.some((pattern) => matchesPattern(keyPath, pattern)) });
      }
      continue;
    }
    walk(value, childNodes(nodes, key), keyPath, found);
  }
}

/** Every unknown key of `raw` that is a near miss of a key the schema knows at the same place. */
export function findNearMissKeys(raw: unknown): NearMissKey[] {
  configSchema ??= toJsonSchema();
  const found: NearMissKey[] = [];
  walk(raw, branches(configSchema), [], found);
  return found;
}

export function nearMissMessage(nearMiss: NearMissKey): string {
  return nearMiss.openClawKey
    ? `unknown key, ignored (Detour does not use it; if you meant Detour's "${nearMiss.suggestion}", rename it)`
    : `unknown key; did you mean "${nearMiss.suggestion}"? Rename it (as written it is ignored)`;
}

export function formatNearMissPath(nearMiss: NearMissKey): string {
  return formatConfigPath(nearMiss.path);
}
