/**
 * Recent first-token times per (provider, model), the evidence behind when to hedge and how long to wait
 * for a first token. Each model keeps its last `perModel` samples in a ring; the number of models is bounded
 * too (least recently recorded forgotten first), because a library caller may name any model. Percentiles
 * are computed when asked and kept until the next sample, so the request path sorts at most once per sample.
 */
export interface FirstTokenStats {
  readonly count: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly p99Ms: number;
}

export interface FirstTokenSampleLimits {
  /** Samples kept per model (the newest win). */
  readonly perModel: number;
  /** Models kept at once. */
  readonly models: number;
}

export const DEFAULT_SAMPLE_LIMITS: FirstTokenSampleLimits = Object.freeze({ perModel: 200, models: 1024 });

class Ring {
  readonly #values: number[] = [];
  #next = 0;
  #stats: FirstTokenStats | undefined;

  constructor(private readonly capacity: number) {}

  add(value: number): void {
    if (this.#values.length < this.capacity) this.#values.push(value);
    else this.#values[this.#next] = value;
    this.#next = (this.#next + 1) % this.capacity;
    this.#stats = undefined;
  }

  stats(): FirstTokenStats {
    if (this.#stats) return this.#stats;
    const sorted = [...this.#values].sort((a, b) => a - b);
    this.#stats = Object.freeze({
      count: sorted.length,
      p50Ms: nearestRank(sorted, 0.5),
      p95Ms: nearestRank(sorted, 0.95),
      p99Ms: nearestRank(sorted, 0.99),
    });
    return this.#stats;
  }
}

/** The nearest-rank percentile of an ascending, non-empty list. */
export function nearestRank(sorted: readonly number[], fraction: number): number {
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

export class FirstTokenSamples {
  readonly #rings = new Map<string, Ring>();

  constructor(private readonly limits: FirstTokenSampleLimits = DEFAULT_SAMPLE_LIMITS) {}

  /** One attempt's time from its start to its first content. Negative or non-finite times are ignored. */
  record(provider: string, model: string, firstTokenMs: number): void {
    if (!Number.isFinite(firstTokenMs) || firstTokenMs < 0) return;
    const key = `${provider}/${model}`;
    let ring = this.#rings.get(key);
    if (ring) {
      this.#rings.delete(key);
    } else {
      ring = new Ring(this.limits.perModel);
      if (this.#rings.size >= this.limits.models) this.#rings.delete(this.#rings.keys().next().value as string);
    }
    this.#rings.set(key, ring);
    ring.add(firstTokenMs);
  }

  /** The model's recent first-token times, or undefined before its first sample. */
  stats(provider: string, model: string): FirstTokenStats | undefined {
    return this.#rings.get(`${provider}/${model}`)?.stats();
  }

  /** Every model with samples, for `/status` and the dashboard. */
  *models(): IterableIterator<{ provider: string; model: string; stats: FirstTokenStats }> {
    for (const [key, ring] of this.#rings) {
      const slash = key.indexOf("/");
      yield { provider: key.slice(0, slash), model: key.slice(slash + 1), stats: ring.stats() };
    }
  }
}
