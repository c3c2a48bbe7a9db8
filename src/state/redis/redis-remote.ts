/**
 * `StateStore` operations against a live Redis (SPEC §16 `redis`). No fallback logic here: every method
 * talks to Redis and throws when it cannot; `redis-store.ts` decides what an outage means.
 *
 * One implementation of the usage-stats math: stats are read, the pure `core/cooldown.ts` function computes
 * the next value in this process, and the `CAS_STATS` script writes it only if the stored value is unchanged
 * — retried on conflict with the value the script answered. The write is atomic server-side and two replicas
 * can never lose each other's update, yet the rules are not duplicated in Lua.
 *
 * Success fast path (R-SB-2, like SQLite's): a success does not read first. It compares against the stats
 * bytes this replica last saw stored, so a healthy profile's success is one script call that writes only
 * `lastUsed` (and `lastGood` when it changes). A stale guess costs one more call, never a wrong write.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { createClient } from "@redis/client";
import {
  clearExpired as clearExpiredStats,
  markUsed as markUsedStats,
  recordFailure as statsAfterFailure,
  recordSuccess as recordSuccessStats,
  resetUsageStats as emptyUsageStats,
} from "../../core/cooldown.js";
import type { Credential, SessionEntry, UsageStats } from "../../core/types.js";
import {
  type RecordFailureParams,
  type SessionCasResult,
  type SessionFieldWrite,
  sessionFieldGroup,
  type StateStore,
  type StoredProfile,
} from "../../ports/state-store.js";
import { withWriteTime } from "../session-writes.js";
import { openCredential, type SecretBox, sealCredential } from "../secrets.js";
import {
  ADOPT_UNTIMED_SESSIONS,
  BUMP_LAST_USED,
  CAS_SESSION,
  CAS_STATS,
  DELETE_IDLE_SESSION,
  DELETE_SESSION,
  PATCH_SESSION,
  PUT_STATS,
  REMOVE_PROFILE,
  runScript,
  TAKE_OVER_PROBE,
  type LuaScript,
} from "./lua-scripts.js";
import type { RedisKeys } from "./redis-keys.js";
import type { HeadroomReading } from "../../core/headroom/reading.js";
import { RedisHeadroom } from "./headroom-remote.js";
import { RedisSpend } from "./spend-remote.js";

export type RedisClient = ReturnType<typeof createClient>;

/** A guess at what is stored for one profile: the stats bytes ('' = none) and lastUsed (null = unknown). */
interface StoredStatsGuess {
  raw: string;
  lastUsed: string | null;
}

/** Everything a replica keeps, as plain values: what the local view is seeded from and re-seeds Redis with. */
export interface StateSnapshot {
  profiles: StoredProfile[];
  orders: Record<string, string[]>;
  lastGood: Record<string, string>;
  stats: Record<string, UsageStats>;
  sessions: SessionEntry[];
}

interface StoredProfileRecord {
  provider: string;
  type: Credential["type"];
  secret: string;
}

const MAX_CAS_ATTEMPTS = 200;

