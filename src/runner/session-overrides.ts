/**
 * Session overrides written by the fallback path (SPEC §9). Every write is a compare-and-set against the
 * values this process read, whole groups at a time (R-SB-6), so a concurrent `/model`, session rotation or
 * another run is never overwritten (R-SO-2), and a failed candidate rolls back only the groups that still
 * hold what it wrote.
 */
import type { ModelRef, SessionEntry, StoredProfilePin } from "../core/types.js";
import type { EventSink } from "../ports/events.js";
import {
  type SessionCasResult,
  type SessionFieldWrite,
  sessionGroupFields,
  type StateStore,
  type WriteOptions,
} from "../ports/state-store.js";

/**
 * The runner's own session bookkeeping may be kept locally while a shared backend is down (R-SB-3); what a
 * user or operator asks for goes through with the store's default, `required` (R-SB-5).
 */
const RUN_BOOKKEEPING: WriteOptions = { durability: "best-effort" };

/** R-SO-3: the origin of an auto fallback is probed at most this often (fixed, not configurable). */
export const ORIGIN_PROBE_INTERVAL_MS = 5 * 60 * 1000;

/** R-SO-1 owned fields, plus the anchor of the origin probe interval (bookkeeping of R-SO-3). */
type WritableField =
  | "providerOverride"
  | "modelOverride"
  | "modelOverrideSource"
  | "modelOverrideFallbackOriginProvider"
  | "modelOverrideFallbackOriginModel"
  | "authProfileOverride"
  | "authProfileOverrideSource"
  | "authProfileOverrideCompactionCount"
  | "authProfilePinsByProvider"
  | "fallbackProbeAnchorAt";

export type OverrideValues = Partial<{ [K in WritableField]: SessionEntry[K] | undefined }>;

const MODEL_FIELDS = [
  "providerOverride",
  "modelOverride",
  "modelOverrideSource",
  "modelOverrideFallbackOriginProvider",
  "modelOverrideFallbackOriginModel",
  "fallbackProbeAnchorAt",
] as const satisfies readonly WritableField[];

/** The session's pin for the provider it runs on (R-PO-5); the other providers' pins are parked beside it. */
const AUTH_PIN_FIELDS = [
  "authProfileOverride",
  "authProfileOverrideSource",
  "authProfileOverrideCompactionCount",
] as const satisfies readonly WritableField[];

/**
 * The compare-and-set writes that take `entry` to `values`. When a field of a store write group changes
 * (R-SB-6), every field of that group is written with it, its current value as the expectation, so the store
 * compares the whole group: a concurrent `/model` that changed any part of it leaves the group alone.
 */
function casWrites(entry: SessionEntry | undefined, values: OverrideValues): SessionFieldWrite[] {
  const writes: SessionFieldWrite[] = [];
  const written = new Set<keyof SessionEntry>();
  for (const [field, value] of Object.entries(values) as [WritableField, unknown][]) {
    if (written.has(field) || entry?.[field] === value) continue;
    for (const member of sessionGroupFields(field)) {
      if (written.has(member)) continue;
      written.add(member);
      const next = member in values ? values[member as WritableField] : entry?.[member];
      writes.push({ field: member, expected: entry?.[member], value: next } as SessionFieldWrite);
    }
  }
  return writes;
}

/**
 * What one candidate wrote to the session, so its failure can be rolled back narrowly (R-SO-2): each field
 * returns to the value it had before the candidate only if it still holds the candidate's last write.
 */
export class OverrideTransaction {
  readonly #store: StateStore;
  readonly #sessionKey: string;
  readonly #previous = new Map<WritableField, unknown>();
  readonly #written = new Map<WritableField, unknown>();

  constructor(store: StateStore, sessionKey: string) {
    this.#store = store;
    this.#sessionKey = sessionKey;
  }

  get wroteAnything(): boolean {
    return this.#written.size > 0;
  }

