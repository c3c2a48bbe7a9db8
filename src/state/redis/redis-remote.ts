/**
 * The Redis backend's half that talks to a live Redis (SPEC §16 `redis`), one part per facet (the `Remote…`
 * classes in profiles.ts, usage-stats.ts, sessions.ts, probes.ts, headroom.ts, spend.ts), plus what concerns
 * the whole data set: the key checks, the epoch, snapshots and re-seeding. No fallback logic here: every
 * method talks to Redis and throws when it cannot; `redis-link.ts` decides what an outage means.
 */
import type { SessionEntry, UsageStats } from "../../core/types.js";
import type { StoredProfile } from "../../ports/state-store.js";
import { RemoteHeadroom } from "./headroom.js";
import { ADOPT_UNTIMED_SESSIONS } from "./lua-scripts.js";
import { RemoteProbes } from "./probes.js";
import { RemoteProfiles } from "./profiles.js";
import type { RedisConnection } from "./redis-connection.js";
import { encodeField, RemoteSessions } from "./sessions.js";
import { RemoteSpend } from "./spend.js";
import { RemoteUsageStats, statsJson } from "./remote-usage-stats.js";

/** Everything a replica keeps, as plain values: what the local view is seeded from and re-seeds Redis with. */
export interface StateSnapshot {
  profiles: StoredProfile[];
  orders: Record<string, string[]>;
  lastGood: Record<string, string>;
  stats: Record<string, UsageStats>;
  sessions: SessionEntry[];
}

export class RemoteRedisState {
  readonly #redis: RedisConnection;
  readonly usageStats: RemoteUsageStats;
  readonly profiles: RemoteProfiles;
  readonly sessions: RemoteSessions;
  readonly probes: RemoteProbes;
  readonly headroom: RemoteHeadroom;
  readonly spend: RemoteSpend;

  constructor(redis: RedisConnection) {
    this.#redis = redis;
    this.usageStats = new RemoteUsageStats(redis);
    this.profiles = new RemoteProfiles(redis, (profileId) => this.usageStats.forget(profileId));
    this.sessions = new RemoteSessions(redis);
    this.probes = new RemoteProbes(redis);
    this.headroom = new RemoteHeadroom(redis.client, (profileId) => redis.keys.headroom(profileId));
    this.spend = new RemoteSpend(redis.client, (hour) => redis.keys.spend(hour));
  }

  /**
   * Writes the key checks once and verifies them (R-SB-4): a wrong key fails here, never later. The agent's
   * own check comes first, so a replica with a wrong key never writes the prefix-wide one of a Redis that
   * predates it.
   */
  async verifySecretKey(): Promise<void> {
    const { client, keys, secrets } = this.#redis;
    await client.hSetNX(keys.meta, "keyCheck", secrets.makeKeyCheck());
    const stored = await client.hGet(keys.meta, "keyCheck");
    if (stored) secrets.verifyKeyCheck(stored);
    await client.set(keys.sharedKeyCheck, secrets.makeKeyCheck(), { NX: true });
    const shared = await client.get(keys.sharedKeyCheck);
    if (shared) secrets.verifyKeyCheck(shared);
  }

  /** The data-set epoch: it disappears when Redis loses its data, and changes when a replica re-seeds it. */
  async readEpoch(): Promise<string | undefined> {
    return (await this.#redis.client.hGet(this.#redis.keys.meta, "epoch")) ?? undefined;
  }

  /** Sets the epoch if none is set and returns the one in force. */
  async adoptEpoch(candidate: string): Promise<string> {
    await this.#redis.client.hSetNX(this.#redis.keys.meta, "epoch", candidate);
    return (await this.#redis.client.hGet(this.#redis.keys.meta, "epoch")) ?? candidate;
  }

  async loadSnapshot(): Promise<StateSnapshot> {
    const { client, keys } = this.#redis;
    const [orders, lastGood, stats, lastUsed, sessionKeys] = await Promise.all([
      client.hGetAll(keys.order),
      client.hGetAll(keys.lastGood),
      client.hGetAll(keys.stats),
      client.hGetAll(keys.lastUsed),
      client.sMembers(keys.sessionIndex),
    ]);
    const allStats = this.usageStats.combineAll(stats, lastUsed);
    return {
      profiles: await this.profiles.listProfiles(),
      orders: Object.fromEntries(Object.entries(orders).map(([provider, ids]) => [provider, JSON.parse(ids) as string[]])),
      lastGood: { ...lastGood },
      stats: allStats,
      sessions: await this.sessions.readSessions(sessionKeys),
    };
  }

  /**
   * Re-seeds a Redis that lost its data from a replica's local view. Only fills in what is missing, so
   * state another replica re-seeded first is never overwritten.
   */
  async fillMissing(snapshot: StateSnapshot): Promise<void> {
    // Each HSETNX is idempotent, so a fill interrupted half-way is simply done again; no MULTI needed.
    const { client, keys: k } = this.#redis;
    const writes: Promise<unknown>[] = [];
    for (const profile of snapshot.profiles) writes.push(client.hSetNX(k.profiles, profile.id, this.profiles.record(profile)));
    for (const [provider, ids] of Object.entries(snapshot.orders)) writes.push(client.hSetNX(k.order, provider, JSON.stringify(ids)));
    for (const [provider, id] of Object.entries(snapshot.lastGood)) writes.push(client.hSetNX(k.lastGood, provider, id));
    for (const [id, stats] of Object.entries(snapshot.stats)) {
      writes.push(client.hSetNX(k.stats, id, statsJson(stats)));
      if (stats.lastUsed !== undefined) writes.push(client.hSetNX(k.lastUsed, id, String(stats.lastUsed)));
    }
    for (const entry of snapshot.sessions) {
      const key = k.session(entry.sessionKey);
      for (const [field, value] of Object.entries(entry)) writes.push(client.hSetNX(key, field, encodeField(value)));
      writes.push(client.sAdd(k.sessionIndex, entry.sessionKey));
      writes.push(client.zAdd(k.sessionTouched, { score: this.#redis.now(), value: entry.sessionKey }, { condition: "NX" }));
    }
    await Promise.all(writes);
  }

  /** Gives sessions stored before write times were kept a write time of now (see ADOPT_UNTIMED_SESSIONS). */
  async adoptUntimedSessions(): Promise<void> {
    const { keys } = this.#redis;
    await this.#redis.run(ADOPT_UNTIMED_SESSIONS, [keys.sessionIndex, keys.sessionTouched], [this.#redis.now()]);
  }

  async ping(): Promise<void> {
    await this.#redis.client.ping();
  }

  async checkAvailable(): Promise<void> {
    await this.#redis.client.ping();
  }
}
