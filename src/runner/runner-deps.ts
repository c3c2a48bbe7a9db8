/**
 * What the runner needs from the outside world. The runner imports no config: engine/ resolves the config
 * into these plain settings, so the runner stays pure sequencing over injected ports.
 */
import type { ModelFitFacts } from "../core/fit.js";
import type { HeadroomSettings } from "../core/headroom/assess.js";
import type { CooldownSettings, Credential, ModelRef, ProfileConfig } from "../core/types.js";
import type { Clock } from "../ports/clock.js";
import type { EventSink } from "../ports/events.js";
import type { Random } from "../ports/random.js";
import type { StateStore } from "../ports/state-store.js";
import type { DecisionSnapshot } from "./decision-snapshot.js";
import type { HedgingDeps } from "./hedge-race.js";
import type { ProbeThrottle } from "./probes.js";
import type { SeatKeeper } from "./seat-keeper.js";
import type { SkipCache } from "./skip-cache.js";

/** `agents.defaults.modelFailover` (R-CF-3) with defaults applied. */
export interface ModelFailoverSettings {
  retrySameProfileOnTimeout: number;
  /** R-RN-4: 500/502/504 and in-band equivalents. */
  retrySameProfileOnServerError: number;
  retryBackoffMs: readonly [number, number];
  shortWaitSeconds: number;
  waitForCooldownMaxSeconds: number;
}

export interface RunnerSettings {
  cooldowns: CooldownSettings;
  modelFailover: ModelFailoverSettings;
  /** R-CD-5: false for providers that manage their own upstreams (OpenRouter by default). */
  providerRecordsCooldowns(provider: string): boolean;
  /** The watchdog of one attempt of this provider (R-CF-3 `timeoutSeconds`), in ms; undefined = none. */
  attemptTimeoutMs(provider: string): number | undefined;
  /** `agents.defaults.timeoutSeconds` for a whole run, in ms; undefined = none. */
  runTimeoutMs?: number;
  /**
   * What is known about a model — `models[]` declarations (R-CF-3), else the built-in catalogue — for the
   * context-overflow walk (R-FB-5) and the pre-call fit (R-FB-8). Unknown fields are absent.
   */
  modelFacts(ref: ModelRef): ModelFitFacts;
  /** `auth.headroom` (R-PO-7); absent = profiles are ordered without rate-limit readings. */
  headroom?: HeadroomSettings;
  /**
   * `gateway.streamStallSeconds` in ms: how long a committed stream may stay silent. A continuation (R-ST-4)
   * waits no longer than this for a seat (R-PO-8); absent = it waits like any request.
   */
  streamStallMs?: number;
}

/** Every profile that could serve a provider, with the inputs of `orderProfiles` (R-PO-1). */
export interface ProviderProfiles {
  profiles: { id: string; credential?: Credential }[];
  storedOrder?: readonly string[];
  configuredOrder?: readonly string[];
  configuredProfiles?: Readonly<Record<string, ProfileConfig>>;
}

export interface ProfileSource {
  forProvider(provider: string): Promise<ProviderProfiles>;
  /**
   * The credential one attempt runs with, resolved just before it starts (R-AP-5: an OAuth token near expiry
   * is refreshed first). Runs under the attempt's signal and watchdog; a throw is that attempt's failure
   * (a rejected refresh is a `FailoverError` with reason `auth_permanent`). Absent = use the credential as listed.
   */
  credentialForAttempt?(profileId: string, credential: Credential, signal: AbortSignal): Promise<Credential>;
}

export interface RunnerDeps {
  agentId: string;
  store: StateStore;
  clock: Clock;
  random: Random;
  events: EventSink;
  settings: RunnerSettings;
  profiles: ProfileSource;
  /** Process-local and shared by every run of the process (R-FB-2). */
  skipCache: SkipCache;
  /** Shared by every run of the agent (R-FB-4). */
  probeThrottle: ProbeThrottle;
  /** The agent's decision inputs in memory, reused while the store's stamp holds; absent = read every run. */
  snapshot?: DecisionSnapshot;
  /** R-PO-8: seats per profile and the line for them; absent = attempts are not counted at all. */
  seats?: SeatKeeper;
  /** R-HG-1…R-HG-4, R-TT-1: racing slow attempts and learning first-token times; absent = never raced. */
  hedging?: HedgingDeps;
}
