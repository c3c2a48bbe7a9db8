/**
 * The memory store's sessions facet (R-SO-1…R-SO-4) with its retention (R-GW-8): each session remembers
 * when it was last written, in write order, so pruning and eviction meet the oldest first.
 */
import type { SessionEntry } from "../../core/types.js";
import type { SessionCasResult, SessionFieldWrite, SessionsStore } from "../../ports/state-store.js";
import { applySessionCas, withWriteTime } from "../shared/session-writes.js";
import { clone } from "./clone.js";

function applyPatch(entry: SessionEntry, patch: Partial<Omit<SessionEntry, "sessionKey">>): SessionEntry {
  const next: Record<string, unknown> = { ...entry };
  for (const [field, value] of Object.entries(patch)) {
    if (field === "sessionKey") continue;
    if (value === undefined) delete next[field];
    else next[field] = clone(value);
  }
  return next as unknown as SessionEntry;
}

export class MemorySessions implements SessionsStore {
  readonly #sessions = new Map<string, SessionEntry>();
  /** When each session was last written (R-GW-8). */
  readonly #sessionTouched = new Map<string, number>();
  readonly #now: () => number;
  /** Told of every session write, so retention sweeps when there is something to sweep. */
  readonly #onWrite: () => void;

  constructor(now: () => number, onWrite: () => void) {
    this.#now = now;
    this.#onWrite = onWrite;
  }

  async getSession(sessionKey: string): Promise<SessionEntry | undefined> {
    const entry = this.#sessions.get(sessionKey);
    return entry ? clone(entry) : undefined;
  }

  async listSessions(): Promise<SessionEntry[]> {
    return [...this.#sessions.values()].map((entry) => withWriteTime(clone(entry), this.#sessionTouched.get(entry.sessionKey)));
  }

  async patchSession(sessionKey: string, patch: Partial<Omit<SessionEntry, "sessionKey">>): Promise<SessionEntry> {
    const next = applyPatch(this.#sessions.get(sessionKey) ?? { sessionKey }, patch);
    this.#sessions.set(sessionKey, next);
    this.#touch(sessionKey);
    return clone(next);
  }

  async compareAndSetSession(sessionKey: string, writes: SessionFieldWrite[]): Promise<SessionCasResult> {
    const existing = this.#sessions.get(sessionKey);
    const result = applySessionCas(existing ?? { sessionKey }, writes, clone);
    // A CAS that applied nothing must not create a session that did not exist.
    if (result.applied.length > 0) {
      this.#sessions.set(sessionKey, result.entry);
      this.#touch(sessionKey);
    }
    return { ...result, entry: clone(result.entry) };
  }

  /** Re-inserted, so the map stays in write order and pruning meets the oldest first. */
  #touch(sessionKey: string): void {
    this.#sessionTouched.delete(sessionKey);
    this.#sessionTouched.set(sessionKey, this.#now());
    this.#onWrite();
  }

  async deleteSession(sessionKey: string): Promise<boolean> {
    this.#sessionTouched.delete(sessionKey);
    return this.#sessions.delete(sessionKey);
  }

  async evictSessions(params: { maxCount: number; limit?: number }): Promise<string[]> {
    const excess = Math.min(this.#sessionTouched.size - params.maxCount, params.limit ?? Number.POSITIVE_INFINITY);
    if (excess <= 0) return [];
    // A touch deletes and re-inserts its key, so the map is in write order: the first keys are the least recent.
    const removed: string[] = [];
    for (const sessionKey of this.#sessionTouched.keys()) {
      if (removed.length >= excess) break;
      removed.push(sessionKey);
    }
    for (const sessionKey of removed) {
      this.#sessionTouched.delete(sessionKey);
      this.#sessions.delete(sessionKey);
    }
    return removed;
  }

  async countSessions(): Promise<number> {
    return this.#sessionTouched.size;
  }

  async pruneSessions(params: { idleSince: number; limit?: number }): Promise<string[]> {
    const limit = params.limit ?? Number.POSITIVE_INFINITY;
    const removed: string[] = [];
    for (const [sessionKey, touched] of this.#sessionTouched) {
      if (removed.length >= limit) break;
      if (touched >= params.idleSince) continue;
      this.#sessionTouched.delete(sessionKey);
      this.#sessions.delete(sessionKey);
      removed.push(sessionKey);
    }
    return removed;
  }
}
