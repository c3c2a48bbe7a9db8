/**
 * Run trace format v1 (R-OB-4): what one run went through, as plain data, rebuilt from the runner's events.
 *
 * A trace holds timings, outcomes, classified reasons and counts — never prompt or answer text, never an
 * upstream error message (it can quote the prompt), never a secret. The session key is hashed so runs of one
 * session can be linked without the key itself being stored.
 *
 * `runner/run-trace-builder.ts` assembles traces from the runner's events.
 */
import type { HeadroomReading, HeadroomStatus } from "./headroom/reading.js";
import type { FailoverReason } from "./reasons.js";
import { DetourError, ERROR_CODES } from "./errors.js";

export const RUN_TRACE_VERSION = 1;

export type TraceOutcome = "succeeded" | "failed" | "aborted";
/** `content_filter`: the answer was the provider's refusal, returned as sent. */
export type RunTraceOutcome = TraceOutcome | "content_filter";

export interface TraceAttempt {
  /** Milliseconds after the run started. */
  offsetMs: number;
  provider: string;
  model: string;
  profileId: string | null;
  /** `null` while the run ended before the attempt reported (an aborted run). */
  outcome: TraceOutcome | null;
  status: number | null;
  reason: FailoverReason | null;
  /** Epoch ms the provider said its limit resets; `null` when it did not say. */
  statedResetAt: number | null;
  /** Milliseconds from the attempt's start to its first content; `null` when none arrived or unmeasured. */
  firstTokenMs: number | null;
  durationMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
  /** The stream reached the client before the outcome. */
  committed: boolean;
  /** 1-based continuation of a committed stream that failed; `null` for an ordinary attempt. */
  continuation: number | null;
  hedge: boolean;
  /**
   * Added within v1 (readers treat a missing field as `null`): the upstream's or the connection's error code
   * (`rate_limit_exceeded`, `ECONNREFUSED`) — an identifier, never a message.
   */
  code?: string | null;
  /** Added within v1: milliseconds after the run started when the outcome arrived (a stream's end, not its first token). */
  finishedOffsetMs?: number | null;
  /**
   * Added within v1, filled by the hedging race: the hedge's position in the race (1 = the first extra call), so
   * a replay can pair a hedge with the attempt it raced; `null` for an attempt that was no hedge.
   */
  hedgeIndex?: number | null;
  /**
   * Added within v1 (readers treat a missing field as none seen): the rate-limit headroom the upstream's
   * answer stated (R-PO-7), at most `MAX_TRACE_HEADROOM_READINGS`, tightest first. Absent when the answer
   * carried no rate-limit headers.
   */
  headroom?: TraceHeadroomReading[];
}

/** One rate-limit window as an attempt's answer stated it: numbers and a status, never a header value. */
export interface TraceHeadroomReading {
  window: string;
  /** Set when the provider limits per model; absent = the whole profile. */
  model?: string;
  remainingShare: number | null;
  remaining: number | null;
  limit: number | null;
  status: HeadroomStatus | null;
  /** Epoch ms. */
  resetAt: number;
}

/**
 * An attempt as it starts: where it went, every fact still unknown; `fields` fills in what is known. Written
 * out field by field, not spread: the trace builder makes one per attempt, and an object built by spreads
 * took V8 several times longer to serialise when its trace was written.
 */
export function newTraceAttempt(
  where: Pick<TraceAttempt, "offsetMs" | "provider" | "model" | "profileId">,
  fields?: Partial<TraceAttempt>,
): TraceAttempt {
  const attempt: TraceAttempt = {
    offsetMs: where.offsetMs,
    provider: where.provider,
    model: where.model,
    profileId: where.profileId,
    outcome: null,
    status: null,
    reason: null,
    statedResetAt: null,
    firstTokenMs: null,
    durationMs: null,
    inputTokens: null,
    outputTokens: null,
    costUsd: null,
    committed: false,
    continuation: null,
    hedge: false,
    code: null,
    finishedOffsetMs: null,
    hedgeIndex: null,
  };
  return fields ? Object.assign(attempt, fields) : attempt;
}

/** What a run is known by from its start: who asked, for what, along which chain. */
export type RunTraceStart = Pick<RunTraceV1, "runId" | "agentId" | "startedAt" | "sessionHash" | "request" | "chain" | "selectionSource">;

/**
 * A run as it starts: aborted until it is seen to finish, with no attempt, skip, wait, notice or cost yet;
 * `fields` fills in what is known. Written out field by field, like `newTraceAttempt`.
 */
export function newRunTrace(start: RunTraceStart, fields?: Partial<RunTraceV1>): RunTraceV1 {
  const trace: RunTraceV1 = {
    v: RUN_TRACE_VERSION,
    runId: start.runId,
    agentId: start.agentId,
    startedAt: start.startedAt,
    sessionHash: start.sessionHash,
    request: start.request,
    chain: start.chain,
    selectionSource: start.selectionSource,
    outcome: "aborted",
    durationMs: 0,
    answeredBy: null,
    attempts: [],
    skips: [],
    waits: [],
    headroom: [],
    notices: [],
    continuations: 0,
    hedges: 0,
    costUsd: 0,
  };
  return fields ? Object.assign(trace, fields) : trace;
}

/** An answer states a handful of windows; a trace keeps this many per attempt so its size stays bounded. */
export const MAX_TRACE_HEADROOM_READINGS = 4;

