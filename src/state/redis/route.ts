/**
 * How a facet of the Redis store runs one operation (redis-link.ts): on Redis while it answers, mirrored
 * into the local view; on the local view during an outage (R-SB-3), journaling `replay` for the
 * resynchronisation. `R` is the facet's Redis half, so a facet only sees its own part of Redis.
 */
import type { WriteDurability } from "../../ports/state-store.js";
import type { MemoryStateStore } from "../memory/memory-store.js";

export interface RouteOptions<R, T> {
  /** Applies Redis's answer to the local view, so an outage starts from what Redis last said. */
  mirror?: (view: MemoryStateStore, result: T) => Promise<unknown>;
  /** Journaled during an outage and run on Redis when it answers again. */
  replay?: (redis: R) => Promise<unknown>;
  /** `required` writes land in Redis or throw; they are never kept locally (R-SB-5). */
  durability?: WriteDurability;
}

export type Route<R> = <T>(
  remote: (redis: R, isAbandoned: () => boolean) => Promise<T>,
  local: (view: MemoryStateStore) => Promise<T>,
  options?: RouteOptions<R, T>,
) => Promise<T>;
