/**
 * Session merges as pure functions over the stored entry, applied by the SQLite store inside one
 * `BEGIN IMMEDIATE` transaction (R-SO-2).
 */
import type { SessionEntry } from "../../core/types.js";
import type { SessionCasResult, SessionFieldWrite } from "../../ports/state-store.js";

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
export function applySessionPatch(
  current: SessionEntry,
  patch: Partial<Omit<SessionEntry, "sessionKey">>,
): SessionEntry {
  const next: MutableEntry = { ...current };
  for (const [field, value] of Object.entries(patch)) {
    if (field === "sessionKey") continue;
    setOrDelete(next, field, value);
  }
  return next as SessionEntry;
}

/**
 * Per-field compare-and-set: each write applies only when the field still holds `expected` (absent and
 * `undefined` are the same). Writes are taken in order, so a later write sees an earlier one.
 */
export function applySessionCas(
  current: SessionEntry,
  writes: readonly SessionFieldWrite[],
): SessionCasResult {
  const next: MutableEntry = { ...current };
  const applied: (keyof SessionEntry)[] = [];
  const conflicted: (keyof SessionEntry)[] = [];
  for (const write of writes) {
    if (write.field === "sessionKey") {
      throw new TypeError("compareAndSetSession cannot rewrite sessionKey; delete and recreate the session.");
    }
    if (sameValue(next[write.field], write.expected)) {
      setOrDelete(next, write.field, write.value);
      applied.push(write.field);
    } else {
      conflicted.push(write.field);
    }
  }
  return { applied, conflicted, entry: next as SessionEntry };
}
