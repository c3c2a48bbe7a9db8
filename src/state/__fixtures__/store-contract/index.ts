/**
 * The one contract every `StateStore` backend passes (SPEC R-SB-1), called from each backend's test file.
 * The memory store is the reference; anything a backend adds must be specified here, not only in that
 * backend's own tests. The parts live beside this file, one per facet of the port; seats.ts and traces.ts are
 * the SeatsStore and TraceStore contracts. A fixture: never built into dist/.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StateStore } from "../../../ports/state-store.js";
import type { ContractContext } from "./fixtures.js";
import { headroomContract } from "./headroom.js";
import { profilesContract } from "./profiles.js";
import { sessionsContract } from "./sessions.js";
import { sharedStateContract } from "./shared.js";
import { spendContract } from "./spend.js";
import { usageStatsContract } from "./usage-stats.js";

export { CONTRACT_COOLDOWNS } from "./fixtures.js";

export interface ContractStoreHandle {
  store: StateStore;
  cleanup: () => Promise<void>;
  /** Another handle on the same state (a second process or replica would hold one). Shared backends only. */
  openSibling?: () => Promise<StateStore>;
  /** Everything the backend keeps at rest, as text, to check that secrets are encrypted (R-SB-4). */
  readAtRest?: () => Promise<string>;
}

/** What a backend offers beyond the reference memory store; decides which extra contract parts run. */
export interface ContractCapabilities {
  /** Several handles (processes, replicas) share one state: `openSibling` must be provided. */
  sharedState?: boolean;
  /** Secrets are written somewhere at rest: `readAtRest` must be provided. */
  encryptsAtRest?: boolean;
}

const STATE_STORE_METHODS: (keyof StateStore)[] = [
  "listProfiles",
  "getProfile",
  "upsertProfile",
  "removeProfile",
  "getStoredOrder",
  "setStoredOrder",
  "getLastGood",
  "getAllLastGood",
  "setLastGood",
  "getUsageStats",
  "getAllUsageStats",
  "recordFailure",
  "recordSuccess",
  "markUsed",
  "clearExpired",
  "resetUsageStats",
  "replaceUsageStats",
  "getSession",
  "listSessions",
  "patchSession",
  "compareAndSetSession",
  "deleteSession",
  "tryClaimProbe",
  "getLastProbeAt",
  "checkAvailable",
  "pruneSessions",
  "close",
  "recordHeadroom",
  "headroomReadings",
  "recordSpend",
  "spendByProfile",
];

export function runStoreContract(
  name: string,
  makeStore: () => Promise<ContractStoreHandle>,
  capabilities: ContractCapabilities = {},
): void {
  describe(`StateStore contract: ${name}`, () => {
    let handle: ContractStoreHandle | undefined;
    const siblings: StateStore[] = [];

    beforeEach(async () => {
      handle = await makeStore();
    });

    afterEach(async () => {
      for (const sibling of siblings.splice(0)) await sibling.close();
      await handle?.cleanup();
      handle = undefined;
    });

    const context: ContractContext = {
      handle() {
        if (!handle) throw new Error("the contract store is only available inside a test");
        return handle;
      },
      store() {
        return context.handle().store;
      },
      async sibling() {
        const { openSibling } = context.handle();
        if (!openSibling) throw new Error("sharedState backends must provide openSibling");
        const opened = await openSibling();
        siblings.push(opened);
        return opened;
      },
    };

    it("R-SB-1: implements every StateStore method", () => {
      const store = context.store();
      for (const method of STATE_STORE_METHODS) expect(typeof store[method], method).toBe("function");
    });

    profilesContract(context, capabilities);
    usageStatsContract(context);
    sessionsContract(context);
    headroomContract(context, capabilities);
    spendContract(context, capabilities);
    // Registered only for backends that share state; the memory store has nothing to share.
    if (capabilities.sharedState) sharedStateContract(context);
  });
}
