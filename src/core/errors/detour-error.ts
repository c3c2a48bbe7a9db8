import type { DetourErrorCode } from "./codes.js";

/**
 * A registry-wide symbol, not a module-local one: two copies of Detour in one app (a library and a plugin
 * each bundling their own) produce distinct `DetourError` classes, so `instanceof` fails across them, while
 * `Symbol.for` hands both copies the same key.
 */
const MARKER = Symbol.for("detour.error");

/** The base of every Detour error: a stable `code` and a message that says what to do next. */
export abstract class DetourError extends Error {
  abstract readonly code: DetourErrorCode;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    // The names of the class and every Detour class above it, so `FailoverError.isInstance` also works
    // across copies; non-enumerable so it stays out of equality checks and logs.
    const lineage: string[] = [];
    for (let type: unknown = new.target; typeof type === "function" && type !== Error; type = Object.getPrototypeOf(type)) {
      lineage.push(type.name);
    }
    Object.defineProperty(this, MARKER, { value: Object.freeze(lineage), enumerable: false });
  }

  /**
   * Whether `error` is an error of this class (or a subclass), from this copy of Detour or any other.
   * Prefer it to `instanceof`, which only knows this copy's classes.
   */
  static isInstance<T extends DetourError>(this: abstract new (...args: never[]) => T, error: unknown): error is T {
    if (typeof error !== "object" || error === null) return false;
    const lineage = (error as { [MARKER]?: unknown })[MARKER];
    return Array.isArray(lineage) && lineage.includes(this.name);
  }
}
