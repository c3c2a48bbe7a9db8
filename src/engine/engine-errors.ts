/** Errors of the library API itself (bad arguments, use after close), with stable codes. */
import { DetourError, ERROR_CODES } from "../core/errors.js";

/** The library API's part of the one code table (`ERROR_CODES`), kept under its old name. */
export const ENGINE_ERROR_CODES = {
  invalidArgument: ERROR_CODES.invalidArgument,
  closed: ERROR_CODES.closed,
} as const;

export class DetourArgumentError extends DetourError {
  readonly code = ENGINE_ERROR_CODES.invalidArgument;
}

export class DetourClosedError extends DetourError {
  readonly code = ENGINE_ERROR_CODES.closed;

  constructor() {
    super("This Detour instance was closed; create a new one with createDetour().");
  }
}

/** Agent ids become directory names of the state store, so they must be path-safe (R-SB-1). */
const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function requireAgentId(agentId: string): string {
  if (!AGENT_ID.test(agentId)) {
    throw new DetourArgumentError(`Invalid agent id ${JSON.stringify(agentId)}: use letters, digits, ".", "_" or "-" (e.g. "main").`);
  }
  return agentId;
}
