/**
 * A Detour on a FakeClock for engine tests whose providers answer on that clock: memory state, a seeded random,
 * no environment, and every event it emits collected in order.
 */
import type { DetourConfigInput } from "../../config/index.js";
import type { DetourEvent } from "../../ports/events.js";
import type { Provider } from "../../ports/provider.js";
import type { MemoryStateStore } from "../../state/memory/memory-store.js";
import type { FakeClock } from "../../testing/fake-clock.js";
import { SeededRandom } from "../../testing/seeded-random.js";
import { createDetour, type Detour } from "../create-detour.js";

export async function clockedDetour(options: {
  clock: FakeClock;
  store: MemoryStateStore;
  providers: Provider[];
  config: DetourConfigInput;
}): Promise<{ detour: Detour; events: DetourEvent[] }> {
  const { clock, store, providers } = options;
  const config: DetourConfigInput = { ...options.config, state: { backend: "memory" } };
  const detour = await createDetour({ config, store, clock, random: new SeededRandom(3), providers, env: {} });
  const events: DetourEvent[] = [];
  detour.on("*", (event) => events.push(event));
  return { detour, events };
}

/** Follows a pending run: what it settled with, and how long after it started on the FakeClock. */
export function trackSettlement<T>(clock: FakeClock, pending: Promise<T>): { settledAfterMs?: number; value?: T; error?: unknown } {
  const startedAt = clock.now();
  const state: { settledAfterMs?: number; value?: T; error?: unknown } = {};
  pending.then(
    (value) => Object.assign(state, { value, settledAfterMs: clock.now() - startedAt }),
    (error: unknown) => Object.assign(state, { error, settledAfterMs: clock.now() - startedAt }),
  );
  return state;
}
