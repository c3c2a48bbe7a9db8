/** The order every trace store lists in: by start time, then run id, so equal start times list stably. */
import type { RunTraceV1 } from "../../core/run-trace.js";

export function compareTraces(a: RunTraceV1, b: RunTraceV1): number {
  return a.startedAt - b.startedAt || (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0);
}

/** Sorted oldest first, keeping only the newest `limit` when one is given. */
export function newestWithinLimit(traces: RunTraceV1[], limit: number | undefined): RunTraceV1[] {
  const sorted = [...traces].sort(compareTraces);
  return limit !== undefined && sorted.length > limit ? sorted.slice(sorted.length - Math.max(0, limit)) : sorted;
}
