/**
 * Prometheus metrics of one gateway (SPEC R-OB-3), on a registry of its own so two gateways in one process
 * (tests, the demo) never share counters. The one place that turns runner events and the gateway's own
 * timings into metrics; label values are provider, model, agent and reason names — never credentials
 * (R-OB-2).
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { DetourConfig } from "../config/index.js";
import type { CanonicalUsage } from "../ports/canonical.js";
import type { DetourEvent } from "../ports/events.js";
import type { TraceWriteStats } from "../engine/index.js";
import { configuredMetricLabels, PASS_THROUGH_LABELS, type MetricLabels } from "./metric-labels.js";
import { isFallbackMove } from "./fallback-moves.js";
import { MetricLabelCache } from "./metric-label-cache.js";

/** R-GW-7: the token kinds counted per provider and model. */
export type TokenKind = "input" | "output" | "cache_read" | "cache_write" | "reasoning";

export type ProfileState = "usable" | "cooldown" | "disabled";

export interface ProfileStateSample {
  provider: string;
  state: ProfileState;
}

export interface GatewayMetricsOptions {
  /** Read at every scrape, so the gauges show the store's current view (several replicas share it). */
  profileStates?: () => Promise<readonly ProfileStateSample[]>;
  /** Sessions stored per agent, read at every scrape (bounded by `sessions.maxCount` each). */
  sessionCounts?: () => Promise<readonly { agent: string; count: number }[]>;
  /** Run traces written and dropped by the engine in use (R-OB-4), read at every scrape. */
  traceWrites?: () => TraceWriteStats | undefined;
  /** R-PO-8: attempts in flight per profile with seats, and requests waiting for one, read at every scrape. */
  seats?: () => Promise<{ inFlight: readonly { agent: string; profile: string; inFlight: number }[]; queueLength: number }>;
  /** Bounds label values to the configured providers, models and agents (R-GW-8). */
  config?: DetourConfig;
}

const LATENCY_BUCKETS_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const OVERHEAD_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
/** Upstream time is kept per run until the gateway asks for its overhead; bounded for runs it never asks about. */
const MAX_TRACKED_RUNS = 1024;

/** What the dashboard learns about answers as the metrics do: first-token times, tokens and cost. */
export interface AnswerObserver {
  observeFirstToken(provider: string, model: string, milliseconds: number): void;
  observeTokens(provider: string, model: string, usage: CanonicalUsage): void;
  observeCost(provider: string, model: string, costUsd: number): void;
}

export class GatewayMetrics {
  readonly #answerObservers = new Set<AnswerObserver>();
  readonly registry = new Registry();
  readonly #requests: Counter<"agent" | "outcome">;
  readonly #attempts: Counter<"provider" | "model" | "reason">;
  readonly #fallbacks: Counter<"agent" | "from_model" | "to_model" | "reason">;
  readonly #rotations: Counter<"provider" | "reason">;
  readonly #notices: Counter<"kind">;
  readonly #postCommitFailures: Counter<"provider" | "model">;
  readonly #continuations: Counter<"provider" | "model" | "outcome">;
  readonly #continuedRuns: Counter<"agent" | "outcome">;
  readonly #malformedChunks: Counter<"provider" | "model">;
  readonly #tokens: Counter<"provider" | "model" | "kind">;
  readonly #cost: Counter<"provider" | "model">;
  readonly #stateBookkeepingFailures: Counter<"operation">;
  readonly #hedges: Counter<"provider" | "outcome">;
  readonly #upstreamLatency: Histogram<"provider" | "model" | "outcome">;
  readonly #gatewayOverhead: Histogram<"endpoint">;
  readonly #timeToFirstToken: Histogram<"provider" | "model">;
  readonly #upstreamMsByRun = new Map<string, number>();
  #labels: MetricLabels;
  /** Label objects per (provider, model), built once (metric-label-cache.ts). */
  readonly #pairs: MetricLabelCache;

