/**
 * The last 15 minutes at a glance (the dashboard): requests by the model that answered, moves to a fallback
 * (counted exactly as `detour_fallbacks_total` counts them), failed attempts by reason, and per model the
 * answers' latency, first-token time, tokens and cost — fed by the runner's events and by the answers the
 * gateway accounts (tokens, cost, first token), kept in fixed time buckets.
 * Bounded by configuration, never by client input alone (R-GW-8): a fixed number of buckets, a bounded
 * sample per bucket and model, reasons from the fixed FailoverReason set, and model labels from the
 * configuration plus at most a few other models that actually answered (`modelLabel` decides).
 */
import { modelFamilyOf } from "./model-family.js";
import type { FailoverReason } from "../../core/reasons.js";
import type { CanonicalUsage } from "../../ports/canonical.js";
import type { DetourEvent } from "../../ports/events.js";
import { isFallbackMove } from "../fallback-moves.js";

export const ACTIVITY_BUCKET_MS = 10_000;
export const ACTIVITY_WINDOW_MS = 15 * 60_000;
const BUCKETS = ACTIVITY_WINDOW_MS / ACTIVITY_BUCKET_MS;
/** Latency and first-token samples kept per bucket and model (the newest ones). */
const SAMPLES_PER_BUCKET = 64;

/** A bounded ring of the newest samples. */
class Samples {
  readonly values: number[] = [];
  #next = 0;

  add(value: number): void {
    if (!Number.isFinite(value) || value < 0) return;
    if (this.values.length < SAMPLES_PER_BUCKET) this.values.push(value);
    else this.values[this.#next] = value;
    this.#next = (this.#next + 1) % SAMPLES_PER_BUCKET;
  }
}

interface ModelBucket {
  requests: number;
  latencyMs: Samples;
  firstTokenMs: Samples;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  pricedAnswers: number;
}

interface Bucket {
  start: number;
  models: Map<string, ModelBucket>;
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

/** Spread of a set of durations; absent when there was none. */
export interface Spread {
  p50Ms: number;
  p95Ms: number;
}

export interface ModelActivity {
  model: string;
  /** The model whichever provider served it (`claude-sonnet-4-6` for Anthropic's and Vertex's), to show them together. */
  family: string;
  requests: number;
  /** Whole requests, from arrival until the answer (or the stream) ended. */
  latency?: Spread;
  /** Streams: from opening the upstream stream to its first content. */
  firstToken?: Spread;
  inputTokens: number;
  outputTokens: number;
  /** US dollars, from the model's prices; absent when no answer of it was priced. */
  costUsd?: number;
}

export interface ActivityTotals {
  requests: number;
  fallbacks: number;
  failed: number;
  failures: Partial<Record<FailoverReason, number>>;
  latency?: Spread;
  firstToken?: Spread;
  inputTokens: number;
  outputTokens: number;
  costUsd?: number;
}

export interface ActivitySnapshot {
  bucketMs: number;
  windowMs: number;
  now: number;
  buckets: ActivityBucket[];
  /** Every model that answered or was accounted in the window, most requests first. */
  models: ModelActivity[];
  totals: ActivityTotals;
}

export interface ActivityWindowOptions {
  now: () => number;
  /** `provider/model` → the label shown (the configured models, and a bounded few others by name). */
  modelLabel: (ref: string) => string;
}

function spreadOf(values: readonly number[]): Spread | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] as number;
  return { p50Ms: Math.round(at(0.5)), p95Ms: Math.round(at(0.95)) };
}