/** How tight a reading is, for keeping the tightest: a rejected window first, then by the share left. */
function tightness(reading: HeadroomReading): number {
  if (reading.status === "rejected") return -1;
  if (reading.remainingShare !== undefined) return reading.remainingShare;
  return reading.status === "allowed_warning" ? 0.5 : 1;
}

/** The compact trace form of an answer's readings: the tightest few, numbers only. */
export function traceHeadroomReadings(readings: readonly HeadroomReading[]): TraceHeadroomReading[] {
  return [...readings]
    .sort((a, b) => tightness(a) - tightness(b))
    .slice(0, MAX_TRACE_HEADROOM_READINGS)
    .map((reading) => ({
      window: reading.window,
      ...(reading.model !== undefined ? { model: reading.model } : {}),
      remainingShare: reading.remainingShare ?? null,
      remaining: reading.remaining ?? null,
      limit: reading.limit ?? null,
      status: reading.status ?? null,
      resetAt: reading.resetAt,
    }));
}

/** A candidate the run passed over without calling it (cooldown, no profile, …). */
export interface TraceSkip {
  offsetMs: number;
  model: string;
  profileId: string | null;
  /** `concurrency_limited` (R-PO-8): every usable profile of the candidate was at its seat limit. */
  reason: FailoverReason | "concurrency_limited" | null;
}

export type TraceWaitKind = "short_wait" | "overloaded_backoff" | "cooldown_wait" | "timeout_retry" | "server_error_retry";

/** Time the run spent waiting on purpose (not upstream time). */
export interface TraceWait {
  offsetMs: number;
  kind: TraceWaitKind;
  waitMs: number;
}

/** A headroom reading that moved the run off a nearly spent profile (R-PO-7). */
export interface TraceHeadroom {
  offsetMs: number;
  provider: string;
  model: string;
  profileId: string;
  window: string;
  remainingShare: number | null;
  resetAt: number;
}

export interface TraceNotice {
  offsetMs: number;
  kind: "fallback" | "cleared";
  activeModel: string;
}

export interface RunTraceV1 {
  v: typeof RUN_TRACE_VERSION;
  runId: string;
  agentId: string;
  /** Epoch ms. */
  startedAt: number;
  /** `hashSessionKey` (ports/trace-store.ts) of the session key; `null` for a run without a session. */
  sessionHash: string | null;
  request: {
    requestedModel: string;
    dialect: string | null;
    stream: boolean | null;
    estimatedInputTokens: number | null;
  };
  chain: string[];
  selectionSource: string;
  outcome: RunTraceOutcome;
  durationMs: number;
  /** Where the answer came from; `null` when the run failed or was aborted. */
  answeredBy: { provider: string; model: string; profileId: string | null } | null;
  attempts: TraceAttempt[];
  skips: TraceSkip[];
  waits: TraceWait[];
  headroom: TraceHeadroom[];
  notices: TraceNotice[];
  continuations: number;
  hedges: number;
  /** Sum of the attempts' known costs. */
  costUsd: number;
}

/** An error code kept in a trace: a short identifier; anything else (a message someone put in `code`) is dropped. */
export function traceableCode(code: string | undefined | null): string | null {
  return typeof code === "string" && /^[A-Za-z0-9_.:-]{1,64}$/.test(code) ? code : null;
}

/** One JSON Lines record of `detour trace export`. */
export function runTraceLine(trace: RunTraceV1): string {
  return JSON.stringify(trace);
}

/** A line of a trace file that is not a v1 run trace; `line` is 1-based. */
export class TraceLineError extends DetourError {
  readonly code = ERROR_CODES.traceLineInvalid;
  constructor(
    readonly line: number,
    problem: string,
  ) {
    super(`line ${line}: ${problem}`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads one JSON Lines record of `detour trace export` back (for replay). Checks the version and the fields a
 * replay relies on; fields added within v1 after a file was written are filled in as `null`.
 */
export function parseRunTraceLine(text: string, line: number): RunTraceV1 {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new TraceLineError(line, "not JSON (a trace file has one run per line, as `detour trace export` writes it)");
  }
  if (!isRecord(value)) throw new TraceLineError(line, "not a run trace object");
  if (value.v !== RUN_TRACE_VERSION) {
    throw new TraceLineError(line, `trace format "v": ${JSON.stringify(value.v)}; this Detour reads "v": ${RUN_TRACE_VERSION}`);
  }
  const missing = (["runId", "startedAt", "durationMs", "outcome", "request", "attempts", "notices"] as const).filter(
    (key) => value[key] === undefined,
  );
  if (missing.length > 0) throw new TraceLineError(line, `missing ${missing.join(", ")}`);
  if (typeof value.startedAt !== "number" || !Number.isFinite(value.startedAt))
    throw new TraceLineError(line, "startedAt is not a time in epoch milliseconds");
  if (!Array.isArray(value.attempts) || !value.attempts.every(isRecord))
    throw new TraceLineError(line, "attempts is not a list of attempts");
  const trace = value as unknown as RunTraceV1;
  for (const attempt of trace.attempts) {
    attempt.code ??= null;
    attempt.finishedOffsetMs ??= null;
    attempt.hedgeIndex ??= null;
  }
  trace.skips ??= [];
  trace.waits ??= [];
  trace.headroom ??= [];
  return trace;
}