  constructor(options: GatewayMetricsOptions = {}) {
    this.#labels = options.config ? configuredMetricLabels(options.config) : PASS_THROUGH_LABELS;
    this.#pairs = new MetricLabelCache(this.#labels);
    // The gauge's collect() runs with the gauge as `this`; it must see the labels of the config now in use.
    const labels = { provider: (name: string) => this.#labels.provider(name) };
    const registers = [this.registry];
    this.#requests = new Counter({
      name: "detour_requests_total",
      help: "Runs finished, by agent and outcome (succeeded, failed, aborted, content_filter: a refusal returned as the answer).",
      labelNames: ["agent", "outcome"],
      registers,
    });
    this.#attempts = new Counter({
      name: "detour_attempts_total",
      help: "Upstream attempts, by provider, model and failure reason (`none` for a success).",
      labelNames: ["provider", "model", "reason"],
      registers,
    });
    this.#fallbacks = new Counter({
      name: "detour_fallbacks_total",
      help: "Moves from a failed or skipped candidate to the next model of the chain.",
      labelNames: ["agent", "from_model", "to_model", "reason"],
      registers,
    });
    this.#rotations = new Counter({
      name: "detour_profile_rotations_total",
      help: "Rotations from one auth profile to the next within a provider.",
      labelNames: ["provider", "reason"],
      registers,
    });
    this.#notices = new Counter({
      name: "detour_notices_total",
      help: "Fallback and fallback-cleared notices emitted.",
      labelNames: ["kind"],
      registers,
    });
    this.#postCommitFailures = new Counter({
      name: "detour_stream_post_commit_failures_total",
      help: "Streams that failed after their first content reached the client (ended with an explicit error).",
      labelNames: ["provider", "model"],
      registers,
    });
    this.#continuations = new Counter({
      name: "detour_stream_continuations_total",
      help: "Attempts that continued a committed stream after it was cut, stalled or failed, by outcome.",
      labelNames: ["provider", "model", "outcome"],
      registers,
    });
    this.#continuedRuns = new Counter({
      name: "detour_requests_continued_total",
      help: "Runs whose committed stream failed and was continued, by how the run ended (succeeded = rescued).",
      labelNames: ["agent", "outcome"],
      registers,
    });
    this.#hedges = new Counter({
      name: "detour_hedges_total",
      help: "Slow attempts raced by the next one, by the slow attempt's provider: won = the hedge answered, lost = the slow attempt did, budget_denied = no hedge allowed.",
      labelNames: ["provider", "outcome"],
      registers,
    });
    this.#stateBookkeepingFailures = new Counter({
      name: "detour_state_bookkeeping_failures_total",
      help: "Successes or uses the state store failed to record; the answers were still delivered.",
      labelNames: ["operation"],
      registers,
    });
    this.#malformedChunks = new Counter({
      name: "detour_stream_malformed_chunks_total",
      help: "Upstream stream chunks skipped because they could not be parsed.",
      labelNames: ["provider", "model"],
      registers,
    });
    this.#tokens = new Counter({
      name: "detour_tokens_total",
      help: "Tokens of answered requests, by provider, model and kind (input, output, cache_read, cache_write, reasoning).",
      labelNames: ["provider", "model", "kind"],
      registers,
    });
    this.#cost = new Counter({
      name: "detour_cost_usd_total",
      help: "US dollars answered requests cost, priced from the model's config `cost` or the model catalogue (models without prices are not counted).",
      labelNames: ["provider", "model"],
      registers,
    });
    this.#upstreamLatency = new Histogram({
      name: "detour_upstream_latency_seconds",
      help: "Duration of one upstream attempt (for streams: until the first content).",
      labelNames: ["provider", "model", "outcome"],
      buckets: LATENCY_BUCKETS_SECONDS,
      registers,
    });
    this.#gatewayOverhead = new Histogram({
      name: "detour_gateway_overhead_seconds",
      help: "Time a request spent in the gateway and engine, excluding upstream attempts.",
      labelNames: ["endpoint"],
      buckets: OVERHEAD_BUCKETS_SECONDS,
      registers,
    });
    this.#timeToFirstToken = new Histogram({
      name: "detour_time_to_first_token_seconds",
      help: "Time from opening an upstream stream to its first content.",
      labelNames: ["provider", "model"],
      buckets: LATENCY_BUCKETS_SECONDS,
      registers,
    });
    const profileStates = options.profileStates;
    const sessionCounts = options.sessionCounts;
    const traceWrites = options.traceWrites;
    new Counter({
      name: "detour_trace_writes_total",
      help:
        "Run traces by result: written, or dropped (the write queue was full or the trace store failed; " +
        "the runs still answered). Counted since the engine started: a config reload starts a new count.",
      labelNames: ["result"],
      registers,
      collect() {
        this.reset();
        const stats = traceWrites?.();
        if (!stats) return;
        this.inc({ result: "written" }, stats.written);
        this.inc({ result: "dropped" }, stats.dropped);
      },
    });
    new Gauge({
      name: "detour_trace_queue",
      help: "Finished runs whose trace waits to be written; bounded, the oldest is dropped past the bound.",
      registers,
      collect() {
        this.set(traceWrites?.()?.queued ?? 0);
      },
    });
    const agentLabel = (name: string) => this.#labels.agent(name);
    const seats = options.seats;
    new Gauge({
      name: "detour_profile_inflight",
      help:
        "Attempts in flight per auth profile with a seat limit (maxConcurrent) or something in flight: " +
        "counted across every process and replica sharing the state for a limited profile.",
      labelNames: ["agent", "profile"],
      registers,
      async collect() {
        this.reset();
        if (!seats) return;
        for (const sample of (await seats()).inFlight)
          this.set({ agent: agentLabel(sample.agent), profile: sample.profile }, sample.inFlight);
      },
    });
    new Gauge({
      name: "detour_queue_length",
      help: "Requests of this process waiting in line for a seat (every usable profile of every candidate was full).",
      registers,
      async collect() {
        this.set(seats ? (await seats()).queueLength : 0);
      },
    });
    new Gauge({
      name: "detour_sessions",
      help: "Sessions the store holds per agent; sessions.maxCount bounds each agent's count.",
      labelNames: ["agent"],
      registers,
      async collect() {
        this.reset();
        if (!sessionCounts) return;
        for (const { agent, count } of await sessionCounts()) this.inc({ agent: agentLabel(agent) }, count);
      },
    });
    new Gauge({
      name: "detour_profiles",
      help: "Auth profiles by provider and state (usable, cooldown, disabled).",
      labelNames: ["provider", "state"],
      registers,
      async collect() {
        this.reset();
        if (!profileStates) return;
        const counts = new Map<string, { provider: string; state: ProfileState; count: number }>();
        for (const sample of await profileStates()) {
          const provider = labels.provider(sample.provider);
          const key = `${provider}\u0000${sample.state}`;
          const entry = counts.get(key) ?? { provider, state: sample.state, count: 0 };
          entry.count += 1;
          counts.set(key, entry);
        }
        for (const entry of counts.values()) this.set({ provider: entry.provider, state: entry.state }, entry.count);
      },
    });
  }

  /**
   * After a config reload, label values are bounded by the new config's providers, models and agents
   * (R-GW-8). Series already exported stay: their number is bounded by the configs an operator loaded.
   */
  useConfig(config: DetourConfig): void {
    this.#labels = configuredMetricLabels(config);
    this.#pairs.use(this.#labels);
  }

  /** Feeds one runner event; events the metrics do not count are ignored. */
  observeEvent(event: DetourEvent): void {
    switch (event.type) {
      case "run_finished":
        this.#requests.inc({ agent: this.#labels.agent(event.agentId), outcome: event.outcome });
        if (event.continuations !== undefined)
          this.#continuedRuns.inc({ agent: this.#labels.agent(event.agentId), outcome: event.outcome });
        return;
      case "attempt_finished": {
        const pair = this.#pairs.of(event.provider, event.model);
        // An attempt aborted by the runner is one that lost a hedge race.
        this.#attempts.inc(
          pair.attempt(
            event.outcome === "succeeded" ? "none" : event.outcome === "aborted" ? "hedge_lost" : (event.reason ?? event.outcome),
          ),
        );
        this.#upstreamLatency.observe(pair.latency(event.outcome), event.durationMs / 1000);
        if (event.continuation !== undefined) this.#continuations.inc({ ...pair.pair, outcome: event.outcome });
        // The gateway's overhead of a stream is taken at its commit, before these attempts finish.
        // A raced loser ran beside the answer's own upstream time, not before it.
        if (!event.committed && event.continuation === undefined && event.outcome !== "aborted")
          this.#addUpstreamTime(event.runId, event.durationMs);
        return;
      }
      case "model_fallback_decision":
        if (isFallbackMove(event)) {
          this.#fallbacks.inc({
            agent: this.#labels.agent(event.agentId),
            from_model: this.#labels.modelRef(event.candidateModel),
            to_model: this.#labels.modelRef(event.nextCandidate as string),
            reason: event.reason ?? "unknown",
          });
        }
        return;
      case "profile_rotated":
        this.#rotations.inc({ provider: this.#labels.provider(event.provider), reason: event.reason });
        return;
      case "notice":
        this.#notices.inc({ kind: event.kind });
        return;
      case "state_bookkeeping_failed":
        this.#stateBookkeepingFailures.inc({ operation: event.operation });
        return;
      case "hedge":
        if (event.outcome !== "started") this.#hedges.inc({ provider: this.#labels.provider(event.provider), outcome: event.outcome });
        return;
      default:
        return;
    }
  }

  /**
   * Records the gateway's own share of a request: `totalMs` from arrival until the answer (or the stream's
   * commit) was ready, minus the upstream attempts of `runId`.
   */
  observeGatewayOverhead(endpoint: string, totalMs: number, runId?: string): void {
    const upstreamMs = runId === undefined ? 0 : (this.#upstreamMsByRun.get(runId) ?? 0);
    if (runId !== undefined) this.#upstreamMsByRun.delete(runId);
    this.#gatewayOverhead.observe({ endpoint }, Math.max(0, totalMs - upstreamMs) / 1000);
  }

  /** Answers' facts reach `observer` too, unlabelled (it bounds its own labels); returns the unsubscribe. */
  observeAnswers(observer: AnswerObserver): () => void {
    this.#answerObservers.add(observer);
    return () => this.#answerObservers.delete(observer);
  }

  observeTimeToFirstToken(provider: string, model: string, milliseconds: number): void {
    this.#timeToFirstToken.observe(this.#providerModel(provider, model), milliseconds / 1000);
    for (const observer of this.#answerObservers) observer.observeFirstToken(provider, model, milliseconds);
  }

  observePostCommitFailure(provider: string, model: string): void {
    this.#postCommitFailures.inc(this.#providerModel(provider, model));
  }

  /** R-GW-7: `input` counts every input token, cache reads and writes included; `output` includes reasoning. */
  observeTokens(provider: string, model: string, usage: CanonicalUsage): void {
    // R-GW-8: label values are the configured providers and models; anything else is `other`.
    const labels = this.#pairs.of(provider, model).tokens;
    this.#countTokens(labels.input, usage.inputTokens);
    this.#countTokens(labels.output, usage.outputTokens);
    this.#countTokens(labels.cache_read, usage.cacheReadTokens);
    this.#countTokens(labels.cache_write, usage.cacheWriteTokens);
    this.#countTokens(labels.reasoning, usage.reasoningTokens);
    for (const observer of this.#answerObservers) observer.observeTokens(provider, model, usage);
  }

  /** R-GW-7: what one answer cost; label values bounded like the token metrics (R-GW-8). */
  observeCost(provider: string, model: string, costUsd: number): void {
    if (Number.isFinite(costUsd) && costUsd > 0) this.#cost.inc(this.#providerModel(provider, model), costUsd);
    for (const observer of this.#answerObservers) observer.observeCost(provider, model, costUsd);
  }

  observeMalformedChunks(provider: string, model: string, count: number): void {
    if (count > 0) this.#malformedChunks.inc(this.#providerModel(provider, model), count);
  }

  /** Prometheus text exposition. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  #countTokens(labels: Readonly<{ provider: string; model: string; kind: TokenKind }>, count: number | undefined): void {
    if (count !== undefined && count > 0) this.#tokens.inc(labels, count);
  }

  #providerModel(provider: string, model: string): Readonly<{ provider: string; model: string }> {
    return this.#pairs.of(provider, model).pair;
  }

  #addUpstreamTime(runId: string, durationMs: number): void {
    const previous = this.#upstreamMsByRun.get(runId);
    if (previous === undefined && this.#upstreamMsByRun.size >= MAX_TRACKED_RUNS) {
      const oldest = this.#upstreamMsByRun.keys().next().value;
      if (oldest !== undefined) this.#upstreamMsByRun.delete(oldest);
    }
    this.#upstreamMsByRun.set(runId, (previous ?? 0) + durationMs);
  }
}

/** The state a profile is in for the gauges: a disable outranks a cooldown or provider-stated block. */
export function profileStateOf(
  stats: { cooldownUntil?: number; disabledUntil?: number; blockedUntil?: number } | undefined,
  now: number,
): ProfileState {
  if (stats?.disabledUntil !== undefined && stats.disabledUntil > now) return "disabled";
  if (stats?.cooldownUntil !== undefined && stats.cooldownUntil > now) return "cooldown";
  if (stats?.blockedUntil !== undefined && stats.blockedUntil > now) return "cooldown";
  return "usable";
}
