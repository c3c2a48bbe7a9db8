/**
 * Finds keys of the raw config that the schema does not know (R-CF-2: warnings, never errors).
 * The schema strips unknown keys, so every key present in the raw input but absent from the parsed
 * output at the same place is unknown. An unknown key is reported once; its contents are not walked.
 */
import { formatConfigPath } from "./config-path.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function findUnknownKeyPaths(raw: unknown, parsed: unknown, path: PropertyKey[] = []): PropertyKey[][] {
  if (Array.isArray(raw) && Array.isArray(parsed)) {
    return raw.flatMap((item, index) => findUnknownKeyPaths(item, parsed[index], [...path, index]));
  }
  // A raw string parsed into an object (e.g. `model: "a/b"`) has no keys to compare.
  if (!isRecord(raw) || !isRecord(parsed)) return [];
  return Object.keys(raw).flatMap((key) =>
    Object.hasOwn(parsed, key) ? findUnknownKeyPaths(raw[key], parsed[key], [...path, key]) : [[...path, key]],
  );
}

export function unknownKeyWarnings(raw: unknown, parsed: unknown): string[] {
  return findUnknownKeyPaths(raw, parsed).map((path) => `${formatConfigPath(path)}: unknown key, ignored (Detour does not use it)`);
}
