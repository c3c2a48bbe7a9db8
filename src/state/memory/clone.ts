/** Values are cloned on the way in and out of the memory store so callers can never mutate stored state. */
export function clone<T>(value: T): T {
  return structuredClone(value);
}
