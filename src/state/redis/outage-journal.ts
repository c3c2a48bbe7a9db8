/**
 * The changes a Redis store made to its local view while Redis was away, to be replayed through the normal
 * atomic paths when it answers again (R-SB-3). Bounded: a very long outage drops its oldest changes first.
 */
import type { RemoteRedisState } from "./redis-remote.js";

export type JournalEntry = (remote: RemoteRedisState) => Promise<unknown>;

/** Bounds the journal of a very long outage; the oldest local changes are dropped first. */
const MAX_JOURNAL_ENTRIES = 100_000;

export class OutageJournal {
  readonly #entries: JournalEntry[] = [];

  get length(): number {
    return this.#entries.length;
  }

  add(entry: JournalEntry): void {
    this.#entries.push(entry);
    if (this.#entries.length > MAX_JOURNAL_ENTRIES) this.#entries.shift();
  }

  /** Replays (and removes) the oldest `count` entries, in order; an entry that throws stays for the next try. */
  async replay(remote: RemoteRedisState, count: number): Promise<void> {
    for (let index = 0; index < count && this.#entries.length > 0; index += 1) {
      const entry = this.#entries[0] as JournalEntry;
      await entry(remote);
      this.#entries.shift();
    }
  }
}
