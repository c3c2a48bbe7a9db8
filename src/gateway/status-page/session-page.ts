import { DetourError, ERROR_CODES } from "../../core/errors.js";
/**
 * R-GW-8: status answers show a page of sessions, never all of them — a store with thousands of sessions
 * must not turn `/status`, the page or `detour status` into megabytes. Newest first, so the page people see
 * holds the sessions that just changed.
 */
export const DEFAULT_SESSIONS_LIMIT = 50;
export const MAX_SESSIONS_LIMIT = 1000;

export interface SessionPageRequest {
  offset: number;
  limit: number;
}

export interface SessionPage<T> {
  sessions: T[];
  sessionsTotal: number;
  sessionsOffset: number;
  sessionsLimit: number;
}

export class SessionPageError extends DetourError {
  readonly code = ERROR_CODES.badRequest;
  readonly param: string;
  constructor(param: string, message: string) {
    super(`${param}: ${message}`);
    this.param = param;
  }
}

function whole(text: string | undefined, param: string, min: number, max: number, fallback: number): number {
  if (text === undefined || text.trim() === "") return fallback;
  const value = Number(text.trim());
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new SessionPageError(param, `expected a whole number from ${min} to ${max}, got ${JSON.stringify(text)}.`);
  }
  return value;
}

/** Reads `sessionsOffset` / `sessionsLimit` (query strings or CLI flags); absent means the first 50. */
export function parseSessionPage(
  input: { offset?: string | undefined; limit?: string | undefined },
  names: { offset: string; limit: string } = { offset: "sessionsOffset", limit: "sessionsLimit" },
): SessionPageRequest {
  return {
    offset: whole(input.offset, names.offset, 0, Number.MAX_SAFE_INTEGER, 0),
    limit: whole(input.limit, names.limit, 1, MAX_SESSIONS_LIMIT, DEFAULT_SESSIONS_LIMIT),
  };
}

/** Most recently written first; sessions written at the same moment by key. */
export function sessionsNewestFirst<T extends { updatedAt?: number; sessionKey: string }>(sessions: readonly T[]): T[] {
  return [...sessions].sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0) || a.sessionKey.localeCompare(b.sessionKey));
}

export function pageOfSessions<T extends { updatedAt?: number; sessionKey: string }>(
  sessions: readonly T[],
  page: SessionPageRequest,
): SessionPage<T> {
  const ordered = sessionsNewestFirst(sessions);
  return {
    sessions: ordered.slice(page.offset, page.offset + page.limit),
    sessionsTotal: ordered.length,
    sessionsOffset: page.offset,
    sessionsLimit: page.limit,
  };
}
