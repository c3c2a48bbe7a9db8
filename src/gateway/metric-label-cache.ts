/**
 * The label objects of the per-request metrics, built once per (provider, model) pair and handed to prom-client
 * as they are: a healthy request counts its attempt, its latency and up to five token kinds, and building a
 * fresh label object (and the configured-name lookups behind it) for each of those was most of what the metrics
 * cost per request. The objects are frozen: prom-client keeps a reference to the first one it sees per series.
 *
 * The keys are the names as the runner reported them, which a client can choose (a made-up model): the cache
 * is dropped whole when it reaches its bound, as when the config (and so the label values, R-GW-8) changes.
 */
import type { MetricLabels } from "./metric-labels.js";
import type { TokenKind } from "./metrics.js";

const MAX_PAIRS = 256;

type Pair = Readonly<{ provider: string; model: string }>;

export class PairLabels {
  readonly pair: Pair;
  readonly tokens: Readonly<Record<TokenKind, Readonly<{ provider: string; model: string; kind: TokenKind }>>>;
  readonly #attempts = new Map<string, Readonly<{ provider: string; model: string; reason: string }>>();
  readonly #latency = new Map<string, Readonly<{ provider: string; model: string; outcome: string }>>();

  constructor(provider: string, model: string) {
    this.pair = Object.freeze({ provider, model });
    const kind = (kind: TokenKind) => Object.freeze({ provider, model, kind });
    this.tokens = Object.freeze({
      input: kind("input"),
      output: kind("output"),
      cache_read: kind("cache_read"),
      cache_write: kind("cache_write"),
      reasoning: kind("reasoning"),
    });
  }

  /** `detour_attempts_total` labels; reasons are the failure reasons' closed set (and `none`, `hedge_lost`). */
  attempt(reason: string): Readonly<{ provider: string; model: string; reason: string }> {
    let labels = this.#attempts.get(reason);
    if (labels === undefined) {
      labels = Object.freeze({ ...this.pair, reason });
      this.#attempts.set(reason, labels);
    }
    return labels;
  }

  /** `detour_upstream_latency_seconds` labels; outcomes are the attempt outcomes' closed set. */
  latency(outcome: string): Readonly<{ provider: string; model: string; outcome: string }> {
    let labels = this.#latency.get(outcome);
    if (labels === undefined) {
      labels = Object.freeze({ ...this.pair, outcome });
      this.#latency.set(outcome, labels);
    }
    return labels;
  }
}

export class MetricLabelCache {
  #labels: MetricLabels;
  #byProvider = new Map<string, Map<string, PairLabels>>();
  #size = 0;

  constructor(labels: MetricLabels) {
    this.#labels = labels;
  }

  /** New label values (a config reload): what was built for the old ones goes. */
  use(labels: MetricLabels): void {
    this.#labels = labels;
    this.#byProvider = new Map();
    this.#size = 0;
  }

  /** The labels of `provider`/`model` as the runner named them, bounded to the configured names (R-GW-8). */
  of(provider: string, model: string): PairLabels {
    let models = this.#byProvider.get(provider);
    let labels = models?.get(model);
    if (labels !== undefined) return labels;
    if (this.#size >= MAX_PAIRS) this.use(this.#labels);
    labels = new PairLabels(this.#labels.provider(provider), this.#labels.model(provider, model));
    models = this.#byProvider.get(provider);
    if (models === undefined) {
      models = new Map();
      this.#byProvider.set(provider, models);
    }
    models.set(model, labels);
    this.#size += 1;
    return labels;
  }
}