function emptyModelBucket(): ModelBucket {
  return {
    requests: 0,
    latencyMs: new Samples(),
    firstTokenMs: new Samples(),
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    pricedAnswers: 0,
  };
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
        return this.#finishRun(event.outcome, event.provider, event.model, event.durationMs);
      default:
        return;
    }
  };

  /** A stream's first content arrived `milliseconds` after its upstream call opened. */
  observeFirstToken(provider: string, model: string, milliseconds: number): void {
    this.#model(provider, model).firstTokenMs.add(milliseconds);
  }

  observeTokens(provider: string, model: string, usage: CanonicalUsage): void {
    const bucket = this.#model(provider, model);
    bucket.inputTokens += usage.inputTokens > 0 ? usage.inputTokens : 0;
    bucket.outputTokens += usage.outputTokens > 0 ? usage.outputTokens : 0;
  }

  observeCost(provider: string, model: string, costUsd: number): void {
    if (!Number.isFinite(costUsd) || costUsd < 0) return;
    const bucket = this.#model(provider, model);
    bucket.costUsd += costUsd;
    bucket.pricedAnswers += 1;
  }

  #finishRun(outcome: string, provider: string | null, model: string | null, durationMs: number): void {
    if (outcome === "aborted") return;
    // A refusal (content_filter) was answered and returned as sent: its reason is counted with the failed
    // attempts, the run with the model that answered, not with the runs nobody answered.
    if ((outcome !== "succeeded" && outcome !== "content_filter") || provider === null || model === null) {
      this.#current().failed += 1;
      return;
    }
    const bucket = this.#model(provider, model);
    bucket.requests += 1;
    bucket.latencyMs.add(durationMs);
  }

  #model(provider: string, model: string): ModelBucket {
    const models = this.#current().models;
    const label = this.#modelLabel(`${provider}/${model}`);
    let bucket = models.get(label);
    if (!bucket) {
      bucket = emptyModelBucket();
      models.set(label, bucket);
    }
    return bucket;
  }

  #current(): Bucket {
    const start = Math.floor(this.#now() / ACTIVITY_BUCKET_MS) * ACTIVITY_BUCKET_MS;
    const slot = (start / ACTIVITY_BUCKET_MS) % BUCKETS;
    let bucket = this.#buckets[slot];
    if (!bucket || bucket.start !== start) {
      bucket = { start, models: new Map(), fallbacks: 0, failed: 0, failures: new Map() };
      this.#buckets[slot] = bucket;
    }
    return bucket;
  }

  /** Every bucket of the window, oldest first, empty ones included so a chart has a steady time axis. */
  snapshot(): ActivitySnapshot {
    const now = this.#now();
    const newest = Math.floor(now / ACTIVITY_BUCKET_MS) * ACTIVITY_BUCKET_MS;
    const buckets: ActivityBucket[] = [];
    const failures: Partial<Record<FailoverReason, number>> = {};
    let fallbacks = 0;
    let failed = 0;
    const byModel = new Map<
      string,
      { requests: number; latency: number[]; firstToken: number[]; input: number; output: number; cost: number; priced: number }
    >();
    for (let index = BUCKETS - 1; index >= 0; index -= 1) {
      const start = newest - index * ACTIVITY_BUCKET_MS;
      const stored = this.#buckets[(start / ACTIVITY_BUCKET_MS) % BUCKETS];
      const bucket = stored && stored.start === start ? stored : undefined;
      const answeredBy: Record<string, number> = {};
      for (const [label, model] of bucket?.models ?? []) {
        if (model.requests > 0) answeredBy[label] = model.requests;
        const total = byModel.get(label) ?? { requests: 0, latency: [], firstToken: [], input: 0, output: 0, cost: 0, priced: 0 };
        total.requests += model.requests;
        total.latency.push(...model.latencyMs.values);
        total.firstToken.push(...model.firstTokenMs.values);
        total.input += model.inputTokens;
        total.output += model.outputTokens;
        total.cost += model.costUsd;
        total.priced += model.pricedAnswers;
        byModel.set(label, total);
      }
      const bucketFailures = Object.fromEntries(bucket?.failures ?? []) as Partial<Record<FailoverReason, number>>;
      buckets.push({ start, answeredBy, fallbacks: bucket?.fallbacks ?? 0, failed: bucket?.failed ?? 0, failures: bucketFailures });
      fallbacks += bucket?.fallbacks ?? 0;
      failed += bucket?.failed ?? 0;
      for (const [reason, count] of Object.entries(bucketFailures) as [FailoverReason, number][]) {
        failures[reason] = (failures[reason] ?? 0) + count;
      }
    }
    const models: ModelActivity[] = [...byModel]
      .map(([model, total]) => {
        const latency = spreadOf(total.latency);
        const firstToken = spreadOf(total.firstToken);
        return {
          model,
          family: modelFamilyOf(model),
          requests: total.requests,
          ...(latency ? { latency } : {}),
          ...(firstToken ? { firstToken } : {}),
          inputTokens: total.input,
          outputTokens: total.output,
          ...(total.priced > 0 ? { costUsd: total.cost } : {}),
        };
      })
      .sort((a, b) => b.requests - a.requests || a.model.localeCompare(b.model));
    // One model's rows stand together, the family with the most requests first (R-GW-12: the same model on several clouds).
    const familyRequests = new Map<string, number>();
    for (const model of models) familyRequests.set(model.family, (familyRequests.get(model.family) ?? 0) + model.requests);
    const familyRank = new Map(
      [...familyRequests].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([family], rank) => [family, rank]),
    );
    models.sort((a, b) => (familyRank.get(a.family) ?? 0) - (familyRank.get(b.family) ?? 0));
    const all = [...byModel.values()];
    const latency = spreadOf(all.flatMap((total) => total.latency));
    const firstToken = spreadOf(all.flatMap((total) => total.firstToken));
    const priced = all.some((total) => total.priced > 0);
    const totals: ActivityTotals = {
      requests: models.reduce((sum, model) => sum + model.requests, 0) + failed,
      fallbacks,
      failed,
      failures,
      ...(latency ? { latency } : {}),
      ...(firstToken ? { firstToken } : {}),
      inputTokens: all.reduce((sum, total) => sum + total.input, 0),
      outputTokens: all.reduce((sum, total) => sum + total.output, 0),
      ...(priced ? { costUsd: all.reduce((sum, total) => sum + total.cost, 0) } : {}),
    };
    return { bucketMs: ACTIVITY_BUCKET_MS, windowMs: ACTIVITY_WINDOW_MS, now, buckets, models, totals };
  }
}
