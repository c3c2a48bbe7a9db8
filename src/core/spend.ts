/**
 * R-GW-7: spend per profile over the last 24 hours, kept bounded — one bucket per profile and hour, at most
 * 24 buckets per profile. Every store backend uses these rules, so they agree on which hours count.
 */

export const SPEND_BUCKET_MS = 60 * 60 * 1000;
export const SPEND_BUCKETS_KEPT = 24;
/** The window `detour status` reports: the hour of `now` and the 23 before it. */
export const SPEND_WINDOW_MS = SPEND_BUCKET_MS * SPEND_BUCKETS_KEPT;

/** The hour bucket `now` (epoch ms) falls in. */
export function spendHourOf(now: number): number {
  return Math.floor(now / SPEND_BUCKET_MS);
}

/** The oldest bucket still counted at `now`; older ones are dropped. */
export function oldestSpendHour(now: number): number {
  return spendHourOf(now) - (SPEND_BUCKETS_KEPT - 1);
}

/** Whether `hour` is counted at `now` (a bucket from a clock ahead of ours is not). */
export function isCountedSpendHour(hour: number, now: number): boolean {
  return hour >= oldestSpendHour(now) && hour <= spendHourOf(now);
}

/** A cost worth recording: a finite positive number of dollars. */
export function isRecordableCost(costUsd: number): boolean {
  return Number.isFinite(costUsd) && costUsd > 0;
}
