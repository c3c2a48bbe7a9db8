/**
 * The one storage interface of Detour (SPEC §16). Three backends implement it (memory, sqlite, redis)
 * and one contract suite (`state/store-contract.ts`) checks them all.
 *
 * Every mutating method is atomic with respect to other processes sharing the store: usage-stat
 * updates apply the pure core math (`core/cooldown.ts`) inside one transaction / server-side script.
 */
import type { HeadroomReading } from "../core/headroom/reading.js";
import type { RecordFailureParams } from "../core/cooldown.js";
import type { Credential, SessionEntry, UsageStats } from "../core/types.js";

export interface StoredProfile {
  id: string;
  credential: Credential;
}

/** One shape for a failure, from the runner through the store to the cooldown math. */
export type { RecordFailureParams } from "../core/cooldown.js";

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

export interface StateStore {
  // --- profiles and secrets (R-AP-1, R-AP-2) ---
  listProfiles(): Promise<StoredProfile[]>;
  getProfile(id: string): Promise<StoredProfile | undefined>;
  /** Explicit by default: fails with `DETOUR_STORE_UNAVAILABLE` unless the backend took it (R-SB-5). */
  upsertProfile(profile: StoredProfile, options?: WriteOptions): Promise<void>;
  /** Removes the profile, its usage stats, and its entries in stored orders. Returns whether it existed. */
  removeProfile(id: string): Promise<boolean>;

  // --- order and lastGood (R-AP-3) ---
  getStoredOrder(provider: string): Promise<string[] | undefined>;
  /** `undefined` clears the stored order. */
  setStoredOrder(provider: string, order: string[] | undefined): Promise<void>;
  getLastGood(provider: string): Promise<string | undefined>;
  getAllLastGood(): Promise<Record<string, string>>;
  /**
   * Sets or clears `lastGood[provider]` directly. The runner goes through `recordSuccess`; this exists for
   * the legacy import (R-AP-6) and for re-seeding a Redis that lost its data (R-SB-3).
   */
  setLastGood(provider: string, profileId: string | undefined): Promise<void>;

  // --- usage stats (R-AP-4, §5) ---
  getUsageStats(profileId: string): Promise<UsageStats | undefined>;
  getAllUsageStats(): Promise<Record<string, UsageStats>>;
  /** Atomically applies `core/cooldown.recordFailure` and returns the stats it wrote. */
  recordFailure(profileId: string, params: RecordFailureParams): Promise<UsageStats>;
  /** Atomically applies `core/cooldown.recordSuccess` and sets `lastGood[provider]` (R-CD-7). */
  recordSuccess(profileId: string, params: { provider: string; now: number }): Promise<UsageStats>;
  /** Updates only `lastUsed` (R-CD-7 `markUsed`). May be batched; never loses a window. */
  markUsed(profileId: string, now: number): Promise<void>;
  /** Atomically clears windows that have ended (R-PO-4); returns the stats after clearing. */
  clearExpired(profileId: string, now: number): Promise<UsageStats | undefined>;
  /** Clears every window and counter of a profile (R-CD-8). */
  resetUsageStats(profileId: string): Promise<void>;
  /**
   * Writes a profile's stats verbatim (`undefined` deletes them), bypassing the cooldown math. Only for the
   * legacy import (R-AP-6) and for re-seeding a Redis that lost its data (R-SB-3); the runner never calls it.
   */
  replaceUsageStats(profileId: string, stats: UsageStats | undefined): Promise<void>;

  // --- sessions (R-SO-1…R-SO-4) ---
  getSession(sessionKey: string): Promise<SessionEntry | undefined>;
  listSessions(): Promise<SessionEntry[]>;
  /** Unconditional merge; `undefined` values delete fields. Creates the session if needed. */
  patchSession(
    sessionKey: string,
    patch: Partial<Omit<SessionEntry, "sessionKey">>,
    options?: WriteOptions,
  ): Promise<SessionEntry>;
  /**
   * Compare-and-set, applied atomically as one unit. Writes are grouped by `sessionFieldGroup` (R-SB-6): a
   * group's writes all apply or none does; fields outside the two groups are compared one by one.
   */
  compareAndSetSession(sessionKey: string, writes: SessionFieldWrite[], options?: WriteOptions): Promise<SessionCasResult>;
  deleteSession(sessionKey: string): Promise<boolean>;

  // --- probe throttle (R-FB-4) ---
  /**
   * Claims the probe slot for `key` if none was claimed within the last `intervalMs`.
   * Returns true when this caller may probe now.
   */
  tryClaimProbe(key: string, now: number, intervalMs: number): Promise<boolean>;
  /** When the slot for `key` was last claimed, if ever (for availability decisions). */
  getLastProbeAt(key: string): Promise<number | undefined>;

  // --- headroom readings (R-PO-7) ---
  /**
   * Keeps the latest reading of each (profile, model scope, window) it is given, as `core/headroom`'s
   * `mergeReadings` defines: readings past their reset are dropped, model scopes are capped per profile.
   */
  recordHeadroom(profileId: string, readings: readonly HeadroomReading[], now: number): Promise<void>;
  /** The fresh readings (reset still ahead of `now`) of these profiles; profiles without any are absent. */
  headroomReadings(profileIds: readonly string[], now: number): Promise<Record<string, HeadroomReading[]>>;
  // --- spend (R-GW-7): hourly buckets per profile, the last 24 kept (core/spend.ts) ---
  /**
   * Adds `costUsd` to the profile's bucket for the hour of `now` and drops its buckets older than 24 hours.
   * Concurrent calls from several processes all count. Best-effort bookkeeping: callers never await it on
   * an answer's path.
   */
  recordSpend(profileId: string, costUsd: number, now: number): Promise<void>;
  /** Dollars per profile over the 24 hour buckets up to `now`; profiles with nothing recorded are absent. */
  spendByProfile(now: number): Promise<Record<string, number>>;
  // --- availability and session retention (R-SB-5, R-GW-8): see the blocks below ---
  /** Resolves when the backend answers; else throws `StoreUnavailableError` naming it (doctor, R-SB-5). */
  checkAvailable(): Promise<void>;
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

  // --- decision snapshots (DESIGN §1) ---
  /**
   * A number that changes whenever anything a run's decision reads — profiles, stored orders, usage stats,
   * headroom readings — may have changed: this process's writes (each counts once: +1) and other processes'
   * or replicas' alike. The runner keeps its decision inputs in memory while the stamp holds
   * (runner/decision-snapshot.ts), so it must be cheap and synchronous. Absent: the backend cannot tell, and
   * every decision reads the store.
   */
  changeStamp?(): number;

  close(): Promise<void>;
}

// --- write durability (R-SB-5) ---

/**
 * `required` (the default): the write lands in the backend or the call throws `StoreUnavailableError` —
 * for everything a user or an operator asked for. `best-effort`: during a backend outage the write may be
 * kept in process-local state and pushed later (R-SB-3) — only for bookkeeping on the request path.
 */
export type WriteDurability = "required" | "best-effort";

export interface WriteOptions {
  durability?: WriteDurability;
}

// --- session write groups (R-SB-6) ---

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
