/** The error catalogue: one table of codes, the `DetourError` base, and the errors of the decision plane. */
export { ERROR_CODES, type DetourErrorCode } from "./codes.js";
export { DetourError } from "./detour-error.js";
export * from "./core-errors.js";
