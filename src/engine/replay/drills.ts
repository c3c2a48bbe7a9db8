/**
 * Drills (R-OB-6): built-in synthetic incidents, each written as a run trace (format v1) of what the upstream
 * did — the runs of an ordinary hour to the config's primary model, with the incident on its first key or on
 * its whole provider — so the replay engine runs them against any config exactly as it replays a recording.
 * Pure: the traces are a function of the target and the start time.
 */
import type { FailoverReason } from "../../core/reasons.js";
import { newRunTrace, newTraceAttempt, type RunTraceStart, type RunTraceV1, type TraceAttempt } from "../../core/run-trace.js";

export interface DrillTarget {
  /** `provider/model` the runs ask for: the config's primary. */
  requestedModel: string;
  provider: string;
  model: string;
  /** The key the incident hits (per-key incidents) or that the recording happened to use (provider-wide ones). */
  profileId: string | null;
}

/** What the upstream does to one call during the incident. */
interface IncidentCall {
  latencyMs: number;
  reason: FailoverReason;
  status: number | null;
  code: string | null;
  retryAfterMs?: number;
  /** A streamed answer that reached the client and was then cut after `streamMs`. */
  cutAfterMs?: number;
}

export interface DrillDefinition {
  name: string;
  title: string;
  /** What happens, in one sentence a user reads in `detour drill --list`. */
  description: string;
  /** Whole drill, in minutes; runs arrive every `everySeconds`. */
  minutes: number;
  everySeconds: number;
  /** The incident lasts from `fromMinute` until `untilMinute`. */
  fromMinute: number;
  untilMinute: number;
  /** The incident hits one key (other keys of the provider answer) or the whole provider. */
  scope: "key" | "provider";
  streamed: boolean;
  call: IncidentCall;
}

const HEALTHY_LATENCY_MS = 900;
const HEALTHY_STREAM_MS = 2_500;
const INPUT_TOKENS = 1_200;
const OUTPUT_TOKENS = 350;
const SESSIONS = 40;

/** A whole provider out for 15 minutes of a 20-minute drill, a run every 5 s: the hang and the refused connection. */
const QUARTER_HOUR_PROVIDER_OUTAGE = {
  minutes: 20,
  everySeconds: 5,
  fromMinute: 2,
  untilMinute: 17,
  scope: "provider",
  streamed: false,
} as const satisfies Partial<DrillDefinition>;

export const DRILLS: readonly DrillDefinition[] = [
  {
    name: "rate-limit-storm",
    title: "429 storm on one key",
    description: "The first key of the primary model answers 429 (Retry-After 20 s) to every call for 25 minutes; other keys are fine.",
    minutes: 30,
    everySeconds: 3,
    fromMinute: 2,
    untilMinute: 27,
    scope: "key",
    streamed: false,
    call: { latencyMs: 150, reason: "rate_limit", status: 429, code: "rate_limit_exceeded", retryAfterMs: 20_000 },
  },
  {
    name: "overloaded-provider",
    title: "overloaded provider for an hour",
    description: "The primary model's provider answers 529 overloaded to every key for an hour.",
    minutes: 70,
    everySeconds: 10,
    fromMinute: 5,
    untilMinute: 65,
    scope: "provider",
    streamed: false,
    call: { latencyMs: 400, reason: "overloaded", status: 529, code: "overloaded_error" },
  },
  {
    name: "silent-provider",
    title: "silent provider",
    description: "The primary model's provider takes every call and never answers, for 15 minutes: only your timeouts end the wait.",
    ...QUARTER_HOUR_PROVIDER_OUTAGE,
    call: { latencyMs: 600_000, reason: "timeout", status: null, code: null },
  },
  {
    name: "billing-cutoff",
    title: "billing cut-off",
    description: "The first key of the primary model runs out of credit and answers 402 from minute 5 to the end.",
    minutes: 60,
    everySeconds: 10,
    fromMinute: 5,
    untilMinute: 60,
    scope: "key",
    streamed: false,
    call: { latencyMs: 200, reason: "billing", status: 402, code: "insufficient_quota" },
  },
  {
    name: "cut-streams",
    title: "cut streams",
    description: "Streamed answers of the primary model's provider start, then the connection drops 1.5 s in, for 20 minutes.",
    minutes: 25,
    everySeconds: 5,
    fromMinute: 2,
    untilMinute: 22,
    scope: "provider",
    streamed: true,
    call: { latencyMs: 500, reason: "timeout", status: null, code: "ECONNRESET", cutAfterMs: 1_500 },
  },
  {
    name: "unreachable-host",
    title: "unreachable host",
    description: "The primary model's provider refuses connections (ECONNREFUSED) for 15 minutes.",
    ...QUARTER_HOUR_PROVIDER_OUTAGE,
    call: { latencyMs: 3, reason: "timeout", status: null, code: "ECONNREFUSED" },
  },
];

