/** The SQLite store's profiles facet: sealed credentials, stored orders and lastGood (R-AP-1…R-AP-3). */
import type { Credential } from "../../core/types.js";
import type { ProfilesStore, StoredProfile, WriteOptions } from "../../ports/state-store.js";
import { openCredential, type SecretBox, sealCredential } from "../secrets.js";
import { copyProfile } from "./read-cache.js";
import type { SqliteConnection } from "./sqlite-connection.js";

export class SqliteProfiles implements ProfilesStore {
  readonly #file: SqliteConnection;
  readonly #secrets: SecretBox;
  /** Decrypted credentials by ciphertext: each distinct ciphertext is decrypted once per process. */
  readonly #credentialCache = new Map<string, Credential>();
  /** Drops this process's batched lastUsed of a removed profile. */
  readonly #forget: (profileId: string) => void;

  constructor(file: SqliteConnection, secrets: SecretBox, forget: (profileId: string) => void) {
    this.#file = file;
    this.#secrets = secrets;
    this.#forget = forget;
  }

  #credential(profileId: string, sealed: string): Credential {
    let credential = this.#credentialCache.get(sealed);
    if (!credential) {
      credential = openCredential(this.#secrets, profileId, sealed);
      this.#credentialCache.set(sealed, credential);
    }
    return { ...credential };
  }

  async listProfiles(): Promise<StoredProfile[]> {
    const cache = this.#file.cache.fresh();
    cache.profiles ??= this.#file.sql.listProfiles.all().map((row) => ({ id: row.id, credential: this.#credential(row.id, row.secret) }));
    return cache.profiles.map(copyProfile);
  }

  async getProfile(id: string): Promise<StoredProfile | undefined> {
    const cached = this.#file.cache.fresh().profiles;
    if (cached) {
      const profile = cached.find((entry) => entry.id === id);
      return profile && copyProfile(profile);
    }
    const row = this.#file.sql.getProfile.get(id);
    return row ? { id, credential: this.#credential(id, row.secret) } : undefined;
  }

  async upsertProfile(profile: StoredProfile, _options?: WriteOptions): Promise<void> {
    const { credential } = profile;
    const sealed = sealCredential(this.#secrets, profile.id, credential);
    await this.#file.write(() => this.#file.sql.upsertProfile.run(profile.id, credential.provider, credential.type, sealed));
  }

  async removeProfile(id: string): Promise<boolean> {
    const sql = this.#file.sql;
    const existed = await this.#file.immediate(() => {
      const removed = sql.deleteProfile.run(id).changes > 0;
      sql.deleteStats.run(id);
      for (const row of sql.listOrders.all()) {
        const order = JSON.parse(row.profile_ids) as string[];
        if (!order.includes(id)) continue;
        sql.upsertOrder.run(row.provider, JSON.stringify(order.filter((entry) => entry !== id)));
      }
      for (const row of sql.listLastGood.all()) {
        if (row.profile_id === id) sql.deleteLastGood.run(row.provider);
      }
      return removed;
    });
    this.#forget(id);
    return existed;
  }

  async getStoredOrder(provider: string): Promise<string[] | undefined> {
    const cache = this.#file.cache.fresh();
    if (!cache.orders.has(provider)) {
      const row = this.#file.sql.getOrder.get(provider);
      cache.orders.set(provider, row ? (JSON.parse(row.profile_ids) as string[]) : undefined);
    }
    const order = cache.orders.get(provider);
    return order && [...order];
  }

  async setStoredOrder(provider: string, order: string[] | undefined): Promise<void> {
    await this.#file.write(() => {
      if (order === undefined) this.#file.sql.deleteOrder.run(provider);
      else this.#file.sql.upsertOrder.run(provider, JSON.stringify(order));
    });
  }

  async getLastGood(provider: string): Promise<string | undefined> {
    return this.#file.lastGoodCached().get(provider);
  }

  async getAllLastGood(): Promise<Record<string, string>> {
    return Object.fromEntries(this.#file.lastGoodCached());
  }

  async setLastGood(provider: string, profileId: string | undefined): Promise<void> {
    await this.#file.write(() => {
      if (profileId === undefined) this.#file.sql.deleteLastGood.run(provider);
      else this.#file.sql.upsertLastGood.run(provider, profileId);
    });
  }
}
