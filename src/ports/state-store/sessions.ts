/** The sessions facet (R-SO-1…R-SO-4), with session retention (R-GW-8) and write groups (R-SB-6). */
import type { SessionEntry } from "../../core/types.js";
import type { WriteOptions } from "./write-options.js";

/**
 * A compare-and-set on one session field (R-SO-2). Writes to fields of one group (R-SB-6, below) are
 * compared and applied together.
 */
export interface SessionFieldWrite<K extends keyof SessionEntry = keyof SessionEntry> {
  field: K;
  /** The value the field must currently hold for the write to apply (`undefined` = absent). */
  expected: SessionEntry[K] | undefined;
  /** The value to write (`undefined` deletes the field). */
  value: SessionEntry[K] | undefined;
}

export interface SessionCasResult {
  /** Fields whose expectation held (with every other write of their group) and were written. */
  applied: (keyof SessionEntry)[];
  /** Fields left alone because someone changed them, or another field of their group, meanwhile. */
  conflicted: (keyof SessionEntry)[];
  entry: SessionEntry;
}

export interface SessionsStore {
  getSession(sessionKey: string): Promise<SessionEntry | undefined>;
  listSessions(): Promise<SessionEntry[]>;
  /** Unconditional merge; `undefined` values delete fields. Creates the session if needed. */
  patchSession(sessionKey: string, patch: Partial<Omit<SessionEntry, "sessionKey">>, options?: WriteOptions): Promise<SessionEntry>;
  /**
   * Compare-and-set, applied atomically as one unit. Writes are grouped by `sessionFieldGroup` (R-SB-6): a
   * group's writes all apply or none does; fields outside the two groups are compared one by one.
   */
  compareAndSetSession(sessionKey: string, writes: SessionFieldWrite[], options?: WriteOptions): Promise<SessionCasResult>;
  deleteSession(sessionKey: string): Promise<boolean>;
  /**
   * Deletes sessions not written since `idleSince` (epoch ms), at most `limit` of them (default: all), and
   * returns the keys removed. Explicit: fails loudly when the backend cannot take it (R-SB-5).
   */
  pruneSessions(params: { idleSince: number; limit?: number }): Promise<string[]>;
  /**
   * Deletes the least recently written sessions beyond `maxCount`, oldest first, at most `limit` of them
   * (default: all), and returns the keys removed (R-GW-8, `sessions.maxCount`).
   */
  evictSessions(params: { maxCount: number; limit?: number }): Promise<string[]>;
  /** How many sessions the store holds. */
  countSessions(): Promise<number>;
}

/** The model override and where it came from: one choice, so it is compared and written as one. */
export const SESSION_MODEL_GROUP = [
  "providerOverride",
  "modelOverride",
  "modelOverrideSource",
  "modelOverrideFallbackOriginProvider",
  "modelOverrideFallbackOriginModel",
] as const satisfies readonly (keyof SessionEntry)[];

/** The auth-profile pin and its bookkeeping, with the pins parked for the session's other providers. */
export const SESSION_AUTH_PIN_GROUP = [
  "authProfileOverride",
  "authProfileOverrideSource",
  "authProfileOverrideCompactionCount",
  "authProfilePinsByProvider",
] as const satisfies readonly (keyof SessionEntry)[];

const GROUP_OF_FIELD: ReadonlyMap<string, string> = new Map<string, string>([
  ...SESSION_MODEL_GROUP.map((field) => [field, "model"] as const),
  ...SESSION_AUTH_PIN_GROUP.map((field) => [field, "authPin"] as const),
]);

/** The group a session field is written with: `model`, `authPin`, or the field itself. */
export function sessionFieldGroup(field: keyof SessionEntry | string): string {
  return GROUP_OF_FIELD.get(field) ?? `field:${field}`;
}

/** The fields written together with `field` (just `[field]` outside the two groups). */
export function sessionGroupFields(field: keyof SessionEntry): readonly (keyof SessionEntry)[] {
  const group = GROUP_OF_FIELD.get(field);
  if (group === "model") return SESSION_MODEL_GROUP;
  if (group === "authPin") return SESSION_AUTH_PIN_GROUP;
  return [field];
}