export function findDrill(name: string): DrillDefinition | undefined {
  return DRILLS.find((drill) => drill.name === name);
}

function attempt(target: DrillTarget, fields: Partial<TraceAttempt> & Pick<TraceAttempt, "outcome">): TraceAttempt {
  return newTraceAttempt({ offsetMs: 0, provider: target.provider, model: target.model, profileId: target.profileId }, fields);
}

/**
 * The drill as a recorded trace: one run every `everySeconds` from `startMs`, each calling the target once.
 * `priceOf` prices a healthy answer of the target (undefined: no known price, no cost).
 */
export function drillTraces(
  drill: DrillDefinition,
  target: DrillTarget,
  startMs: number,
  priceOf?: (usage: { inputTokens: number; outputTokens: number }) => number | undefined,
): RunTraceV1[] {
  const traces: RunTraceV1[] = [];
  const everyMs = drill.everySeconds * 1000;
  const runs = Math.floor((drill.minutes * 60_000) / everyMs);
  const cost = priceOf?.({ inputTokens: INPUT_TOKENS, outputTokens: OUTPUT_TOKENS }) ?? null;
  for (let index = 0; index < runs; index += 1) {
    const offset = index * everyMs;
    const startedAt = startMs + offset;
    const inIncident = offset >= drill.fromMinute * 60_000 && offset < drill.untilMinute * 60_000;
    const call = drill.call;
    let only: TraceAttempt;
    let durationMs: number;
    if (!inIncident) {
      const streamMs = drill.streamed ? HEALTHY_STREAM_MS : 0;
      durationMs = HEALTHY_LATENCY_MS + streamMs;
      only = attempt(target, {
        outcome: "succeeded",
        status: 200,
        durationMs: HEALTHY_LATENCY_MS,
        firstTokenMs: drill.streamed ? HEALTHY_LATENCY_MS : null,
        committed: drill.streamed,
        finishedOffsetMs: durationMs,
        inputTokens: INPUT_TOKENS,
        outputTokens: OUTPUT_TOKENS,
        costUsd: cost,
      });
    } else {
      const committed = call.cutAfterMs !== undefined;
      durationMs = call.latencyMs + (call.cutAfterMs ?? 0);
      only = attempt(target, {
        outcome: "failed",
        status: call.status,
        reason: call.reason,
        code: call.code,
        durationMs: call.latencyMs,
        firstTokenMs: committed ? call.latencyMs : null,
        committed,
        finishedOffsetMs: durationMs,
        statedResetAt: call.retryAfterMs !== undefined ? startedAt + call.latencyMs + call.retryAfterMs : null,
      });
    }
    const answered = only.outcome === "succeeded";
    const start: RunTraceStart = {
      runId: `drill-${drill.name}-${String(index).padStart(5, "0")}`,
      agentId: "main",
      startedAt,
      sessionHash: `drill-session-${index % SESSIONS}`,
      request: { requestedModel: target.requestedModel, dialect: null, stream: drill.streamed, estimatedInputTokens: INPUT_TOKENS },
      chain: [target.requestedModel],
      selectionSource: "request_model",
    };
    traces.push(
      newRunTrace(start, {
        outcome: answered ? "succeeded" : "failed",
        durationMs,
        answeredBy: answered ? { provider: target.provider, model: target.model, profileId: target.profileId } : null,
        attempts: [only],
        costUsd: only.costUsd ?? 0,
      }),
    );
  }
  return traces;
}
