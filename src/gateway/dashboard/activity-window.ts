/**
 * The last 15 minutes at a glance (the dashboard's chart): requests by the model that answered, moves to a
 * fallback (counted exactly as `detour_fallbacks_total` counts them), and failed attempts by reason — fed by the runner's events, kept in fixed time buckets.
 * Bounded by configuration, never by client input (R-GW-8): a fixed number of buckets, model labels limited
 * to the configured models (anything else is `other`), reasons from the fixed FailoverReason set.
 */
import type { FailoverReason } from "../../core/reasons.js";
import type { DetourEvent } from "../../ports/events.js";
import { isFallbackMove } from "../fallback-moves.js";

export const ACTIVITY_BUCKET_MS = 10_000;
export const ACTIVITY_WINDOW_MS = 15 * 60_000;
const BUCKETS = ACTIVITY_WINDOW_MS / ACTIVITY_BUCKET_MS;

interface Bucket {
  start: number;
  answeredBy: Map<string, number>;
  fallbacks: number;
  failed: number;
  failures: Map<FailoverReason, number>;
}

export interface ActivityBucket {
  start: number;
  answeredBy: Record<string, number>;
  /** Moves from a failed or skipped model to the next one of the chain (as `detour_fallbacks_total`). */
  fallbacks: number;
  /** Runs that no candidate answered. */
  failed: number;
  /** Failed attempts by reason. */
  failures: Partial<Record<FailoverReason, number>>;
}

export interface ActivitySnapshot {
  bucketMs: number;
  windowMs: number;
  now: number;
  buckets: ActivityBucket[];
  totals: { requests: number; fallbacks: number; failed: number; failures: Partial<Record<FailoverReason, number>> };
}

export interface ActivityWindowOptions {
  now: () => number;
  /** `provider/model` → the label shown; unconfigured models become `other`. */
  modelLabel: (ref: string) => string;
}

export class ActivityWindow {
  readonly #now: () => number;
  readonly #modelLabel: (ref: string) => string;
  readonly #buckets: (Bucket | undefined)[] = new Array<Bucket | undefined>(BUCKETS);

  constructor(options: ActivityWindowOptions) {
    this.#now = options.now;
    this.#modelLabel = options.modelLabel;
  }

  readonly onEvent = (event: DetourEvent): void => {
    switch (event.type) {
      case "attempt_finished":
        if (event.outcome === "failed" && event.reason !== null) {
          const failures = this.#current().failures;
          failures.set(event.reason, (failures.get(event.reason) ?? 0) + 1);
        }
        return;
      case "model_fallback_decision":
        if (isFallbackMove(event)) this.#current().fallbacks += 1;
        return;
      case "run_finished":
        return this.#finishRun(event.outcome, event.provider, event.model);
      default:
        return;
    }
  };

  #finishRun(outcome: string, provider: string | null, model: string | null): void {
    if (outcome === "aborted") return;
    const bucket = this.#current();
    if (outcome !== "succeeded" || provider === null || model === null) {
      bucket.failed += 1;
      return;
    }
    const label = this.#modelLabel(`${provider}/${model}`);
    bucket.answeredBy.set(label, (bucket.answeredBy.get(label) ?? 0) + 1);
  }

  #current(): Bucket {
    const start = Math.floor(this.#now() / ACTIVITY_BUCKET_MS) * ACTIVITY_BUCKET_MS;
    const slot = (start / ACTIVITY_BUCKET_MS) % BUCKETS;
    let bucket = this.#buckets[slot];
    if (!bucket || bucket.start !== start) {
      bucket = { start, answeredBy: new Map(), fallbacks: 0, failed: 0, failures: new Map() };
      this.#buckets[slot] = bucket;
    }
    return bucket;
  }

  /** Every bucket of the window, oldest first, empty ones included so a chart has a steady time axis. */
  snapshot(): ActivitySnapshot {
    const now = this.#now();
    const newest = Math.floor(now / ACTIVITY_BUCKET_MS) * ACTIVITY_BUCKET_MS;
    const buckets: ActivityBucket[] = [];
    const totals: ActivitySnapshot["totals"] = { requests: 0, fallbacks: 0, failed: 0, failures: {} };
    for (let index = BUCKETS - 1; index >= 0; index -= 1) {
      const start = newest - index * ACTIVITY_BUCKET_MS;
      const stored = this.#buckets[(start / ACTIVITY_BUCKET_MS) % BUCKETS];
      const bucket = stored && stored.start === start ? stored : undefined;
      const answeredBy = Object.fromEntries(bucket?.answeredBy ?? []);
      const failures = Object.fromEntries(bucket?.failures ?? []) as Partial<Record<FailoverReason, number>>;
      buckets.push({ start, answeredBy, fallbacks: bucket?.fallbacks ?? 0, failed: bucket?.failed ?? 0, failures });
      for (const count of Object.values(answeredBy)) totals.requests += count;
      totals.requests += bucket?.failed ?? 0;
      totals.fallbacks += bucket?.fallbacks ?? 0;
      totals.failed += bucket?.failed ?? 0;
      for (const [reason, count] of Object.entries(failures) as [FailoverReason, number][]) {
        totals.failures[reason] = (totals.failures[reason] ?? 0) + count;
      }
    }
    return { bucketMs: ACTIVITY_BUCKET_MS, windowMs: ACTIVITY_WINDOW_MS, now, buckets, totals };
  }
}
