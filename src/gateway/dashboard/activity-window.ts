/**
 * The last 15 minutes at a glance (the dashboard's chart): requests by the model that answered, how often a
 * fallback answered, and failed attempts by reason — fed by the runner's events, kept in fixed time buckets.
 * Bounded by configuration, never by client input (R-GW-8): a fixed number of buckets, model labels limited
 * to the configured models (anything else is `other`), reasons from the fixed FailoverReason set.
 */
import type { FailoverReason } from "../../core/reasons.js";
import type { DetourEvent } from "../../ports/events.js";

export const ACTIVITY_BUCKET_MS = 10_000;
export const ACTIVITY_WINDOW_MS = 15 * 60_000;
const BUCKETS = ACTIVITY_WINDOW_MS / ACTIVITY_BUCKET_MS;
/** Runs between `run_started` and `run_finished`; a run that never finishes is forgotten first. */
const MAX_RUNS_IN_FLIGHT = 10_000;

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
  /** Runs answered by another model than the one selected. */
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
  readonly #requestedModelOfRun = new Map<string, string>();

  constructor(options: ActivityWindowOptions) {
    this.#now = options.now;
    this.#modelLabel = options.modelLabel;
  }

  readonly onEvent = (event: DetourEvent): void => {
    switch (event.type) {
      case "run_started":
        if (this.#requestedModelOfRun.size >= MAX_RUNS_IN_FLIGHT) {
          this.#requestedModelOfRun.delete(this.#requestedModelOfRun.keys().next().value as string);
        }
        this.#requestedModelOfRun.set(event.runId, event.requestedModel);
        return;
      case "attempt_finished":
        if (event.outcome === "failed" && event.reason !== null) {
          const failures = this.#current().failures;
          failures.set(event.reason, (failures.get(event.reason) ?? 0) + 1);
        }
        return;
      case "run_finished":
        return this.#finishRun(event.runId, event.outcome, event.provider, event.model);
      default:
        return;
    }
  };

  #finishRun(runId: string, outcome: string, provider: string | null, model: string | null): void {
    const requested = this.#requestedModelOfRun.get(runId);
    this.#requestedModelOfRun.delete(runId);
    if (outcome === "aborted") return;
    const bucket = this.#current();
    if (outcome !== "succeeded" || provider === null || model === null) {
      bucket.failed += 1;
      return;
    }
    const answered = `${provider}/${model}`;
    const label = this.#modelLabel(answered);
    bucket.answeredBy.set(label, (bucket.answeredBy.get(label) ?? 0) + 1);
    if (requested !== undefined && requested !== answered) bucket.fallbacks += 1;
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
