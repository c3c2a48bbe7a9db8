/**
 * Session merges as pure functions over the stored entry, applied by the memory store and by the SQLite
 * store inside one `BEGIN IMMEDIATE` transaction (R-SO-2, R-SB-6).
 */
import type { SessionEntry } from "../../core/types.js";
import { type SessionCasResult, type SessionFieldWrite, sessionFieldGroup } from "../../ports/state-store.js";

/** Owned session fields are primitives; the JSON comparison keeps CAS correct for any JSON value. */
export function sameValue(a: unknown, b: unknown): boolean {
  return Object.is(a, b) || JSON.stringify(a) === JSON.stringify(b);
}

type MutableEntry = Record<string, unknown> & { sessionKey: string };

function setOrDelete(entry: MutableEntry, field: string, value: unknown): void {
  if (value === undefined) delete entry[field];
  else entry[field] = value;
}

/** Unconditional merge; `undefined` deletes the field. `sessionKey` cannot be patched away. */
export function applySessionPatch(current: SessionEntry, patch: Partial<Omit<SessionEntry, "sessionKey">>): SessionEntry {
  const next: MutableEntry = { ...current };
  for (const [field, value] of Object.entries(patch)) {
    if (field === "sessionKey") continue;
    setOrDelete(next, field, value);
  }
  return next as SessionEntry;
}

/**
 * Group-atomic compare-and-set (R-SO-2, R-SB-6). Writes are grouped by `sessionFieldGroup`; groups never share
 * a field, so each is checked on its own: its writes are taken in order (a later write sees an earlier one)
 * and the group applies only when every expectation held — a torn model/provider pair cannot be written.
 * Shared by the memory and SQLite stores; the Redis script implements the same rule.
 */
export function applySessionCas(
  current: SessionEntry,
  writes: readonly SessionFieldWrite[],
  copyValue: <T>(value: T) => T = (value) => value,
): SessionCasResult {
  const byGroup = new Map<string, SessionFieldWrite[]>();
  for (const write of writes) {
    if (write.field === "sessionKey") {
      throw new TypeError("compareAndSetSession cannot rewrite sessionKey; delete and recreate the session.");
    }
    const group = sessionFieldGroup(write.field);
    const list = byGroup.get(group);
    if (list) list.push(write);
    else byGroup.set(group, [write]);
  }
  const next: MutableEntry = { ...current };
  const failedGroups = new Set<string>();
  for (const [group, groupWrites] of byGroup) {
    const work: MutableEntry = { ...current };
    let holds = true;
    for (const write of groupWrites) {
      if (!sameValue(work[write.field], write.expected)) {
        holds = false;
        break;
      }
      setOrDelete(work, write.field, copyValue(write.value));
    }
    if (!holds) {
      failedGroups.add(group);
      continue;
    }
    for (const write of groupWrites) setOrDelete(next, write.field, work[write.field]);
  }
  const applied: (keyof SessionEntry)[] = [];
  const conflicted: (keyof SessionEntry)[] = [];
  for (const write of writes) (failedGroups.has(sessionFieldGroup(write.field)) ? conflicted : applied).push(write.field);
  return { applied, conflicted, entry: next as SessionEntry };
}

/**
 * A listed session with `updatedAt`: when the store last wrote it (the time it keeps for idle pruning), unless
 * the writer recorded a time itself. Listings are newest first in `detour sessions list`, status and the
 * dashboard; without it every session read "updated -".
 */
export function withWriteTime(entry: SessionEntry, writtenAt: number | string | null | undefined): SessionEntry {
  const at = writtenAt === null || writtenAt === undefined ? undefined : Number(writtenAt);
  if (entry.updatedAt !== undefined || at === undefined || !Number.isFinite(at)) return entry;
  return { ...entry, updatedAt: at };
}
