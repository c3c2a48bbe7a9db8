/**
 * Run traces in process memory (R-OB-4): a ring in recording order, bounded by `trace.keepRuns` and
 * `trace.keepHours`. Used by the memory backend and by one-shot runs.
 */
import type { RunTraceV1 } from "../../core/run-trace.js";
import { matchesTraceQuery, retentionCutoff, type TraceQuery, type TraceRetention, type TraceStore } from "../../ports/trace-store.js";
import { newestWithinLimit } from "../traces/trace-order.js";

export class MemoryTraceStore implements TraceStore {
  readonly #retention: TraceRetention;
  /** Insertion order is recording order: the first entries are the first to go. */
  readonly #traces = new Map<string, RunTraceV1>();

  constructor(retention: TraceRetention) {
    this.#retention = retention;
  }

  async append(trace: RunTraceV1, now: number): Promise<void> {
    await this.appendMany([trace], now);
  }

  async appendMany(traces: readonly RunTraceV1[], now: number): Promise<void> {
    for (const trace of traces) {
      // A copy, so a caller that keeps mutating its object cannot change what was recorded.
      const stored = structuredClone(trace);
      this.#traces.delete(stored.runId);
      this.#traces.set(stored.runId, stored);
    }
    this.#prune(now);
  }

  async list(query: TraceQuery, now: number): Promise<RunTraceV1[]> {
    const cutoff = retentionCutoff(this.#retention, now);
    const matching = [...this.#traces.values()].filter((trace) => matchesTraceQuery(trace, query, cutoff));
    return newestWithinLimit(matching, query.limit).map((trace) => structuredClone(trace));
  }

  async count(now: number): Promise<number> {
    this.#prune(now);
    const cutoff = retentionCutoff(this.#retention, now);
    let kept = 0;
    for (const trace of this.#traces.values()) if (trace.startedAt >= cutoff) kept += 1;
    return kept;
  }

  async close(): Promise<void> {
    this.#traces.clear();
  }

  #prune(now: number): void {
    const cutoff = retentionCutoff(this.#retention, now);
    let surplus = this.#traces.size - this.#retention.keepRuns;
    for (const [runId, trace] of this.#traces) {
      if (surplus <= 0 && trace.startedAt >= cutoff) break;
      this.#traces.delete(runId);
      surplus -= 1;
    }
  }
}
