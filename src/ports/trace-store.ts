/**
 * Where run traces are kept (R-OB-4): a ring per agent bounded by `trace.keepRuns` and `trace.keepHours`.
 * Stores never read the clock: every call is handed `now` (epoch ms) by the caller.
 */
import { createHash } from "node:crypto";
import type { RunTraceOutcome, RunTraceV1 } from "../core/run-trace.js";

export interface TraceRetention {
  /** At most this many runs are kept; the oldest go first. */
  keepRuns: number;
  /** Runs that started more than this long before `now` are dropped. */
  keepHours: number;
}

export interface TraceQuery {
  /** Runs that started at or after this epoch ms. */
  since?: number;
  /** Runs that started before this epoch ms. */
  until?: number;
  /** Only runs of this hashed session key (`hashSessionKey`). */
  sessionHash?: string;
  /** Only runs that ended this way. */
  outcome?: RunTraceOutcome;
  /**
   * Only runs that involved this model: asked for it, or called it (`provider/model`, or the bare model id).
   */
  model?: string;
  /** At most this many runs: the newest ones. */
  limit?: number;
}

export interface TraceStore {
  /** Keeps one finished run's trace and drops what the retention no longer allows. */
  append(trace: RunTraceV1, now: number): Promise<void>;
  /**
   * Keeps several finished runs at once, in the given order, as one write (one transaction, one round trip),
   * so a busy gateway pays the write's fixed cost once per batch instead of once per run.
   */
  appendMany(traces: readonly RunTraceV1[], now: number): Promise<void>;
  /** Kept traces matching `query`, oldest first; runs older than `keepHours` before `now` are never listed. */
  list(query: TraceQuery, now: number): Promise<RunTraceV1[]>;
  /** How many traces are kept right now (after pruning to `now`). */
  count(now: number): Promise<number>;
  close(): Promise<void>;
}

export function retentionCutoff(retention: TraceRetention, now: number): number {
  return now - retention.keepHours * 3_600_000;
}

/** The query's own bounds combined with the retention cutoff. */
export function matchesTraceQuery(trace: RunTraceV1, query: TraceQuery, cutoff: number): boolean {
  if (trace.startedAt < cutoff) return false;
  if (query.since !== undefined && trace.startedAt < query.since) return false;
  if (query.until !== undefined && trace.startedAt >= query.until) return false;
  if (query.sessionHash !== undefined && trace.sessionHash !== query.sessionHash) return false;
  if (query.outcome !== undefined && trace.outcome !== query.outcome) return false;
  if (query.model !== undefined && !involvesModel(trace, query.model)) return false;
  return true;
}

/** The run asked for `model` or called it, named `provider/model` or by the bare model id. */
export function involvesModel(trace: RunTraceV1, model: string): boolean {
  if (trace.request.requestedModel === model) return true;
  return trace.attempts.some((attempt) => attempt.model === model || `${attempt.provider}/${attempt.model}` === model);
}

/** Session keys whose hash is remembered: a session's runs hash the same key again and again. */
const REMEMBERED_HASHES = 1024;
const rememberedHashes = new Map<string, string>();

/** Stable, one-way: the same session key always links to the same hash, and the hash does not give the key back. */
export function hashSessionKey(sessionKey: string): string {
  const remembered = rememberedHashes.get(sessionKey);
  if (remembered !== undefined) return remembered;
  const hash = createHash("sha256").update(`detour-session\0${sessionKey}`).digest("hex").slice(0, 32);
  // Bounded: past the bound the longest-remembered key is forgotten (Map keeps insertion order).
  if (rememberedHashes.size >= REMEMBERED_HASHES) rememberedHashes.delete(rememberedHashes.keys().next().value as string);
  rememberedHashes.set(sessionKey, hash);
  return hash;
}
