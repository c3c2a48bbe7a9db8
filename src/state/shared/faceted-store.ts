/**
 * What every backend's store class shares: it is the composition of its facet objects (one file per facet in
 * each backend), and the port's methods go to the facet that owns them. A backend builds its facets, hands
 * them over as `facets`, and adds only what is its own (opening, availability, the change stamp, closing).
 */
import type {
  HeadroomStore,
  ProbesStore,
  ProfilesStore,
  SessionsStore,
  SpendStore,
  StateStore,
  StoreLifecycle,
  UsageStatsStore,
} from "../../ports/state-store.js";

export interface StoreFacets {
  profiles: ProfilesStore;
  usageStats: UsageStatsStore;
  sessions: SessionsStore;
  probes: ProbesStore;
  headroom: HeadroomStore;
  spend: SpendStore;
}

/** The facets' methods: everything of the port but the lifecycle (which each backend writes itself). */
type FacetMethods = Omit<StateStore, keyof StoreLifecycle>;
type P<K extends keyof FacetMethods> = Parameters<FacetMethods[K]>;

export abstract class FacetedStateStore implements FacetMethods {
  /** Set by the backend's constructor; read on each call. */
  protected abstract readonly facets: StoreFacets;

  // --- profiles, orders and lastGood ---
  listProfiles(...args: P<"listProfiles">) {
    return this.facets.profiles.listProfiles(...args);
  }
  getProfile(...args: P<"getProfile">) {
    return this.facets.profiles.getProfile(...args);
  }
  upsertProfile(...args: P<"upsertProfile">) {
    return this.facets.profiles.upsertProfile(...args);
  }
  removeProfile(...args: P<"removeProfile">) {
    return this.facets.profiles.removeProfile(...args);
  }
  getStoredOrder(...args: P<"getStoredOrder">) {
    return this.facets.profiles.getStoredOrder(...args);
  }
  setStoredOrder(...args: P<"setStoredOrder">) {
    return this.facets.profiles.setStoredOrder(...args);
  }
  getLastGood(...args: P<"getLastGood">) {
    return this.facets.profiles.getLastGood(...args);
  }
  getAllLastGood(...args: P<"getAllLastGood">) {
    return this.facets.profiles.getAllLastGood(...args);
  }
  setLastGood(...args: P<"setLastGood">) {
    return this.facets.profiles.setLastGood(...args);
  }

  // --- usage stats ---
  getUsageStats(...args: P<"getUsageStats">) {
    return this.facets.usageStats.getUsageStats(...args);
  }
  getAllUsageStats(...args: P<"getAllUsageStats">) {
    return this.facets.usageStats.getAllUsageStats(...args);
  }
  recordFailure(...args: P<"recordFailure">) {
    return this.facets.usageStats.recordFailure(...args);
  }
  recordSuccess(...args: P<"recordSuccess">) {
    return this.facets.usageStats.recordSuccess(...args);
  }
  markUsed(...args: P<"markUsed">) {
    return this.facets.usageStats.markUsed(...args);
  }
  clearExpired(...args: P<"clearExpired">) {
    return this.facets.usageStats.clearExpired(...args);
  }
  resetUsageStats(...args: P<"resetUsageStats">) {
    return this.facets.usageStats.resetUsageStats(...args);
  }
  replaceUsageStats(...args: P<"replaceUsageStats">) {
    return this.facets.usageStats.replaceUsageStats(...args);
  }

  // --- sessions ---
  getSession(...args: P<"getSession">) {
    return this.facets.sessions.getSession(...args);
  }
  listSessions(...args: P<"listSessions">) {
    return this.facets.sessions.listSessions(...args);
  }
  patchSession(...args: P<"patchSession">) {
    return this.facets.sessions.patchSession(...args);
  }
  compareAndSetSession(...args: P<"compareAndSetSession">) {
    return this.facets.sessions.compareAndSetSession(...args);
  }
  deleteSession(...args: P<"deleteSession">) {
    return this.facets.sessions.deleteSession(...args);
  }
  pruneSessions(...args: P<"pruneSessions">) {
    return this.facets.sessions.pruneSessions(...args);
  }
  evictSessions(...args: P<"evictSessions">) {
    return this.facets.sessions.evictSessions(...args);
  }
  countSessions(...args: P<"countSessions">) {
    return this.facets.sessions.countSessions(...args);
  }

  // --- probe throttle, headroom readings (R-PO-7), spend (R-GW-7) ---
  tryClaimProbe(...args: P<"tryClaimProbe">) {
    return this.facets.probes.tryClaimProbe(...args);
  }
  getLastProbeAt(...args: P<"getLastProbeAt">) {
    return this.facets.probes.getLastProbeAt(...args);
  }
  recordHeadroom(...args: P<"recordHeadroom">) {
    return this.facets.headroom.recordHeadroom(...args);
  }
  headroomReadings(...args: P<"headroomReadings">) {
    return this.facets.headroom.headroomReadings(...args);
  }
  recordSpend(...args: P<"recordSpend">) {
    return this.facets.spend.recordSpend(...args);
  }
  spendByProfile(...args: P<"spendByProfile">) {
    return this.facets.spend.spendByProfile(...args);
  }
}
