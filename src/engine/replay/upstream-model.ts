/**
 * Upstream behaviour rebuilt from recorded run traces (R-OB-5), per (provider, model, profile) over time.
 *
 * A replayed call gets, in this order:
 * 1. the very call the recording made: the same run's k-th call to the same profile and model, when the
 *    replay makes it close to when the recording did — so the recording's own config reproduces its counts;
 * 2. otherwise that profile+model's behaviour at that moment: a stated reset that has not passed yet answers
 *    the same failure again ("answered 429 until t"), else the recorded call nearest in time;
 * 3. for a profile the recording never called: a failure of the whole provider (overloaded, server errors,
 *    timeouts, unreachable host, unknown model) seen on another profile of the same model at that moment,
 *    since another key of a provider that is down is down too; per-key failures (429, billing, auth) do not
 *    carry over;
 * 4. else a healthy answer with the model's median recorded latency and cost.
 *
 * Pure: no clock, no I/O; the replay asks with the time of its fake clock.
 */
import type { FailoverReason } from "../../core/reasons.js";
import type { RunTraceV1, TraceAttempt } from "../../core/run-trace.js";

/** How far a replayed call may drift from the recorded one and still be that call (jittered waits differ). */
export const SAME_CALL_TOLERANCE_MS = 5_000;
/** Latency of a healthy answer when the recording holds no answer at all to take it from. */
export const DEFAULT_HEALTHY_LATENCY_MS = 1_000;

/** Reasons that say the provider (or the model) is down, not one key: they hold for every key of it. */
const PROVIDER_WIDE: ReadonlySet<FailoverReason> = new Set<FailoverReason>([
  "overloaded",
  "server_error",
  "timeout",
  "model_not_found",
  "empty_response",
  "no_error_details",
]);

export interface UpstreamAnswer {
  kind: "answer";
  /** The very call the recording made starts when it did (a replay reaches it a few store reads early). */
  startDelayMs: number;
  /** Time until the answer (non-streamed) or its first content (streamed). */
  latencyMs: number;
  /** A streamed answer that reached the client, and how long its stream then ran. */
  committed: boolean;
  streamMs: number;
  costUsd: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  /** The answer was the provider's refusal (R-GW-11). */
  refused: boolean;
}

export interface UpstreamFailure {
  kind: "failure";
  startDelayMs: number;
  /** Time until the failure (or until the first content of a stream that was then cut). */
  latencyMs: number;
  committed: boolean;
  streamMs: number;
  reason: FailoverReason;
  status: number | null;
  code: string | null;
  resetAt: number | null;
}

/** The client left while this call ran: the call never answers (the run is aborted around it). */
export interface UpstreamHang {
  kind: "hang";
}

export type UpstreamBehaviour = UpstreamAnswer | UpstreamFailure | UpstreamHang;

export interface UpstreamModelOptions {
  /** Prices an answer of a model the recording holds no cost for (config prices, else the catalogue). */
  costOf?(provider: string, model: string, usage: { inputTokens: number; outputTokens: number }): number | undefined;
}

/** The tokens a run's answer took, when the recording knows them: a healthy answer of another model costs that much. */
export interface RunUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface UpstreamCall {
  /** The recorded run the replayed run stands for. */
  runId: string;
  provider: string;
  model: string;
  profileId: string | null;
  /** 0-based: how many calls the replayed run made to this profile and model before. */
  ordinal: number;
  /** Epoch ms on the replay's clock (which starts where the recording started). */
  at: number;
}

interface RecordedCall {
  at: number;
  /** When the outcome arrived (a stream's end). */
  endAt: number;
  attempt: TraceAttempt;
}

function keyOf(provider: string, model: string, profileId: string | null): string {
  return `${provider}\u0000${model}\u0000${profileId ?? ""}`;
}

function modelKeyOf(provider: string, model: string): string {
  return `${provider}\u0000${model}`;
}

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

function streamMsOf(attempt: TraceAttempt, trace: RunTraceV1, next: TraceAttempt | undefined): number {
  if (!attempt.committed) return 0;
  const firstContent = attempt.offsetMs + (attempt.durationMs ?? 0);
  const end = attempt.finishedOffsetMs ?? next?.offsetMs ?? trace.durationMs;
  return Math.max(0, end - firstContent);
}

export class UpstreamModel {
  readonly #byKey = new Map<string, RecordedCall[]>();
  readonly #byModel = new Map<string, RecordedCall[]>();
  /** runId → key → that run's calls to the key, in order. */
  readonly #byRun = new Map<string, Map<string, RecordedCall[]>>();
  readonly #healthyByModel = new Map<string, { latencyMs: number; costUsd: number | null; streamMs: number }>();
  readonly #healthyLatencyMs: number;

  readonly #costOf: UpstreamModelOptions["costOf"];

