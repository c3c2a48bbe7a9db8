/**
 * Parsed rows of the reads a run performs, kept until the file changes (R-SB-2: the read a run performs
 * must stay cheap). Another process's commit changes `PRAGMA data_version`; this process's own writes call
 * `invalidate()`. Values are handed out as copies, so callers can never change what the cache holds.
 */
import type Database from "better-sqlite3";
import type { SessionEntry, UsageStats } from "../../core/types.js";
import type { StoredProfile } from "../../ports/state-store.js";

export function copyStats(stats: UsageStats): UsageStats {
  return stats.failureCounts ? { ...stats, failureCounts: { ...stats.failureCounts } } : { ...stats };
}

export function copyProfile(profile: StoredProfile): StoredProfile {
  return { id: profile.id, credential: { ...profile.credential } };
}

export class ReadCache {
  readonly #dataVersion: Database.Statement<[], number>;
  #seenVersion: number | undefined;
  profiles: StoredProfile[] | undefined;
  allStats: Map<string, UsageStats> | undefined;
  lastGood: Map<string, string> | undefined;
  readonly orders = new Map<string, string[] | undefined>();
  readonly stats = new Map<string, UsageStats | undefined>();
  readonly sessions = new Map<string, SessionEntry | undefined>();

  constructor(db: Database.Database) {
    this.#dataVersion = db.prepare<[], number>("PRAGMA data_version").pluck();
  }

  /** Drops everything if another connection committed since the last look; returns this for chaining. */
  fresh(): this {
    const version = this.#dataVersion.get();
    if (version !== this.#seenVersion) {
      this.invalidate();
      this.#seenVersion = version;
    }
    return this;
  }

  invalidate(): void {
    this.profiles = undefined;
    this.allStats = undefined;
    this.lastGood = undefined;
    this.orders.clear();
    this.stats.clear();
    this.sessions.clear();
  }
}
