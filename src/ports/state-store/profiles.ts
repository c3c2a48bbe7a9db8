/** The profiles facet: stored credentials (R-AP-1, R-AP-2), stored orders and lastGood (R-AP-3). */
import type { Credential } from "../../core/types.js";
import type { WriteOptions } from "./write-options.js";

export interface StoredProfile {
  id: string;
  credential: Credential;
}

export interface ProfilesStore {
  listProfiles(): Promise<StoredProfile[]>;
  getProfile(id: string): Promise<StoredProfile | undefined>;
  /** Explicit by default: fails with `DETOUR_STORE_UNAVAILABLE` unless the backend took it (R-SB-5). */
  upsertProfile(profile: StoredProfile, options?: WriteOptions): Promise<void>;
  /** Removes the profile, its usage stats, and its entries in stored orders. Returns whether it existed. */
  removeProfile(id: string): Promise<boolean>;

  getStoredOrder(provider: string): Promise<string[] | undefined>;
  /** `undefined` clears the stored order. */
  setStoredOrder(provider: string, order: string[] | undefined): Promise<void>;
  getLastGood(provider: string): Promise<string | undefined>;
  getAllLastGood(): Promise<Record<string, string>>;
  /**
   * Sets or clears `lastGood[provider]` directly. The runner goes through `recordSuccess`; this exists for
   * the legacy import (R-AP-6) and for re-seeding a Redis that lost its data (R-SB-3).
   */
  setLastGood(provider: string, profileId: string | undefined): Promise<void>;
}
