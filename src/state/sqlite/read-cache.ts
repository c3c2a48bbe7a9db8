/**
 * Parsed rows of the reads a run performs, kept until the file changes (R-SB-2: the read a run performs
 * must stay cheap). Another process's commit changes `PRAGMA data_version`; this process's own writes call
 * `invalidate()`. Values are handed out as copies, so callers can never change what the cache holds.
 *
 * `PRAGMA data_version` is not free: it opens a WAL read transaction (shared-memory locks), about 5 µs, as
 * much as the rest of a run's reads together. So it is asked once per event-loop turn rather than once per
 * read: the reads of one turn form one snapshot, and every later turn (a new request, a timer, the reply
 * of another process) looks again, so another process's commit is seen by the next run. Connections of
 * this same process count their commits in `localCommits`, which forces a new look even within a turn.
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

/** Commits made by any SQLite store of this process; another connection's cache must then look again. */
let localCommits = 0;

/** Called after every write of this process (whether or not it committed: a rollback costs only a look). */
export function noteLocalCommit(): void {
  localCommits += 1;
}

export class ReadCache {
  readonly #dataVersion: Database.Statement<[], number>;
  #seenVersion: number | undefined;
  /** True from a data_version look until the end of the current event-loop turn. */
  #lookedThisTurn = false;
  #lookedAtLocalCommits = -1;
  readonly #endTurn = () => {
    this.#lookedThisTurn = false;
  };
  profiles: StoredProfile[] | undefined;
  allStats: Map<string, UsageStats> | undefined;
  lastGood: Map<string, string> | undefined;
  readonly orders = new Map<string, string[] | undefined>();
  readonly stats = new Map<string, UsageStats | undefined>();
  readonly sessions = new Map<string, SessionEntry | undefined>();
  /** Counts invalidations: every write of this store and every commit of another connection seen. */
  revision = 0;

  constructor(db: Database.Database) {
    this.#dataVersion = db.prepare<[], number>("PRAGMA data_version").pluck();
  }

  /** Drops everything if another connection committed since the last look; returns this for chaining. */
  fresh(): this {
    if (this.#lookedThisTurn && this.#lookedAtLocalCommits === localCommits) return this;
    if (!this.#lookedThisTurn) {
      this.#lookedThisTurn = true;
      // Node drains the nextTick queue before it runs the next event-loop callback: a new turn looks again.
      process.nextTick(this.#endTurn);
    }
    this.#lookedAtLocalCommits = localCommits;
    const version = this.#dataVersion.get();
    if (version !== this.#seenVersion) {
      this.invalidate();
      this.#seenVersion = version;
    }
    return this;
  }

  invalidate(): void {
    this.revision += 1;
    this.profiles = undefined;
    this.allStats = undefined;
    this.lastGood = undefined;
    this.orders.clear();
    this.stats.clear();
    this.sessions.clear();
  }
}
