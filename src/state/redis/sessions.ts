/**
 * The Redis store's sessions facet (R-SO-1…R-SO-4): one hash per session, written by Lua scripts so a
 * compare-and-set is atomic server-side, and a sorted set of write times for retention (R-GW-8).
 */
import type { SessionEntry } from "../../core/types.js";
import {
  type SessionCasResult,
  type SessionFieldWrite,
  sessionFieldGroup,
  type SessionsStore,
  type WriteOptions,
} from "../../ports/state-store.js";
import { withWriteTime } from "../shared/session-writes.js";
import { mirrorSession } from "./local-view.js";
import { CAS_SESSION, DELETE_IDLE_SESSION, DELETE_SESSION, PATCH_SESSION } from "./lua-scripts.js";
import type { RedisConnection } from "./redis-connection.js";
import type { Route } from "./route.js";

/** A session field's stored form ('' = absent). */
export function encodeField(value: unknown): string {
  return value === undefined ? "" : JSON.stringify(value);
}

function entryFromHash(sessionKey: string, flat: unknown): SessionEntry {
  const entry: Record<string, unknown> = {};
  const items = Array.isArray(flat) ? (flat as string[]) : [];
  for (let index = 0; index + 1 < items.length; index += 2) {
    entry[items[index] as string] = JSON.parse(items[index + 1] as string);
  }
  entry.sessionKey = sessionKey;
  return entry as unknown as SessionEntry;
}

function entryFromRecord(sessionKey: string, record: Record<string, string>): SessionEntry {
  const entry: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(record)) entry[field] = JSON.parse(value);
  entry.sessionKey = sessionKey;
  return entry as unknown as SessionEntry;
}

export class RemoteSessions {
  readonly #redis: RedisConnection;

  constructor(redis: RedisConnection) {
    this.#redis = redis;
  }

