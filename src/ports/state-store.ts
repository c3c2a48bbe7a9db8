/**
 * The one storage interface of Detour (SPEC §16), the composition of its facets (one file each under
 * `state-store/`). Three backends implement every facet (state/{memory,sqlite,redis}/<facet>.ts) and one
 * contract suite (`state/__fixtures__/store-contract/`) checks them all.
 *
 * Every mutating method is atomic with respect to other processes sharing the store: usage-stat
 * updates apply the pure core math (`core/cooldown.ts`) inside one transaction / server-side script.
 */
import type { HeadroomStore } from "./state-store/headroom.js";
import type { StoreLifecycle } from "./state-store/lifecycle.js";
import type { ProbesStore } from "./state-store/probes.js";
import type { ProfilesStore } from "./state-store/profiles.js";
import type { SessionsStore } from "./state-store/sessions.js";
import type { SpendStore } from "./state-store/spend.js";
import type { UsageStatsStore } from "./state-store/usage-stats.js";

export type { HeadroomStore } from "./state-store/headroom.js";
export type { StoreLifecycle } from "./state-store/lifecycle.js";
export type { ProbesStore } from "./state-store/probes.js";
export type { ProfilesStore, StoredProfile } from "./state-store/profiles.js";
export {
  SESSION_AUTH_PIN_GROUP,
  SESSION_MODEL_GROUP,
  type SessionCasResult,
  type SessionFieldWrite,
  type SessionsStore,
  sessionFieldGroup,
  sessionGroupFields,
} from "./state-store/sessions.js";
export type { SpendStore } from "./state-store/spend.js";
export type { RecordFailureParams, UsageStatsStore } from "./state-store/usage-stats.js";
export type { WriteDurability, WriteOptions } from "./state-store/write-options.js";

export interface StateStore extends ProfilesStore, UsageStatsStore, SessionsStore, ProbesStore, HeadroomStore, SpendStore, StoreLifecycle {}
