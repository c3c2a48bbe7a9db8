/**
 * Probe bookkeeping (R-FB-3, R-FB-4): the per-(agent, provider) 30 s throttle shared through the state store
 * (so Redis replicas agree), and the one-transient-probe-per-provider slot of a single run.
 */
import type { StateStore } from "../ports/state-store.js";

/** R-FB-4: at most one probe per (agent, provider) in this interval. */
export const PROBE_THROTTLE_INTERVAL_MS = 30_000;

export class ProbeThrottle {
  readonly #store: StateStore;
  readonly #agentId: string;

  constructor(store: StateStore, agentId: string) {
    this.#store = store;
    this.#agentId = agentId;
  }

  /** Whether a probe of `provider` could be claimed now (read-only; the claim is separate). */
  async isOpen(provider: string, now: number): Promise<boolean> {
    const last = await this.#store.getLastProbeAt(this.#key(provider));
    return last === undefined || now - last >= PROBE_THROTTLE_INTERVAL_MS;
  }

  /** Claims the slot; false when another run claimed it first. */
  claim(provider: string, now: number): Promise<boolean> {
    return this.#store.tryClaimProbe(this.#key(provider), now, PROBE_THROTTLE_INTERVAL_MS);
  }

  #key(provider: string): string {
    return `${this.#agentId}:${provider}`;
  }
}

/** R-FB-3: a non-primary sibling may be probed despite the cooldown at most once per provider per run. */
export class RunProbeSlots {
  readonly #used = new Set<string>();

  isUsed(provider: string): boolean {
    return this.#used.has(provider);
  }

  use(provider: string): void {
    this.#used.add(provider);
  }
}
