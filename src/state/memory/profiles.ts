/** The memory store's profiles facet: profiles, stored orders and lastGood (R-AP-1…R-AP-3). */
import type { ProfilesStore, StoredProfile } from "../../ports/state-store.js";
import { clone } from "./clone.js";

export class MemoryProfiles implements ProfilesStore {
  readonly #profiles = new Map<string, StoredProfile>();
  readonly #storedOrder = new Map<string, string[]>();
  readonly #lastGood = new Map<string, string>();
  readonly #changed: () => void;
  /** Drops what other facets keep of a removed profile (its usage stats and spend). */
  readonly #forget: (profileId: string) => void;

  constructor(changed: () => void, forget: (profileId: string) => void) {
    this.#changed = changed;
    this.#forget = forget;
  }

  async listProfiles(): Promise<StoredProfile[]> {
    return [...this.#profiles.values()].map(clone);
  }

  async getProfile(id: string): Promise<StoredProfile | undefined> {
    const profile = this.#profiles.get(id);
    return profile ? clone(profile) : undefined;
  }

  async upsertProfile(profile: StoredProfile): Promise<void> {
    this.#changed();
    this.#profiles.set(profile.id, clone(profile));
  }

  async removeProfile(id: string): Promise<boolean> {
    this.#changed();
    const existed = this.#profiles.delete(id);
    this.#forget(id);
    for (const [provider, order] of this.#storedOrder) {
      if (order.includes(id))
        this.#storedOrder.set(
          provider,
          order.filter((entry) => entry !== id),
        );
    }
    for (const [provider, profileId] of this.#lastGood) {
      if (profileId === id) this.#lastGood.delete(provider);
    }
    return existed;
  }

  async getStoredOrder(provider: string): Promise<string[] | undefined> {
    const order = this.#storedOrder.get(provider);
    return order ? [...order] : undefined;
  }

  async setStoredOrder(provider: string, order: string[] | undefined): Promise<void> {
    this.#changed();
    if (order === undefined) this.#storedOrder.delete(provider);
    else this.#storedOrder.set(provider, [...order]);
  }

  async getLastGood(provider: string): Promise<string | undefined> {
    return this.#lastGood.get(provider);
  }

  async getAllLastGood(): Promise<Record<string, string>> {
    return Object.fromEntries(this.#lastGood);
  }

  async setLastGood(provider: string, profileId: string | undefined): Promise<void> {
    this.#changed();
    this.#noteLastGood(provider, profileId);
  }

  /** lastGood as a success writes it, counted once with the success (R-CD-7). */
  noteLastGood(provider: string, profileId: string): void {
    this.#noteLastGood(provider, profileId);
  }

  #noteLastGood(provider: string, profileId: string | undefined): void {
    if (profileId === undefined) this.#lastGood.delete(provider);
    else this.#lastGood.set(provider, profileId);
  }
}
