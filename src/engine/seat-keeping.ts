/**
 * Seats of one Detour (R-PO-8): one waiting line for the process, one SeatKeeper per agent whose seats are
 * counted in the agent's state (the SQLite file every process on the host shares, or the Redis every replica
 * shares). The seats store is opened only when a profile with a limit takes its first seat.
 */
import type { DetourConfig } from "../config/index.js";
import { seatLimitOf } from "../core/seat-limit.js";
import type { Clock } from "../ports/clock.js";
import type { EventSink } from "../ports/events.js";
import type { SeatsStore } from "../ports/seats-store.js";
import { SeatKeeper } from "../runner/seat-keeper.js";
import { SeatQueue } from "../runner/seat-queue.js";
import { openSeatsStore } from "../state/open-seats.js";

export interface SeatKeeping {
  queue: SeatQueue;
  keeperFor(agentId: string): SeatKeeper;
  /** In flight, limit and waiting requests per profile, for `/status` and metrics. */
  seatStatus(agentId: string, profiles: readonly { id: string; provider?: string }[]): Promise<Record<string, ProfileSeatStatus>>;
  close(): Promise<void>;
}

export interface ProfileSeatStatus {
  /** Attempts in flight on the profile: every process and replica for a profile with a limit. */
  inFlight: number;
  /** The seats it has now (`maxConcurrent`, or a learned cap below it); null = no limit. */
  limit: number | null;
  /** Requests of this process waiting in line for a seat on it. */
  queued: number;
}

export function createSeatKeeping(options: {
  config: DetourConfig;
  clock: Clock;
  events: EventSink;
  /** Memory seats when the caller handed its own store in: Detour then opens no file or connection itself. */
  backend: "sqlite" | "redis" | "memory";
  detourHome?: string;
  env?: NodeJS.ProcessEnv;
  /** Tests hand seats in to watch them. */
  open?: (agentId: string) => Promise<SeatsStore>;
}): SeatKeeping {
  const { config, clock, events } = options;
  const queue = new SeatQueue(clock, {
    max: config.gateway.queueMax,
    timeoutMs: config.gateway.queueTimeoutSeconds * 1000,
  });
  const keepers = new Map<string, SeatKeeper>();
  const configuredLimit = (profileId: string, provider: string) => {
    const profile = config.auth.profiles[profileId];
    return seatLimitOf(profile, config.models.providers[profile?.provider ?? provider]);
  };
  const open =
    options.open ??
    ((agentId: string) =>
      openSeatsStore({
        backend: options.backend,
        agentId,
        ...(options.detourHome !== undefined ? { detourHome: options.detourHome } : {}),
        ...(config.state.redis ? { redis: config.state.redis } : {}),
        ...(options.env ? { env: options.env } : {}),
      }));

  function keeperFor(agentId: string): SeatKeeper {
    let keeper = keepers.get(agentId);
    if (!keeper) {
      keeper = new SeatKeeper({
        clock,
        queue,
        store: () => open(agentId),
        configuredLimit,
        onStoreError: (operation, profileId, error) =>
          events.emit({
            type: "state_bookkeeping_failed",
            agentId,
            operation,
            profileId,
            error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
          }),
      });
      keepers.set(agentId, keeper);
    }
    return keeper;
  }

  async function seatStatus(agentId: string, profiles: readonly { id: string; provider?: string }[]) {
    const keeper = keeperFor(agentId);
    const withProvider = profiles.map(({ id, provider }) => ({ id, provider: provider ?? config.auth.profiles[id]?.provider ?? "" }));
    const inFlight = await keeper.inFlight(withProvider);
    const waiting = queue.waitingFor();
    const status: Record<string, ProfileSeatStatus> = {};
    for (const { id, provider } of withProvider) {
      status[id] = { inFlight: inFlight[id] ?? 0, limit: keeper.limitOf(id, provider) ?? null, queued: waiting[id] ?? 0 };
    }
    return status;
  }

  async function close(): Promise<void> {
    const all = [...keepers.values()];
    keepers.clear();
    await Promise.allSettled(all.map((keeper) => keeper.close()));
  }

  return { queue, keeperFor, seatStatus, close };
}
