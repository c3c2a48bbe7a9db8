/**
 * When to race a second attempt (R-HG-2) and how long to wait for a first token (R-TT-1), from a model's
 * recent first-token times. Pure: the samples are handed in.
 */
import type { FirstTokenStats } from "./first-token-samples.js";

/** Samples a model needs before its own p95 decides when to hedge. */
export const HEDGE_SAMPLES_NEEDED = 20;
/** Samples a model needs before its own p99 sets its first-token deadline. */
export const DEADLINE_SAMPLES_NEEDED = 50;
const HEDGE_FLOOR_MS = 1_000;
const COLD_HEDGE_CAP_MS = 5_000;
const LEARNED_DEADLINE_CAP_MS = 180_000;

export interface HedgeTimingInput {
  readonly stats: FirstTokenStats | undefined;
  /** The attempt's first-token deadline (configured, learned or static). */
  readonly ttftDeadlineMs: number;
  /** `hedging.afterMs` when configured: it wins. */
  readonly configuredAfterMs?: number | undefined;
}

/**
 * R-HG-2: 1.5 × the model's recent p95 first-token time, at least 1 s; before 20 samples,
 * min(5 s, deadline ÷ 3). A configured `afterMs` wins.
 */
export function hedgeAfterMs(input: HedgeTimingInput): number {
  if (input.configuredAfterMs !== undefined) return input.configuredAfterMs;
  const { stats } = input;
  if (!stats || stats.count < HEDGE_SAMPLES_NEEDED) return Math.min(COLD_HEDGE_CAP_MS, input.ttftDeadlineMs / 3);
  return Math.max(HEDGE_FLOOR_MS, 1.5 * stats.p95Ms);
}

/**
 * R-TT-1: with at least 50 samples and no configured deadline, clamp(2 × p99, static default, 180 s);
 * otherwise the static default (15 s, 60 s for reasoning models) or the configured value.
 */
export function learnedFirstTokenDeadlineMs(input: {
  readonly stats: FirstTokenStats | undefined;
  readonly staticDefaultMs: number;
  readonly configuredMs?: number | undefined;
}): number {
  if (input.configuredMs !== undefined) return input.configuredMs;
  const { stats, staticDefaultMs } = input;
  if (!stats || stats.count < DEADLINE_SAMPLES_NEEDED) return staticDefaultMs;
  return Math.min(Math.max(2 * stats.p99Ms, staticDefaultMs), Math.max(LEARNED_DEADLINE_CAP_MS, staticDefaultMs));
}
