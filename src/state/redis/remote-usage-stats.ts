/**
 * The Redis store's usage-stats facet (§5). One implementation of the math: stats are read, the pure
 * `core/cooldown.ts` function computes the next value in this process, and the `CAS_STATS` script writes it
 * only if the stored value is unchanged — retried on conflict with the value the script answered. The write
 * is atomic server-side and two replicas can never lose each other's update, yet the rules are not
 * duplicated in Lua.
 *
 * Success fast path (R-SB-2, like SQLite's): a success does not read first. It compares against the stats
 * bytes this replica last saw stored, so a healthy profile's success is one script call that writes only
 * `lastUsed` (and `lastGood` when it changes). A stale guess costs one more call, never a wrong write.
 */
import {
  clearExpired as clearExpiredStats,
  markUsed as markUsedStats,
  recordFailure as statsAfterFailure,
  recordSuccess as recordSuccessStats,
  resetUsageStats as emptyUsageStats,
} from "../../core/cooldown.js";
import type { UsageStats } from "../../core/types.js";
import type { RecordFailureParams } from "../../ports/state-store.js";
import { BUMP_LAST_USED, CAS_STATS, PUT_STATS } from "./lua-scripts.js";
import type { RedisConnection } from "./redis-connection.js";

const MAX_CAS_ATTEMPTS = 200;

/** A guess at what is stored for one profile: the stats bytes ('' = none) and lastUsed (null = unknown). */
interface StoredStatsGuess {
  raw: string;
  lastUsed: string | null;
}

type StatsUpdate = { next: UsageStats | undefined; lastUsed: "keep" | "set" | "delete"; lastGoodProvider?: string };

export function combineStats(raw: string | null | undefined, lastUsed: string | null | undefined): UsageStats | undefined {
  if (raw == null && lastUsed == null) return undefined;
  const stats = raw == null ? {} : (JSON.parse(raw) as UsageStats);
  if (lastUsed != null) stats.lastUsed = Number(lastUsed);
  return stats;
}

/** The stats hash's value: everything but `lastUsed`, which has its own hash. */
export function statsJson(stats: UsageStats): string {
  const { lastUsed: _lastUsed, ...rest } = stats;
  return JSON.stringify(rest);
}

export class RemoteUsageStats {
  readonly #redis: RedisConnection;
  /**
   * The stats bytes last seen stored, per profile: the success fast path's guess. Only ever a guess —
   * every write compares against Redis — so it may be stale; bounded by the profiles in the stats hash.
   */
  readonly #seenStats = new Map<string, string>();

  constructor(redis: RedisConnection) {
    this.#redis = redis;
  }

  /** Forgets the guess about a removed profile. */
  forget(profileId: string): void {
    this.#seenStats.delete(profileId);
  }

  #sawStats(profileId: string, raw: string | null | undefined): void {
    if (raw == null || raw === "") this.#seenStats.delete(profileId);
    else this.#seenStats.set(profileId, raw);
  }

  async #readStatsRaw(profileId: string): Promise<StoredStatsGuess & { stats: UsageStats | undefined }> {
    // Pipelined, not MULTI: the compare-and-set checks the stats bytes; lastUsed is carried along.
    const [raw, lastUsed] = await Promise.all([
      this.#redis.client.hGet(this.#redis.keys.stats, profileId),
      this.#redis.client.hGet(this.#redis.keys.lastUsed, profileId),
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
    compute: (current: UsageStats | undefined) => StatsUpdate | undefined,
    isAbandoned: () => boolean,
    guess?: StoredStatsGuess,
  ): Promise<UsageStats | undefined> {
    const { keys } = this.#redis;
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
      const answer = (await this.#redis.run(
        CAS_STATS,
        [keys.stats, keys.lastUsed, keys.lastGood],
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
      if (attempt >= 2) await this.#redis.clock.sleep(this.#redis.random.next() * Math.min(attempt, 20));
    }
    throw new Error(`Usage stats of ${profileId} kept changing under ${MAX_CAS_ATTEMPTS} compare-and-set attempts.`);
  }

  async getUsageStats(profileId: string): Promise<UsageStats | undefined> {
    return (await this.#readStatsRaw(profileId)).stats;
  }

  async getAllUsageStats(): Promise<Record<string, UsageStats>> {
    const [stats, lastUsed] = await Promise.all([
      this.#redis.client.hGetAll(this.#redis.keys.stats),
      this.#redis.client.hGetAll(this.#redis.keys.lastUsed),
    ]);
    return this.combineAll(stats, lastUsed);
  }

  /** The stats of every profile from the two hashes; remembers the bytes seen for the fast path. */
  combineAll(stats: Record<string, string>, lastUsed: Record<string, string>): Record<string, UsageStats> {
    const all: Record<string, UsageStats> = {};
    for (const id of new Set([...Object.keys(stats), ...Object.keys(lastUsed)])) {
      this.#sawStats(id, stats[id]);
      const combined = combineStats(stats[id], lastUsed[id]);
      if (combined) all[id] = combined;
    }
    return all;
  }

  async recordFailure(profileId: string, params: RecordFailureParams, isAbandoned: () => boolean = () => false): Promise<UsageStats> {
    const written = await this.#updateStats(
      profileId,
      (current) => ({ next: statsAfterFailure(current, params), lastUsed: "keep" }),
      isAbandoned,
    );
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
    const written = await this.#updateStats(
      profileId,
      (current) => ({ next: recordSuccessStats(current, { now: params.now }), lastUsed: "set", lastGoodProvider: params.provider }),
      isAbandoned,
      { raw: this.#seenStats.get(profileId) ?? "", lastUsed: null },
    );
    return written ?? {};
  }

  async markUsed(profileId: string, now: number): Promise<void> {
    const lastUsed = markUsedStats(undefined, { now }).lastUsed ?? now;
    await this.#redis.run(BUMP_LAST_USED, [this.#redis.keys.lastUsed], [profileId, lastUsed]);
  }

  async clearExpired(profileId: string, now: number, isAbandoned: () => boolean = () => false): Promise<UsageStats | undefined> {
    return this.#updateStats(
      profileId,
      (current) => {
        if (!current) return undefined;
        const next = clearExpiredStats(current, now);
        return next === current ? undefined : { next, lastUsed: "keep" };
      },
      isAbandoned,
    );
  }

  async resetUsageStats(profileId: string, isAbandoned: () => boolean = () => false): Promise<void> {
    await this.#updateStats(profileId, (current) => (current ? { next: emptyUsageStats(), lastUsed: "delete" } : undefined), isAbandoned);
  }

  async replaceUsageStats(profileId: string, stats: UsageStats | undefined): Promise<void> {
    const raw = stats ? statsJson(stats) : "";
    await this.#redis.run(PUT_STATS, [this.#redis.keys.stats, this.#redis.keys.lastUsed], [profileId, raw, stats?.lastUsed ?? ""]);
    this.#sawStats(profileId, raw);
  }
}
