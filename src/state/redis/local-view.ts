/**
 * The in-process view a Redis store serves from during an outage (R-SB-3): a memory store, seeded from
 * Redis snapshots and kept warm from every Redis read and write.
 */
import type { SessionEntry } from "../../core/types.js";
import { MemoryStateStore } from "../memory/memory-store.js";
import type { StateSnapshot } from "./redis-remote.js";

export async function seedMemory(snapshot: StateSnapshot): Promise<MemoryStateStore> {
  const memory = new MemoryStateStore();
  for (const profile of snapshot.profiles) await memory.upsertProfile(profile);
  for (const [provider, order] of Object.entries(snapshot.orders)) await memory.setStoredOrder(provider, order);
  for (const [provider, id] of Object.entries(snapshot.lastGood)) await memory.setLastGood(provider, id);
  for (const [id, stats] of Object.entries(snapshot.stats)) await memory.replaceUsageStats(id, stats);
  for (const { sessionKey, ...fields } of snapshot.sessions) await memory.patchSession(sessionKey, fields);
  return memory;
}

/**
 * A consistent picture of the view. Every read is started in this one synchronous turn, and the memory
 * store answers from its maps when called, so no local-mode change can slip in between the reads.
 * `orderProviders` names the providers whose stored order the view may hold (a memory store cannot list them).
 */
export function captureView(view: MemoryStateStore, orderProviders: Iterable<string>): Promise<StateSnapshot> {
  const providers = [...orderProviders];
  const reads = Promise.all([
    Promise.all(providers.map((provider) => view.getStoredOrder(provider))),
    view.listProfiles(),
    view.getAllLastGood(),
    view.getAllUsageStats(),
    view.listSessions(),
  ]);
  return reads.then(([orderList, profiles, lastGood, stats, sessions]) => {
    const orders: Record<string, string[]> = {};
    providers.forEach((provider, index) => {
      const order = orderList[index];
      if (order) orders[provider] = order;
    });
    return { profiles, orders, lastGood, stats, sessions };
  });
}

/** Makes the view hold exactly `entry` for `sessionKey` (or no session). */
export async function mirrorSession(view: MemoryStateStore, sessionKey: string, entry: SessionEntry | undefined): Promise<void> {
  await view.deleteSession(sessionKey);
  if (entry) {
    const { sessionKey: _key, ...fields } = entry;
    await view.patchSession(sessionKey, fields);
  }
}
