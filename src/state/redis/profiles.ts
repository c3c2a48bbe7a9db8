/**
 * The Redis store's profiles facet: sealed credentials, stored orders and lastGood (R-AP-1…R-AP-3).
 * `RemoteProfiles` talks to Redis; `RedisProfiles` routes each call through the outage handling.
 */
import type { Credential } from "../../core/types.js";
import type { ProfilesStore, StoredProfile, WriteOptions } from "../../ports/state-store.js";
import { openCredential, sealCredential } from "../secrets.js";
import { REMOVE_PROFILE } from "./lua-scripts.js";
import type { RedisConnection } from "./redis-connection.js";
import type { Route } from "./route.js";

interface StoredProfileRecord {
  provider: string;
  type: Credential["type"];
  secret: string;
}

export class RemoteProfiles {
  readonly #redis: RedisConnection;
  readonly #credentialCache = new Map<string, Credential>();
  /** Drops what the usage-stats half guesses about a removed profile. */
  readonly #forget: (profileId: string) => void;

  constructor(redis: RedisConnection, forget: (profileId: string) => void) {
    this.#redis = redis;
    this.#forget = forget;
  }

  /** The stored form of a profile: its credential sealed (R-AP-2). */
  record(profile: StoredProfile): string {
    const record: StoredProfileRecord = {
      provider: profile.credential.provider,
      type: profile.credential.type,
      secret: sealCredential(this.#redis.secrets, profile.id, profile.credential),
    };
    return JSON.stringify(record);
  }

  #credential(id: string, recordJson: string): Credential {
    const { secret } = JSON.parse(recordJson) as StoredProfileRecord;
    let credential = this.#credentialCache.get(secret);
    if (!credential) {
      credential = openCredential(this.#redis.secrets, id, secret);
      this.#credentialCache.set(secret, credential);
    }
    return structuredClone(credential);
  }

  async listProfiles(): Promise<StoredProfile[]> {
    const records = await this.#redis.client.hGetAll(this.#redis.keys.profiles);
    return Object.keys(records)
      .sort()
      .map((id) => ({ id, credential: this.#credential(id, records[id] as string) }));
  }

  async getProfile(id: string): Promise<StoredProfile | undefined> {
    const record = await this.#redis.client.hGet(this.#redis.keys.profiles, id);
    return record ? { id, credential: this.#credential(id, record) } : undefined;
  }

  async upsertProfile(profile: StoredProfile): Promise<void> {
    await this.#redis.client.hSet(this.#redis.keys.profiles, profile.id, this.record(profile));
  }

  async removeProfile(id: string): Promise<boolean> {
    const k = this.#redis.keys;
    this.#forget(id);
    return Number(await this.#redis.run(REMOVE_PROFILE, [k.profiles, k.stats, k.lastUsed, k.order, k.lastGood], [id])) === 1;
  }

  async getStoredOrder(provider: string): Promise<string[] | undefined> {
    const ids = await this.#redis.client.hGet(this.#redis.keys.order, provider);
    return ids ? (JSON.parse(ids) as string[]) : undefined;
  }

  async setStoredOrder(provider: string, order: string[] | undefined): Promise<void> {
    if (order === undefined) await this.#redis.client.hDel(this.#redis.keys.order, provider);
    else await this.#redis.client.hSet(this.#redis.keys.order, provider, JSON.stringify(order));
  }

  async getLastGood(provider: string): Promise<string | undefined> {
    return (await this.#redis.client.hGet(this.#redis.keys.lastGood, provider)) ?? undefined;
  }

  async getAllLastGood(): Promise<Record<string, string>> {
    return { ...(await this.#redis.client.hGetAll(this.#redis.keys.lastGood)) };
  }

  async setLastGood(provider: string, profileId: string | undefined): Promise<void> {
    if (profileId === undefined) await this.#redis.client.hDel(this.#redis.keys.lastGood, provider);
    else await this.#redis.client.hSet(this.#redis.keys.lastGood, provider, profileId);
  }
}

export class RedisProfiles implements ProfilesStore {
  readonly #run: Route<RemoteProfiles>;
  /** Providers whose stored order the local view may hold (the memory store cannot list them). */
  readonly #orderProviders: Set<string>;

  constructor(run: Route<RemoteProfiles>, orderProviders: Set<string>) {
    this.#run = run;
    this.#orderProviders = orderProviders;
  }

  listProfiles(): Promise<StoredProfile[]> {
    return this.#run(
      (r) => r.listProfiles(),
      (v) => v.listProfiles(),
      {
        mirror: async (view, profiles) => {
          const current = new Set(profiles.map((profile) => profile.id));
          for (const stale of await view.listProfiles()) if (!current.has(stale.id)) await view.removeProfile(stale.id);
          for (const profile of profiles) await view.upsertProfile(profile);
        },
      },
    );
  }

  getProfile(id: string): Promise<StoredProfile | undefined> {
    return this.#run(
      (r) => r.getProfile(id),
      (v) => v.getProfile(id),
      {
        mirror: (view, profile) => (profile ? view.upsertProfile(profile) : view.removeProfile(id)),
      },
    );
  }

  upsertProfile(profile: StoredProfile, options?: WriteOptions): Promise<void> {
    return this.#run(
      (r) => r.upsertProfile(profile),
      (v) => v.upsertProfile(profile),
      {
        mirror: (view) => view.upsertProfile(profile),
        replay: (r) => r.upsertProfile(profile),
        durability: options?.durability ?? "required",
      },
    );
  }

  removeProfile(id: string): Promise<boolean> {
    return this.#run(
      (r) => r.removeProfile(id),
      (v) => v.removeProfile(id),
      {
        mirror: (view) => view.removeProfile(id),
        replay: (r) => r.removeProfile(id),
        durability: "required",
      },
    );
  }

  getStoredOrder(provider: string): Promise<string[] | undefined> {
    this.#orderProviders.add(provider);
    return this.#run(
      (r) => r.getStoredOrder(provider),
      (v) => v.getStoredOrder(provider),
      {
        mirror: (view, order) => view.setStoredOrder(provider, order),
      },
    );
  }

  setStoredOrder(provider: string, order: string[] | undefined): Promise<void> {
    this.#orderProviders.add(provider);
    return this.#run(
      (r) => r.setStoredOrder(provider, order),
      (v) => v.setStoredOrder(provider, order),
      {
        mirror: (view) => view.setStoredOrder(provider, order),
        replay: (r) => r.setStoredOrder(provider, order),
        durability: "required",
      },
    );
  }

  getLastGood(provider: string): Promise<string | undefined> {
    return this.#run(
      (r) => r.getLastGood(provider),
      (v) => v.getLastGood(provider),
      {
        mirror: (view, id) => view.setLastGood(provider, id),
      },
    );
  }

  getAllLastGood(): Promise<Record<string, string>> {
    return this.#run(
      (r) => r.getAllLastGood(),
      (v) => v.getAllLastGood(),
      {
        mirror: async (view, all) => {
          for (const provider of Object.keys(await view.getAllLastGood())) await view.setLastGood(provider, all[provider]);
          for (const [provider, id] of Object.entries(all)) await view.setLastGood(provider, id);
        },
      },
    );
  }

  setLastGood(provider: string, profileId: string | undefined): Promise<void> {
    return this.#run(
      (r) => r.setLastGood(provider, profileId),
      (v) => v.setLastGood(provider, profileId),
      {
        mirror: (view) => view.setLastGood(provider, profileId),
        replay: (r) => r.setLastGood(provider, profileId),
        durability: "required",
      },
    );
  }
}
