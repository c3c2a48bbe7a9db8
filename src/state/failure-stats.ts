/**
 * A store's `recordFailure` (ports) → the cooldown math (core): one mapping for every backend, so a field
 * added to the failure (R-CD-1, R-CD-6) reaches the math in memory, SQLite and Redis alike.
 */
import { recordFailure as recordFailureStats } from "../core/cooldown.js";
import type { UsageStats } from "../core/types.js";
import type { RecordFailureParams } from "../ports/state-store.js";

/** The profile's stats after this failure; `current` is not changed. */
export function statsAfterFailure(current: UsageStats | undefined, params: RecordFailureParams): UsageStats {
  return recordFailureStats(current, {
    reason: params.reason,
    provider: params.provider,
    model: params.model,
    now: params.now,
    resetAt: params.resetAt,
    config: params.cooldowns,
    attemptStartedAt: params.attemptStartedAt,
    afterStatedWait: params.afterStatedWait,
  });
}
