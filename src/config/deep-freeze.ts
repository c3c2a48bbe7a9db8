/**
 * Freezes a parsed config and everything inside it, so no part of the engine can change it (R-CF-2).
 * Parsed configs are trees (JSON has no cycles), so plain recursion ends.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  for (const key of Reflect.ownKeys(value)) {
    deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return Object.freeze(value);
}