  async readSessions(sessionKeys: string[]): Promise<SessionEntry[]> {
    const records = await Promise.all(sessionKeys.map((sessionKey) => this.#redis.client.hGetAll(this.#redis.keys.session(sessionKey))));
    return sessionKeys
      .map((sessionKey, index) => ({ sessionKey, record: records[index] ?? {} }))
      .filter(({ record }) => Object.keys(record).length > 0)
      .map(({ sessionKey, record }) => entryFromRecord(sessionKey, record))
      .sort((a, b) => a.sessionKey.localeCompare(b.sessionKey));
  }

  async getSession(sessionKey: string): Promise<SessionEntry | undefined> {
    const record = await this.#redis.client.hGetAll(this.#redis.keys.session(sessionKey));
    return Object.keys(record).length > 0 ? entryFromRecord(sessionKey, record) : undefined;
  }

  async listSessions(): Promise<SessionEntry[]> {
    const { client, keys } = this.#redis;
    const entries = await this.readSessions(await client.sMembers(keys.sessionIndex));
    if (entries.length === 0) return entries;
    const writtenAt = await client.zmScore(
      keys.sessionTouched,
      entries.map((entry) => entry.sessionKey),
    );
    return entries.map((entry, index) => withWriteTime(entry, writtenAt[index]));
  }

  async patchSession(sessionKey: string, patch: Partial<Omit<SessionEntry, "sessionKey">>): Promise<SessionEntry> {
    const args: string[] = [sessionKey, JSON.stringify(sessionKey), String(this.#redis.now())];
    for (const [field, value] of Object.entries(patch)) {
      if (field !== "sessionKey") args.push(field, encodeField(value));
    }
    const flat = await this.#redis.run(PATCH_SESSION, this.#redis.sessionKeys(sessionKey), args);
    return entryFromHash(sessionKey, flat);
  }

  async compareAndSetSession(sessionKey: string, writes: SessionFieldWrite[]): Promise<SessionCasResult> {
    const args: string[] = [sessionKey, JSON.stringify(sessionKey), String(this.#redis.now())];
    for (const write of writes) {
      if (write.field === "sessionKey") {
        throw new TypeError("compareAndSetSession cannot rewrite sessionKey; delete and recreate the session.");
      }
      args.push(write.field, encodeField(write.expected), encodeField(write.value), sessionFieldGroup(write.field));
    }
    const [flags, flat] = (await this.#redis.run(CAS_SESSION, this.#redis.sessionKeys(sessionKey), args)) as [string, unknown];
    const applied: SessionCasResult["applied"] = [];
    const conflicted: SessionCasResult["conflicted"] = [];
    writes.forEach((write, index) => (flags[index] === "1" ? applied : conflicted).push(write.field));
    return { applied, conflicted, entry: entryFromHash(sessionKey, flat) };
  }

  async deleteSession(sessionKey: string): Promise<boolean> {
    const deleted = await this.#redis.run(DELETE_SESSION, this.#redis.sessionKeys(sessionKey), [sessionKey]);
    return Number(deleted) === 1;
  }

  async pruneSessions(params: { idleSince: number; limit?: number }): Promise<string[]> {
    const limit = params.limit ?? Number.MAX_SAFE_INTEGER;
    if (limit <= 0) return [];
    const stale = await this.#redis.client.zRangeByScore(this.#redis.keys.sessionTouched, "-inf", `(${params.idleSince}`, {
      LIMIT: { offset: 0, count: Math.min(limit, 1_000_000) },
    });
    const removed: string[] = [];
    for (const sessionKey of stale) {
      const deleted = await this.#redis.run(DELETE_IDLE_SESSION, this.#redis.sessionKeys(sessionKey), [sessionKey, params.idleSince]);
      if (Number(deleted) === 1) removed.push(sessionKey);
    }
    return removed;
  }

  async evictSessions(params: { maxCount: number; limit?: number }): Promise<string[]> {
    const excess = Math.min((await this.countSessions()) - params.maxCount, params.limit ?? Number.MAX_SAFE_INTEGER, 1_000_000);
    if (excess <= 0) return [];
    const oldest = await this.#redis.client.zRangeWithScores(this.#redis.keys.sessionTouched, 0, excess - 1);
    const removed: string[] = [];
    for (const { value: sessionKey, score } of oldest) {
      // Deleted only if not written since it was listed: a session refreshed meanwhile is no longer the oldest.
      const deleted = await this.#redis.run(DELETE_IDLE_SESSION, this.#redis.sessionKeys(sessionKey), [sessionKey, score + 1]);
      if (Number(deleted) === 1) removed.push(sessionKey);
    }
    return removed;
  }

  async countSessions(): Promise<number> {
    return Number(await this.#redis.client.zCard(this.#redis.keys.sessionTouched));
  }
}

export class RedisSessions implements SessionsStore {
  readonly #run: Route<RemoteSessions>;
  /** Told of every session write, so retention sweeps when there is something to sweep. */
  readonly #onWrite: () => void;

  constructor(run: Route<RemoteSessions>, onWrite: () => void) {
    this.#run = run;
    this.#onWrite = onWrite;
  }

  getSession(sessionKey: string): Promise<SessionEntry | undefined> {
    return this.#run(
      (r) => r.getSession(sessionKey),
      (v) => v.getSession(sessionKey),
      {
        mirror: (view, entry) => mirrorSession(view, sessionKey, entry),
      },
    );
  }

  listSessions(): Promise<SessionEntry[]> {
    return this.#run(
      (r) => r.listSessions(),
      (v) => v.listSessions(),
      {
        mirror: async (view, entries) => {
          const current = new Set(entries.map((entry) => entry.sessionKey));
          for (const stale of await view.listSessions()) if (!current.has(stale.sessionKey)) await view.deleteSession(stale.sessionKey);
          for (const entry of entries) await mirrorSession(view, entry.sessionKey, entry);
        },
      },
    );
  }

  patchSession(sessionKey: string, patch: Partial<Omit<SessionEntry, "sessionKey">>, options?: WriteOptions): Promise<SessionEntry> {
    this.#onWrite();
    return this.#run(
      (r) => r.patchSession(sessionKey, patch),
      (v) => v.patchSession(sessionKey, patch),
      {
        mirror: (view, entry) => mirrorSession(view, sessionKey, entry),
        replay: (r) => r.patchSession(sessionKey, patch),
        durability: options?.durability ?? "required",
      },
    );
  }

  compareAndSetSession(sessionKey: string, writes: SessionFieldWrite[], options?: WriteOptions): Promise<SessionCasResult> {
    this.#onWrite();
    return this.#run(
      (r) => r.compareAndSetSession(sessionKey, writes),
      (v) => v.compareAndSetSession(sessionKey, writes),
      {
        mirror: (view, result) => (result.applied.length > 0 ? mirrorSession(view, sessionKey, result.entry) : Promise.resolve()),
        // Replayed as compare-and-set too: a field someone changed on Redis meanwhile is left alone (R-SO-2).
        replay: (r) => r.compareAndSetSession(sessionKey, writes),
        durability: options?.durability ?? "required",
      },
    );
  }

  deleteSession(sessionKey: string): Promise<boolean> {
    return this.#run(
      (r) => r.deleteSession(sessionKey),
      (v) => v.deleteSession(sessionKey),
      {
        mirror: (view) => view.deleteSession(sessionKey),
        replay: (r) => r.deleteSession(sessionKey),
        durability: "required",
      },
    );
  }

  /** R-GW-8; explicit and never journaled: an outage fails it like any required write. */
  pruneSessions(params: { idleSince: number; limit?: number }): Promise<string[]> {
    return this.#run(
      (r) => r.pruneSessions(params),
      (v) => v.pruneSessions(params),
      {
        mirror: async (view, removed) => {
          for (const sessionKey of removed) await view.deleteSession(sessionKey);
        },
        durability: "required",
      },
    );
  }

  /** R-GW-8 `sessions.maxCount`; explicit like pruneSessions. */
  evictSessions(params: { maxCount: number; limit?: number }): Promise<string[]> {
    return this.#run(
      (r) => r.evictSessions(params),
      (v) => v.evictSessions(params),
      {
        mirror: async (view, removed) => {
          for (const sessionKey of removed) await view.deleteSession(sessionKey);
        },
        durability: "required",
      },
    );
  }

  countSessions(): Promise<number> {
    return this.#run(
      (r) => r.countSessions(),
      (v) => v.countSessions(),
      {},
    );
  }
}