  constructor(traces: readonly RunTraceV1[], options: UpstreamModelOptions = {}) {
    this.#costOf = options.costOf;
    const answers = new Map<string, { latency: number[]; cost: number[]; stream: number[] }>();
    const allLatencies: number[] = [];
    for (const trace of traces) {
      const runCalls = new Map<string, RecordedCall[]>();
      this.#byRun.set(trace.runId, runCalls);
      trace.attempts.forEach((attempt, index) => {
        const at = trace.startedAt + attempt.offsetMs;
        const streamMs = streamMsOf(attempt, trace, trace.attempts[index + 1]);
        const endAt = at + (attempt.durationMs ?? 0) + streamMs;
        const call: RecordedCall = { at, endAt, attempt };
        const key = keyOf(attempt.provider, attempt.model, attempt.profileId);
        pushTo(runCalls, key, call);
        // A call the client walked away from says nothing about the upstream; it only replays as itself.
        if (attempt.outcome === null || attempt.outcome === "aborted") return;
        pushTo(this.#byKey, key, call);
        pushTo(this.#byModel, modelKeyOf(attempt.provider, attempt.model), call);
        if (attempt.outcome === "succeeded" && attempt.durationMs !== null) {
          const bucket = answers.get(modelKeyOf(attempt.provider, attempt.model)) ?? { latency: [], cost: [], stream: [] };
          bucket.latency.push(attempt.durationMs);
          if (attempt.costUsd !== null) bucket.cost.push(attempt.costUsd);
          if (attempt.committed) bucket.stream.push(streamMs);
          answers.set(modelKeyOf(attempt.provider, attempt.model), bucket);
          allLatencies.push(attempt.durationMs);
        }
      });
    }
    for (const list of [...this.#byKey.values(), ...this.#byModel.values()]) list.sort((a, b) => a.at - b.at);
    for (const [key, bucket] of answers) {
      this.#healthyByModel.set(key, {
        latencyMs: median(bucket.latency) ?? DEFAULT_HEALTHY_LATENCY_MS,
        costUsd: median(bucket.cost) ?? null,
        streamMs: median(bucket.stream) ?? 0,
      });
    }
    this.#healthyLatencyMs = median(allLatencies) ?? DEFAULT_HEALTHY_LATENCY_MS;
  }

  /** What the upstream does with this call. `streamed`: the replayed run streams (a healthy answer commits). */
  behaviour(call: UpstreamCall, streamed: boolean, usage?: RunUsage): UpstreamBehaviour {
    const key = keyOf(call.provider, call.model, call.profileId);
    const same = this.#byRun.get(call.runId)?.get(key)?.[call.ordinal];
    if (same && Math.abs(same.at - call.at) <= SAME_CALL_TOLERANCE_MS) {
      if (same.attempt.outcome === null || same.attempt.outcome === "aborted") return { kind: "hang" };
      return fromRecorded(same, same.at, call.at);
    }
    const own = this.#byKey.get(key);
    if (own && own.length > 0) return fromRecorded(atTime(own, call.at), undefined, call.at);
    const others = this.#byModel.get(modelKeyOf(call.provider, call.model));
    if (others && others.length > 0) {
      const seen = atTime(others, call.at);
      if (seen.attempt.outcome === "failed" && seen.attempt.reason !== null && PROVIDER_WIDE.has(seen.attempt.reason)) {
        return fromRecorded(seen, undefined, call.at);
      }
    }
    return this.#healthy(call, streamed, usage);
  }

  #healthy(call: UpstreamCall, streamed: boolean, usage: RunUsage | undefined): UpstreamAnswer {
    const known = this.#healthyByModel.get(modelKeyOf(call.provider, call.model));
    const priced = known?.costUsd ?? (usage ? this.#costOf?.(call.provider, call.model, usage) : undefined);
    return {
      kind: "answer",
      startDelayMs: 0,
      latencyMs: known?.latencyMs ?? this.#healthyLatencyMs,
      committed: streamed,
      streamMs: streamed ? (known?.streamMs ?? 0) : 0,
      costUsd: priced ?? null,
      inputTokens: usage?.inputTokens ?? null,
      outputTokens: usage?.outputTokens ?? null,
      refused: false,
    };
  }
}

function pushTo<K>(map: Map<K, RecordedCall[]>, key: K, call: RecordedCall): void {
  const list = map.get(key);
  if (list) list.push(call);
  else map.set(key, [call]);
}

/** The recorded call that tells what this upstream did at `at`: a stated reset still running, else the nearest call. */
function atTime(calls: readonly RecordedCall[], at: number): RecordedCall {
  let low = 0;
  let high = calls.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (calls[middle]!.at <= at) low = middle + 1;
    else high = middle;
  }
  const before = low > 0 ? calls[low - 1] : undefined;
  const after = calls[low];
  if (before && before.attempt.outcome === "failed" && before.attempt.statedResetAt !== null && at < before.attempt.statedResetAt) {
    return before;
  }
  if (!before) return after!;
  if (!after) return before;
  return at - before.at <= after.at - at ? before : after;
}

/**
 * The recorded call's outcome, replayed at `at`. The very same call keeps its stated reset as it was; a call
 * borrowed from another moment keeps the reset's distance (or the instant, while that is still ahead).
 */
function fromRecorded(recorded: RecordedCall, sameCallAt: number | undefined, at: number): UpstreamAnswer | UpstreamFailure {
  const { attempt } = recorded;
  const latencyMs = Math.max(0, attempt.durationMs ?? 0);
  const streamMs = Math.max(0, recorded.endAt - recorded.at - latencyMs);
  const startDelayMs = sameCallAt !== undefined ? Math.max(0, sameCallAt - at) : 0;
  if (attempt.outcome === "succeeded" || attempt.reason === "content_filter") {
    return {
      kind: "answer",
      startDelayMs,
      latencyMs,
      committed: attempt.committed,
      streamMs,
      costUsd: attempt.costUsd,
      inputTokens: attempt.inputTokens,
      outputTokens: attempt.outputTokens,
      refused: attempt.reason === "content_filter",
    };
  }
  let resetAt = attempt.statedResetAt;
  if (resetAt !== null && sameCallAt === undefined && resetAt <= at) {
    resetAt = at + (resetAt - recorded.endAt);
  }
  return {
    kind: "failure",
    startDelayMs,
    latencyMs,
    committed: attempt.committed,
    streamMs,
    reason: attempt.reason ?? "unclassified",
    status: attempt.status,
    code: attempt.code ?? null,
    resetAt,
  };
}