function encodeField(value: unknown): string {
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

function combineStats(raw: string | null | undefined, lastUsed: string | null | undefined): UsageStats | undefined {
  if (raw == null && lastUsed == null) return undefined;
  const stats = raw == null ? {} : (JSON.parse(raw) as UsageStats);
  if (lastUsed != null) stats.lastUsed = Number(lastUsed);
  return stats;
}

function statsJson(stats: UsageStats): string {
  const { lastUsed: _lastUsed, ...rest } = stats;
  return JSON.stringify(rest);
}

export class RemoteRedisState implements StateStore {
  readonly #client: RedisClient;
  readonly #keys: RedisKeys;
  readonly #secrets: SecretBox;
  readonly #credentialCache = new Map<string, Credential>();
  /**
   * The stats bytes last seen stored, per profile: the success fast path's guess. Only ever a guess —
   * every write compares against Redis — so it may be stale; bounded by the profiles in the stats hash.
   */
  readonly #seenStats = new Map<string, string>();
  /** Dates session writes for idle pruning (R-GW-8); replicas' clocks only need to agree to within hours. */
  readonly #now: () => number;

  constructor(client: RedisClient, keys: RedisKeys, secrets: SecretBox, now: () => number = Date.now) {
    this.#client = client;
    this.#keys = keys;
    this.#secrets = secrets;
    this.#now = now;
  }

  #sessionKeys(sessionKey: string): string[] {
    return [this.#keys.session(sessionKey), this.#keys.sessionIndex, this.#keys.sessionTouched];
  }

  #sawStats(profileId: string, raw: string | null | undefined): void {
    if (raw == null || raw === "") this.#seenStats.delete(profileId);
    else this.#seenStats.set(profileId, raw);
  }

  #run(lua: LuaScript, keys: string[], args: (string | number)[]): Promise<unknown> {
    return runScript(this.#client as unknown as Parameters<typeof runScript>[0], lua, keys, args);
  }

  // --- identity of the data set ---

  /**
   * Writes the key checks once and verifies them (R-SB-4): a wrong key fails here, never later. The agent's
   * own check comes first, so a replica with a wrong key never writes the prefix-wide one of a Redis that
   * predates it.
   */
  async verifySecretKey(): Promise<void> {
    await this.#client.hSetNX(this.#keys.meta, "keyCheck", this.#secrets.makeKeyCheck());
    const stored = await this.#client.hGet(this.#keys.meta, "keyCheck");
    if (stored) this.#secrets.verifyKeyCheck(stored);
    await this.#client.set(this.#keys.sharedKeyCheck, this.#secrets.makeKeyCheck(), { NX: true });
    const shared = await this.#client.get(this.#keys.sharedKeyCheck);
    if (shared) this.#secrets.verifyKeyCheck(shared);
  }

  /** The data-set epoch: it disappears when Redis loses its data, and changes when a replica re-seeds it. */
  async readEpoch(): Promise<string | undefined> {
    return (await this.#client.hGet(this.#keys.meta, "epoch")) ?? undefined;
  }

  /** Sets the epoch if none is set and returns the one in force. */
  async adoptEpoch(candidate: string): Promise<string> {
    await this.#client.hSetNX(this.#keys.meta, "epoch", candidate);
    return (await this.#client.hGet(this.#keys.meta, "epoch")) ?? candidate;
  }

  async loadSnapshot(): Promise<StateSnapshot> {
    const [orders, lastGood, stats, lastUsed, sessionKeys] = await Promise.all([
      this.#client.hGetAll(this.#keys.order),
      this.#client.hGetAll(this.#keys.lastGood),
      this.#client.hGetAll(this.#keys.stats),
      this.#client.hGetAll(this.#keys.lastUsed),
      this.#client.sMembers(this.#keys.sessionIndex),
    ]);
    const allStats = this.#combineAll(stats, lastUsed);
    return {
      profiles: await this.listProfiles(),
      orders: Object.fromEntries(Object.entries(orders).map(([provider, ids]) => [provider, JSON.parse(ids) as string[]])),
      lastGood: { ...lastGood },
      stats: allStats,
      sessions: await this.#readSessions(sessionKeys),
    };
  }

  /**
   * Re-seeds a Redis that lost its data from a replica's local view. Only fills in what is missing, so
   * state another replica re-seeded first is never overwritten.
   */
  async fillMissing(snapshot: StateSnapshot): Promise<void> {
    // Each HSETNX is idempotent, so a fill interrupted half-way is simply done again; no MULTI needed.
    const k = this.#keys;
    const writes: Promise<unknown>[] = [];
    for (const profile of snapshot.profiles) writes.push(this.#client.hSetNX(k.profiles, profile.id, this.#profileRecord(profile)));
    for (const [provider, ids] of Object.entries(snapshot.orders)) writes.push(this.#client.hSetNX(k.order, provider, JSON.stringify(ids)));
    for (const [provider, id] of Object.entries(snapshot.lastGood)) writes.push(this.#client.hSetNX(k.lastGood, provider, id));
    for (const [id, stats] of Object.entries(snapshot.stats)) {
      writes.push(this.#client.hSetNX(k.stats, id, statsJson(stats)));
      if (stats.lastUsed !== undefined) writes.push(this.#client.hSetNX(k.lastUsed, id, String(stats.lastUsed)));
    }
    for (const entry of snapshot.sessions) {
      const key = k.session(entry.sessionKey);
      for (const [field, value] of Object.entries(entry)) writes.push(this.#client.hSetNX(key, field, encodeField(value)));
      writes.push(this.#client.sAdd(k.sessionIndex, entry.sessionKey));
      writes.push(this.#client.zAdd(k.sessionTouched, { score: this.#now(), value: entry.sessionKey }, { condition: "NX" }));
    }
    await Promise.all(writes);
  }

  // --- profiles and secrets ---

  #profileRecord(profile: StoredProfile): string {
    const record: StoredProfileRecord = {
      provider: profile.credential.provider,
      type: profile.credential.type,
      secret: sealCredential(this.#secrets, profile.id, profile.credential),
    };
    return JSON.stringify(record);
  }

  #credential(id: string, recordJson: string): Credential {
    const { secret } = JSON.parse(recordJson) as StoredProfileRecord;
    let credential = this.#credentialCache.get(secret);
    if (!credential) {
      credential = openCredential(this.#secrets, id, secret);
      this.#credentialCache.set(secret, credential);
    }
    return structuredClone(credential);
  }

  async listProfiles(): Promise<StoredProfile[]> {
    const records = await this.#client.hGetAll(this.#keys.profiles);
    return Object.keys(records)
      .sort()
      .map((id) => ({ id, credential: this.#credential(id, records[id] as string) }));
  }

  async getProfile(id: string): Promise<StoredProfile | undefined> {
    const record = await this.#client.hGet(this.#keys.profiles, id);
    return record ? { id, credential: this.#credential(id, record) } : undefined;
  }

  async upsertProfile(profile: StoredProfile): Promise<void> {
    await this.#client.hSet(this.#keys.profiles, profile.id, this.#profileRecord(profile));
  }

  async removeProfile(id: string): Promise<boolean> {
    const k = this.#keys;
    this.#seenStats.delete(id);
    return Number(await this.#run(REMOVE_PROFILE, [k.profiles, k.stats, k.lastUsed, k.order, k.lastGood], [id])) === 1;
  }

  // --- order and lastGood ---

  async getStoredOrder(provider: string): Promise<string[] | undefined> {
    const ids = await this.#client.hGet(this.#keys.order, provider);
    return ids ? (JSON.parse(ids) as string[]) : undefined;
  }

  async setStoredOrder(provider: string, order: string[] | undefined): Promise<void> {
    if (order === undefined) await this.#client.hDel(this.#keys.order, provider);
    else await this.#client.hSet(this.#keys.order, provider, JSON.stringify(order));
  }

  async getLastGood(provider: string): Promise<string | undefined> {
    return (await this.#client.hGet(this.#keys.lastGood, provider)) ?? undefined;
  }

  async getAllLastGood(): Promise<Record<string, string>> {
    return { ...(await this.#client.hGetAll(this.#keys.lastGood)) };
  }

  async setLastGood(provider: string, profileId: string | undefined): Promise<void> {
    if (profileId === undefined) await this.#client.hDel(this.#keys.lastGood, provider);
    else await this.#client.hSet(this.#keys.lastGood, provider, profileId);
  }

  // --- usage stats ---

  async #readStatsRaw(profileId: string): Promise<StoredStatsGuess & { stats: UsageStats | undefined }> {
    // Pipelined, not MULTI: the compare-and-set checks the stats bytes; lastUsed is carried along.
    const [raw, lastUsed] = await Promise.all([
      this.#client.hGet(this.#keys.stats, profileId),
      this.#client.hGet(this.#keys.lastUsed, profileId),
    ]);
    this.#sawStats(profileId, raw);
    return { raw: raw ?? "", lastUsed, stats: combineStats(raw, lastUsed) };
  }

  /**
   * Read, compute with the pure function, compare-and-set; on conflict again from the value the script
   * answered. `compute` returns the stats to write and how `lastUsed` changes, or `undefined` to write
   * nothing. With a `guess` of what is stored, the first attempt skips the read (the success fast path).
   */
  async #updateStats(
    profileId: string,
    compute: (current: UsageStats | undefined) =>
      | { next: UsageStats | undefined; lastUsed: "keep" | "set" | "delete"; lastGoodProvider?: string }
      | undefined,
    isAbandoned: () => boolean,
    guess?: StoredStatsGuess,
  ): Promise<UsageStats | undefined> {
    let known = guess ?? (await this.#readStatsRaw(profileId));
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const stats = combineStats(known.raw === "" ? null : known.raw, known.lastUsed);
      const update = compute(stats);
      if (!update) {
        // "Nothing to write" is only an answer when it was computed from what is stored, not from a guess.
        if (known !== guess) return stats;
        known = await this.#readStatsRaw(profileId);
        continue;
      }
      // The caller gave up waiting (Redis stopped answering) and recorded this locally instead; writing
      // now, when the read finally returns, would count it twice once the outage journal is replayed.
      if (isAbandoned()) throw new Error("Redis answered after the caller had given up; not writing.");
      const nextRaw = update.next ? statsJson(update.next) : "";
      const answer = (await this.#run(
        CAS_STATS,
        [this.#keys.stats, this.#keys.lastUsed, this.#keys.lastGood],
        [profileId, known.raw, nextRaw, update.lastUsed, update.next?.lastUsed ?? "", update.lastGoodProvider ?? ""],
      )) as [number, string?, string?];
      if (Number(answer[0]) === 1) {
        this.#sawStats(profileId, nextRaw);
        return update.next;
      }
      // Another replica wrote in between: recompute from what the script saw stored.
      known = { raw: answer[1] ?? "", lastUsed: answer[2] ? answer[2] : null };
      this.#sawStats(profileId, known.raw);
      // Back off a little (jittered) under sustained contention so contenders spread out.
      if (attempt >= 2) await sleep(Math.random() * Math.min(attempt, 20));
    }
    throw new Error(`Usage stats of ${profileId} kept changing under ${MAX_CAS_ATTEMPTS} compare-and-set attempts.`);
  }

  async getUsageStats(profileId: string): Promise<UsageStats | undefined> {
    return (await this.#readStatsRaw(profileId)).stats;
  }

  async getAllUsageStats(): Promise<Record<string, UsageStats>> {
    const [stats, lastUsed] = await Promise.all([
      this.#client.hGetAll(this.#keys.stats),
      this.#client.hGetAll(this.#keys.lastUsed),
    ]);
    return this.#combineAll(stats, lastUsed);
  }

  /** The stats of every profile from the two hashes; remembers the bytes seen for the fast path. */
  #combineAll(stats: Record<string, string>, lastUsed: Record<string, string>): Record<string, UsageStats> {
    const all: Record<string, UsageStats> = {};
    for (const id of new Set([...Object.keys(stats), ...Object.keys(lastUsed)])) {
      this.#sawStats(id, stats[id]);
      const combined = combineStats(stats[id], lastUsed[id]);
      if (combined) all[id] = combined;
    }
    return all;
  }

  async recordFailure(
    profileId: string,
    params: RecordFailureParams,
    isAbandoned: () => boolean = () => false,
  ): Promise<UsageStats> {
    const written = await this.#updateStats(profileId, (current) => ({
      next: statsAfterFailure(current, params),
      lastUsed: "keep",
    }), isAbandoned);
    return written ?? {};
  }

  async recordSuccess(
    profileId: string,
    params: { provider: string; now: number },
    isAbandoned: () => boolean = () => false,
  ): Promise<UsageStats> {
    // No read first: the stored stats are guessed from what this replica last saw (see the file comment).
    // The result does not depend on the stored lastUsed, which a success overwrites.
    // A profile never seen is guessed to have no stats yet: a wrong guess costs what a read would have.
    const written = await this.#updateStats(profileId, (current) => ({
      next: recordSuccessStats(current, { now: params.now }),
      lastUsed: "set",
      lastGoodProvider: params.provider,
    }), isAbandoned, { raw: this.#seenStats.get(profileId) ?? "", lastUsed: null });
    return written ?? {};
  }

  async markUsed(profileId: string, now: number): Promise<void> {
    const lastUsed = markUsedStats(undefined, { now }).lastUsed ?? now;
    await this.#run(BUMP_LAST_USED, [this.#keys.lastUsed], [profileId, lastUsed]);
  }

  async clearExpired(
    profileId: string,
    now: number,
    isAbandoned: () => boolean = () => false,
  ): Promise<UsageStats | undefined> {
    return this.#updateStats(profileId, (current) => {
      if (!current) return undefined;
      const next = clearExpiredStats(current, now);
      return next === current ? undefined : { next, lastUsed: "keep" };
    }, isAbandoned);
  }

  async resetUsageStats(profileId: string, isAbandoned: () => boolean = () => false): Promise<void> {
    await this.#updateStats(
      profileId,
      (current) => (current ? { next: emptyUsageStats(), lastUsed: "delete" } : undefined),
      isAbandoned,
    );
  }

  async ping(): Promise<void> {
    await this.#client.ping();
  }

  async replaceUsageStats(profileId: string, stats: UsageStats | undefined): Promise<void> {
    const raw = stats ? statsJson(stats) : "";
    await this.#run(PUT_STATS, [this.#keys.stats, this.#keys.lastUsed], [profileId, raw, stats?.lastUsed ?? ""]);
    this.#sawStats(profileId, raw);
  }

  // --- sessions ---

  async #readSessions(sessionKeys: string[]): Promise<SessionEntry[]> {
    const records = await Promise.all(sessionKeys.map((sessionKey) => this.#client.hGetAll(this.#keys.session(sessionKey))));
    return sessionKeys
      .map((sessionKey, index) => ({ sessionKey, record: records[index] ?? {} }))
      .filter(({ record }) => Object.keys(record).length > 0)
      .map(({ sessionKey, record }) => entryFromRecord(sessionKey, record))
      .sort((a, b) => a.sessionKey.localeCompare(b.sessionKey));
  }

  async getSession(sessionKey: string): Promise<SessionEntry | undefined> {
    const record = await this.#client.hGetAll(this.#keys.session(sessionKey));
    return Object.keys(record).length > 0 ? entryFromRecord(sessionKey, record) : undefined;
  }

  async listSessions(): Promise<SessionEntry[]> {
    const entries = await this.#readSessions(await this.#client.sMembers(this.#keys.sessionIndex));
    if (entries.length === 0) return entries;
    const writtenAt = await this.#client.zmScore(this.#keys.sessionTouched, entries.map((entry) => entry.sessionKey));
    return entries.map((entry, index) => withWriteTime(entry, writtenAt[index]));
  }

  async patchSession(
    sessionKey: string,
    patch: Partial<Omit<SessionEntry, "sessionKey">>,
  ): Promise<SessionEntry> {
    const args: string[] = [sessionKey, JSON.stringify(sessionKey), String(this.#now())];
    for (const [field, value] of Object.entries(patch)) {
      if (field !== "sessionKey") args.push(field, encodeField(value));
    }
    const flat = await this.#run(PATCH_SESSION, this.#sessionKeys(sessionKey), args);
    return entryFromHash(sessionKey, flat);
  }

  async compareAndSetSession(sessionKey: string, writes: SessionFieldWrite[]): Promise<SessionCasResult> {
    const args: string[] = [sessionKey, JSON.stringify(sessionKey), String(this.#now())];
    for (const write of writes) {
      if (write.field === "sessionKey") {
        throw new TypeError("compareAndSetSession cannot rewrite sessionKey; delete and recreate the session.");
      }
      args.push(write.field, encodeField(write.expected), encodeField(write.value), sessionFieldGroup(write.field));
    }
    const [flags, flat] = (await this.#run(CAS_SESSION, this.#sessionKeys(sessionKey), args)) as [string, unknown];
    const applied: SessionCasResult["applied"] = [];
    const conflicted: SessionCasResult["conflicted"] = [];
    writes.forEach((write, index) => (flags[index] === "1" ? applied : conflicted).push(write.field));
    return { applied, conflicted, entry: entryFromHash(sessionKey, flat) };
  }

  async deleteSession(sessionKey: string): Promise<boolean> {
    const deleted = await this.#run(DELETE_SESSION, this.#sessionKeys(sessionKey), [sessionKey]);
    return Number(deleted) === 1;
  }

  async pruneSessions(params: { idleSince: number; limit?: number }): Promise<string[]> {
    const limit = params.limit ?? Number.MAX_SAFE_INTEGER;
    if (limit <= 0) return [];
    const stale = await this.#client.zRangeByScore(this.#keys.sessionTouched, "-inf", `(${params.idleSince}`, {
      LIMIT: { offset: 0, count: Math.min(limit, 1_000_000) },
    });
    const removed: string[] = [];
    for (const sessionKey of stale) {
      const deleted = await this.#run(DELETE_IDLE_SESSION, this.#sessionKeys(sessionKey), [sessionKey, params.idleSince]);
      if (Number(deleted) === 1) removed.push(sessionKey);
    }
    return removed;
  }

  async evictSessions(params: { maxCount: number; limit?: number }): Promise<string[]> {
    const excess = Math.min((await this.countSessions()) - params.maxCount, params.limit ?? Number.MAX_SAFE_INTEGER, 1_000_000);
    if (excess <= 0) return [];
    const oldest = await this.#client.zRangeWithScores(this.#keys.sessionTouched, 0, excess - 1);
    const removed: string[] = [];
    for (const { value: sessionKey, score } of oldest) {
      // Deleted only if not written since it was listed: a session refreshed meanwhile is no longer the oldest.
      const deleted = await this.#run(DELETE_IDLE_SESSION, this.#sessionKeys(sessionKey), [sessionKey, score + 1]);
      if (Number(deleted) === 1) removed.push(sessionKey);
    }
    return removed;
  }

  async countSessions(): Promise<number> {
    return Number(await this.#client.zCard(this.#keys.sessionTouched));
  }

  /** Gives sessions stored before write times were kept a write time of now (see ADOPT_UNTIMED_SESSIONS). */
  async adoptUntimedSessions(): Promise<void> {
    await this.#run(ADOPT_UNTIMED_SESSIONS, [this.#keys.sessionIndex, this.#keys.sessionTouched], [this.#now()]);
  }

  async checkAvailable(): Promise<void> {
    await this.#client.ping();
  }

  // --- probe throttle ---

  async tryClaimProbe(key: string, now: number, intervalMs: number): Promise<boolean> {
    const redisKey = this.#keys.probe(key);
    // The key expires with the interval, so abandoned claims clean themselves up.
    const expiryMs = Math.max(1, Math.ceil(intervalMs));
    const claimed = await this.#client.set(redisKey, String(now), { condition: "NX", expiration: { type: "PX", value: expiryMs } });
    if (claimed === "OK") return true;
    return Number(await this.#run(TAKE_OVER_PROBE, [redisKey], [now, intervalMs, expiryMs])) === 1;
  }

  async getLastProbeAt(key: string): Promise<number | undefined> {
    const claimedAt = await this.#client.get(this.#keys.probe(key));
    return claimedAt == null ? undefined : Number(claimedAt);
  }

  // --- headroom readings (R-PO-7): see headroom-remote.ts ---

  #headroomState: RedisHeadroom | undefined;

  get #headroom(): RedisHeadroom {
    this.#headroomState ??= new RedisHeadroom(this.#client, (profileId) => this.#keys.headroom(profileId));
    return this.#headroomState;
  }

  recordHeadroom(profileId: string, readings: readonly HeadroomReading[], now: number): Promise<void> {
    return this.#headroom.record(profileId, readings, now);
  }

  headroomReadings(profileIds: readonly string[], now: number): Promise<Record<string, HeadroomReading[]>> {
    return this.#headroom.read(profileIds, now);
  }

  // --- spend (R-GW-7): see spend-remote.ts ---

  #spendState: RedisSpend | undefined;

  get #spend(): RedisSpend {
    this.#spendState ??= new RedisSpend(this.#client, (hour) => this.#keys.spend(hour));
    return this.#spendState;
  }

  recordSpend(profileId: string, costUsd: number, now: number): Promise<void> {
    return this.#spend.record(profileId, costUsd, now);
  }

  spendByProfile(now: number): Promise<Record<string, number>> {
    return this.#spend.byProfile(now);
  }

  async close(): Promise<void> {
    // The connection belongs to RedisStateStore.
  }
}