  /** Compare-and-set `values` against `entry` (the session as last read). */
  async write(entry: SessionEntry | undefined, values: OverrideValues): Promise<SessionCasResult> {
    const writes = casWrites(entry, values);
    if (writes.length === 0) return { applied: [], conflicted: [], entry: entry ?? { sessionKey: this.#sessionKey } };
    const result = await this.#store.compareAndSetSession(this.#sessionKey, writes, RUN_BOOKKEEPING);
    for (const write of writes) {
      const field = write.field as WritableField;
      if (!result.applied.includes(field)) continue;
      if (!this.#previous.has(field)) this.#previous.set(field, write.expected);
      this.#written.set(field, write.value);
    }
    return result;
  }

  /** Narrow rollback; returns the fields left alone because someone changed them meanwhile. */
  async rollback(): Promise<SessionCasResult | undefined> {
    if (this.#written.size === 0) return undefined;
    const writes = [...this.#written].map(
      ([field, written]) => ({ field, expected: written, value: this.#previous.get(field) }) as SessionFieldWrite,
    );
    this.#written.clear();
    this.#previous.clear();
    return this.#store.compareAndSetSession(this.#sessionKey, writes, RUN_BOOKKEEPING);
  }
}

/** The origin model of an auto fallback override, when the session is on one. */
export function autoFallbackOrigin(entry: SessionEntry | undefined): ModelRef | undefined {
  if (entry?.modelOverrideSource !== "auto") return undefined;
  const provider = entry.modelOverrideFallbackOriginProvider;
  const model = entry.modelOverrideFallbackOriginModel;
  return provider && model ? { provider, model } : undefined;
}

/** The model an auto override points at. */
export function autoFallbackTarget(entry: SessionEntry | undefined): ModelRef | undefined {
  if (entry?.modelOverrideSource !== "auto") return undefined;
  const provider = entry.providerOverride;
  const model = entry.modelOverride;
  return provider && model ? { provider, model } : undefined;
}

/**
 * R-SO-2: the values persisted before a fallback candidate runs. The origin stays the existing one while the
 * session is already on an auto fallback; the probe interval keeps counting from when the fallback began.
 * The auth pin survives only when it belongs to the candidate's provider.
 */
export function fallbackOverrideValues(input: {
  entry: SessionEntry | undefined;
  candidate: ModelRef;
  requested: ModelRef;
  pinBelongsToCandidate: boolean;
  now: number;
}): OverrideValues {
  const { entry, candidate } = input;
  const origin = autoFallbackOrigin(input.entry) ?? input.requested;
  const alreadyOnAuto = autoFallbackOrigin(entry) !== undefined;
  const values: OverrideValues = {
    providerOverride: candidate.provider,
    modelOverride: candidate.model,
    modelOverrideSource: "auto",
    modelOverrideFallbackOriginProvider: origin.provider,
    modelOverrideFallbackOriginModel: origin.model,
    fallbackProbeAnchorAt: alreadyOnAuto ? (entry?.fallbackProbeAnchorAt ?? input.now) : input.now,
  };
  if (!input.pinBelongsToCandidate) {
    for (const field of AUTH_PIN_FIELDS) values[field] = undefined;
  }
  return values;
}

/**
 * Clears the auto model override and an auto auth pin, keeping user choices (R-SO-3: origin recovered,
 * `/new`, `/reset`, `sessions.reset`; R-CH-2: stale override before a heartbeat). Compare-and-set against
 * `entry`, so a concurrent user change wins. `options` defaults to run bookkeeping; an operator's reset
 * passes `{ durability: "required" }`.
 */
export async function clearAutoOverrides(
  store: StateStore,
  sessionKey: string,
  entry: SessionEntry | undefined,
  options: WriteOptions = RUN_BOOKKEEPING,
): Promise<SessionCasResult | undefined> {
  if (!entry) return undefined;
  const values: OverrideValues = {};
  if (entry.modelOverrideSource === "auto") {
    for (const field of MODEL_FIELDS) values[field] = undefined;
  }
  if (entry.authProfileOverrideSource === "auto") {
    for (const field of AUTH_PIN_FIELDS) values[field] = undefined;
  }
  const parked = entry.authProfilePinsByProvider;
  if (parked && Object.values(parked).some((pin) => pin.source === "auto")) {
    values.authProfilePinsByProvider = userPinsOnly(parked);
  }
  const writes = casWrites(entry, values);
  if (writes.length === 0) return undefined;
  return store.compareAndSetSession(sessionKey, writes, options);
}

function userPinsOnly(pins: Readonly<Record<string, StoredProfilePin>>): Record<string, StoredProfilePin> | undefined {
  const kept = Object.entries(pins).filter(([, pin]) => pin.source === "user");
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/**
 * R-SO-3: claims the origin probe when the interval since the fallback began (or the last probe) has passed.
 * The anchor moves to `now` by compare-and-set, so of two concurrent turns only one probes.
 */
export async function claimOriginProbe(store: StateStore, sessionKey: string, entry: SessionEntry, now: number): Promise<boolean> {
  const anchor = entry.fallbackProbeAnchorAt;
  if (anchor !== undefined && now - anchor < ORIGIN_PROBE_INTERVAL_MS) return false;
  const result = await store.compareAndSetSession(
    sessionKey,
    [{ field: "fallbackProbeAnchorAt", expected: anchor, value: now }],
    RUN_BOOKKEEPING,
  );
  return result.applied.includes("fallbackProbeAnchorAt");
}

/** R-SO-4: a run reconciles a pending user switch by using the persisted override; the flag is consumed. */
export async function consumePendingLiveSwitch(store: StateStore, sessionKey: string, entry: SessionEntry | undefined): Promise<void> {
  if (entry?.pendingLiveSwitch !== true) return;
  await store.compareAndSetSession(sessionKey, [{ field: "pendingLiveSwitch", expected: true, value: undefined }], RUN_BOOKKEEPING);
}

/** Emits the session event only when something was written or left alone. */
export function emitSessionOverride(
  events: EventSink,
  base: { agentId: string; runId: string | null; sessionId: string },
  action: "fallback_persisted" | "fallback_rolled_back" | "fallback_cleared" | "auth_pin_written",
  result: SessionCasResult | undefined,
): void {
  if (!result || (result.applied.length === 0 && result.conflicted.length === 0)) return;
  events.emit({ type: "session_override", ...base, action, conflicted: result.conflicted.map(String) });
}

/**
 * R-SO-4 / R-PO-6: a user-driven selection (`/model p/m@profile`, `sessions.patch`). It is strict, replaces
 * any auto state, and marks a pending live switch — the only writer that does.
 * `model: null` / `profileId: null` remove the user's choice; `undefined` leaves that part as it is.
 */
export function userSelectionPatch(selection: {
  model?: ModelRef | null;
  profileId?: string | null;
}): Partial<Omit<SessionEntry, "sessionKey">> {
  const patch: Partial<Omit<SessionEntry, "sessionKey">> = {};
  if (selection.model !== undefined) {
    Object.assign(patch, {
      providerOverride: selection.model?.provider,
      modelOverride: selection.model?.model,
      modelOverrideSource: selection.model ? "user" : undefined,
      modelOverrideFallbackOriginProvider: undefined,
      modelOverrideFallbackOriginModel: undefined,
      fallbackProbeAnchorAt: undefined,
    });
  }
  if (selection.profileId !== undefined) {
    Object.assign(patch, {
      authProfileOverride: selection.profileId ?? undefined,
      authProfileOverrideSource: selection.profileId ? "user" : undefined,
      authProfileOverrideCompactionCount: undefined,
    });
  }
  if (selection.model !== undefined || selection.profileId !== undefined) patch.pendingLiveSwitch = true;
  return patch;
}
