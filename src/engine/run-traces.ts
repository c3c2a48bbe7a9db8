/**
 * The run traces of one Detour (R-OB-4): the recorder that writes every run's trace to its agent's trace
 * store (batched, off the answer's path), the stores it opens per agent, and `detour.traces` to read them
 * back (the dashboard's request log, `GET /admin/runs`).
 */
import type { DetourConfig } from "../config/index.js";
import type { RunTraceV1 } from "../core/run-trace.js";
import type { Clock } from "../ports/clock.js";
import type { Logger } from "../ports/events.js";
import type { TraceQuery, TraceStore } from "../ports/trace-store.js";
import { openTraceStore } from "../state/traces/open-trace-store.js";
import { requireAgentId } from "./engine-errors.js";
import type { EventHub } from "./event-hub.js";
import { TraceRecorder, type TraceWriteStats } from "./trace-recorder.js";

export type { TraceWriteStats } from "./trace-recorder.js";

export interface DetourTraces {
  /**
   * Kept run traces of an agent (default `main`) matching `query`, oldest first; with `limit`, the newest
   * that many. Runs that finished before the call are included (their queued writes are made first).
   */
  list(query?: TraceQuery & { agentId?: string }): Promise<RunTraceV1[]>;
  /** Traces written and dropped since this Detour started, and how many wait for their write. */
  writes(): TraceWriteStats;
}

export interface RunTracesOptions {
  hub: EventHub;
  clock: Clock;
  logger: Logger;
  config: DetourConfig;
  detourHome: string;
  /** Keep traces in process memory (a state store handed in by the caller: no file or connection of Detour's own). */
  inMemory: boolean;
  /** `false`: no run is recorded (nothing listens to the runs, no store is opened). */
  record: boolean;
  /** The trace stores of the engine a reloaded one follows: used, never opened or closed here. */
  sharedStoreFor?: (agentId: string) => Promise<TraceStore>;
}

export interface RunTraces {
  api: DetourTraces;
  /** The trace store of an agent, opened on first use (shared with the engine of a reloaded config). */
  storeFor(agentId: string): Promise<TraceStore>;
  /** Writes what is queued and closes the stores (Detour's close). */
  close(): Promise<void>;
}

export function createRunTraces(options: RunTracesOptions): RunTraces {
  const { config, clock } = options;
  const stores = new Map<string, Promise<TraceStore>>();
  const storeFor = (agentId: string): Promise<TraceStore> => {
    if (options.sharedStoreFor) return options.sharedStoreFor(agentId);
    let store = stores.get(agentId);
    if (!store) {
      const backend = options.inMemory ? "memory" : config.state.backend;
      store = openTraceStore({ backend, agentId, detourHome: options.detourHome, redis: config.state.redis, retention: config.trace });
      stores.set(agentId, store);
      store.catch(() => stores.delete(agentId));
    }
    return store;
  };
  const recorder = new TraceRecorder({ clock, logger: options.logger, storeFor });
  const unsubscribe = options.record ? options.hub.on("*", recorder.onEvent) : () => {};

  const api: DetourTraces = {
    async list(query = {}) {
      const { agentId = "main", ...filters } = query;
      requireAgentId(agentId);
      if (!options.record) return [];
      await recorder.flush();
      return (await storeFor(agentId)).list(filters, clock.now());
    },
    writes: () => recorder.stats(),
  };

  return {
    api,
    storeFor,
    async close() {
      unsubscribe();
      await recorder.flush();
      const opened = await Promise.allSettled(stores.values());
      stores.clear();
      await Promise.allSettled(opened.flatMap((settled) => (settled.status === "fulfilled" ? [settled.value.close()] : [])));
    },
  };
}
