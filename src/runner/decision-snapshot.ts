/**
 * The decision of a healthy run from memory (DESIGN §1): what a provider view is built from — the provider's
 * profiles and credentials, its stored order, their usage stats and headroom readings — is kept per provider
 * and reused for as long as the store's `changeStamp()` holds. Any write (this process's or another's, seen
 * the way the backend sees it) moves the stamp and the next decision reads the store again, so every R-* rule
 * sees exactly what a fresh read would have shown. A backend without a stamp is read every time.
 *
 * The one write a healthy run makes itself — its success (R-CD-7: `lastUsed`, counters cleared) — is applied
 * to the snapshot instead of dropping it, but only when it was the only change in between (the stamp moved by
 * exactly one across the store call); otherwise the snapshot is dropped as for any other change. A write
 * that is still retried (a busy SQLite file) moves the stamp again on each try, so the snapshot never
 * outlives it.
 *
 * What the snapshot holds is shared by the views built from it: nobody may change it (views copy the stats
 * record they amend).
 */
import { markUsed as markUsedStats, recordSuccess as recordSuccessStats } from "../core/cooldown.js";
import type { HeadroomReading } from "../core/headroom/reading.js";
import type { Credential, UsageStats } from "../core/types.js";
import type { StateStore } from "../ports/state-store.js";
import type { ProviderProfiles } from "./runner-deps.js";

/** One provider's decision inputs as read from the store at one stamp. */
export interface ProviderInputs {
  source: ProviderProfiles;
  /** Provider of every known profile (for session pins, R-PO-5). */
  profileProviders: Readonly<Record<string, string>>;
  credentials: ReadonlyMap<string, Credential>;
  /** Every profile id the order may name: listed, stored order and configured order. */
  ids: readonly string[];
  stats: Record<string, UsageStats | undefined>;
  /** R-PO-7 readings as read (fresh then); a view keeps those still fresh at its own `now`. */
  readings?: Readonly<Record<string, readonly HeadroomReading[]>>;
}

export class DecisionSnapshot {
  readonly #store: Pick<StateStore, "changeStamp">;
  #stamp: number | undefined;
  readonly #providers = new Map<string, ProviderInputs>();

  constructor(store: Pick<StateStore, "changeStamp">) {
    this.#store = store;
  }

  /** The store's stamp now; undefined when it has none (nothing is kept then). */
  stamp(): number | undefined {
    return this.#store.changeStamp?.();
  }

  /** The provider's inputs when nothing changed since they were read; drops everything once something did. */
  current(provider: string): ProviderInputs | undefined {
    const stamp = this.stamp();
    if (stamp === undefined) return undefined;
    if (stamp !== this.#stamp) {
      this.#providers.clear();
      this.#stamp = stamp;
      return undefined;
    }
    return this.#providers.get(provider);
  }

  /** Keeps inputs read from `readAt` on, unless the store changed while they were read. */
  keep(provider: string, inputs: ProviderInputs, readAt: number | undefined): void {
    if (readAt === undefined || this.stamp() !== readAt) return;
    if (this.#stamp !== readAt) {
      this.#providers.clear();
      this.#stamp = readAt;
    }
    this.#providers.set(provider, inputs);
  }

  /**
   * A success (R-CD-7) the store applied between the stamps `before` and `after`, taken synchronously around
   * the store call: when it was the only change (one step of the stamp) the store applied the same core math
   * to the same stats the snapshot holds, so the snapshot applies it too; otherwise it is dropped anyway.
   */
  noteSuccess(profileId: string, now: number, before: number | undefined, after: number | undefined): void {
    this.#apply(profileId, before, after, (current) => recordSuccessStats(current, { now }));
  }

  /** `markUsed` (only `lastUsed` moves), under the same one-step condition. */
  noteUsed(profileId: string, now: number, before: number | undefined, after: number | undefined): void {
    this.#apply(profileId, before, after, (current) => markUsedStats(current, { now }));
  }

  #apply(
    profileId: string,
    before: number | undefined,
    after: number | undefined,
    next: (current: UsageStats | undefined) => UsageStats,
  ): void {
    if (before === undefined || after !== before + 1 || this.#stamp !== before) return;
    this.#stamp = after;
    for (const inputs of this.#providers.values()) {
      if (Object.hasOwn(inputs.stats, profileId)) inputs.stats[profileId] = next(inputs.stats[profileId]);
    }
  }
}
