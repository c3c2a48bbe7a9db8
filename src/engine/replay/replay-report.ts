/**
 * What a set of runs went through, counted the same way for a recording and for each replay of it (R-OB-5):
 * the per-config object `detour replay --json` and `detour drill --json` print. Pure.
 */
import type { RunTraceV1 } from "../../core/run-trace.js";

export interface ReplayConfigReport {
  name: string;
  runs: number;
  answered: number;
  failed: number;
  upstreamCalls: number;
  upstream429: number;
  upstream5xx: number;
  addedWaitMsP50: number;
  addedWaitMsP99: number;
  notices: number;
  costUsd: number;
}

/**
 * Time a run's user waited for nothing: until the attempt that brought the answer started (failed attempts,
 * waits and pauses before it), or the whole run when no answer came.
 */
export function addedWaitMs(trace: RunTraceV1): number {
  if (trace.outcome === "succeeded" || trace.outcome === "content_filter") {
    const answering = trace.attempts.find(
      (attempt) => attempt.committed || attempt.outcome === "succeeded" || attempt.reason === "content_filter",
    );
    if (answering) return answering.offsetMs;
  }
  return trace.durationMs;
}

/** Nearest-rank percentile of sorted values; 0 for none. */
function percentile(sorted: readonly number[], share: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil(share * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1]!;
}

/** Dollars summed in whole nano-dollars, so the total does not depend on the order of a floating sum. */
function sumUsd(values: Iterable<number>): number {
  let nano = 0;
  for (const value of values) nano += Math.round(value * 1e9);
  return nano / 1e9;
}

export function summarizeRuns(name: string, traces: readonly RunTraceV1[]): ReplayConfigReport {
  let answered = 0;
  let failed = 0;
  let upstreamCalls = 0;
  let upstream429 = 0;
  let upstream5xx = 0;
  let notices = 0;
  const costs: number[] = [];
  const waits: number[] = [];
  for (const trace of traces) {
    if (trace.outcome === "succeeded" || trace.outcome === "content_filter") answered += 1;
    else if (trace.outcome === "failed") failed += 1;
    for (const attempt of trace.attempts) {
      upstreamCalls += 1;
      if (attempt.status === 429) upstream429 += 1;
      else if (attempt.status !== null && attempt.status >= 500 && attempt.status <= 599) upstream5xx += 1;
      if (attempt.costUsd !== null) costs.push(attempt.costUsd);
    }
    notices += trace.notices.length;
    waits.push(addedWaitMs(trace));
  }
  waits.sort((a, b) => a - b);
  return {
    name,
    runs: traces.length,
    answered,
    failed,
    upstreamCalls,
    upstream429,
    upstream5xx,
    addedWaitMsP50: Math.round(percentile(waits, 0.5)),
    addedWaitMsP99: Math.round(percentile(waits, 0.99)),
    notices,
    costUsd: sumUsd(costs),
  };
}
