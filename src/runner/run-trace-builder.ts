/**
 * Assembles a run trace (R-OB-4, format in `core/run-trace.ts`) from the runner's events. Pure: the caller
 * stamps each event with the time it was seen (`observe(event, at)`); nothing here reads a clock. Only facts
 * are copied: error previews and notice texts are left out, the session key is hashed.
 */
import {
  MAX_TRACE_HEADROOM_READINGS,
  newRunTrace,
  newTraceAttempt,
  traceableCode,
  type RunTraceV1,
  type TraceAttempt,
} from "../core/run-trace.js";
import type { DetourEvent, DetourEventOf } from "../ports/events.js";
import { hashSessionKey } from "../ports/trace-store.js";

/** Assembles one run's trace from its events; `finish` returns it once `run_finished` was seen. */
/**
 * The event types a trace is made of: what `observe` reads. The recorder passes over every other event (most of
 * what the engine emits) before it reads the clock or looks up the run.
 */
export const TRACED_EVENT_TYPES: ReadonlySet<DetourEvent["type"]> = new Set<DetourEvent["type"]>([
  "run_started",
  "usage_recorded",
  "attempt_started",
  "attempt_finished",
  "model_fallback_decision",
  "short_wait",
  "overloaded_backoff",
  "cooldown_wait",
  "timeout_retry_scheduled",
  "server_error_retry_scheduled",
  "headroom_read",
  "headroom_passed_over",
  "notice",
  "run_finished",
]);

export class RunTraceBuilder {
  #trace?: RunTraceV1;
  #finished = false;

  get runId(): string | undefined {
    return this.#trace?.runId;
  }

  get finished(): boolean {
    return this.#finished;
  }

  /** Feeds one event seen at `at` (epoch ms). Events of other runs, or before `run_started`, are ignored. */
  observe(event: DetourEvent, at: number): void {
    if (event.type === "run_started") {
      if (this.#trace) return;
      this.#trace = newRunTrace({
        runId: event.runId,
        agentId: event.agentId,
        startedAt: at,
        sessionHash: event.sessionId ? hashSessionKey(event.sessionId) : null,
        request: {
          requestedModel: event.requestedModel,
          dialect: event.dialect ?? null,
          stream: event.stream ?? null,
          estimatedInputTokens: event.estimatedInputTokens ?? null,
        },
        chain: [...event.chain],
        selectionSource: event.selectionSource,
      });
      return;
    }
    const trace = this.#trace;
    if (!trace || !("runId" in event) || event.runId !== trace.runId) return;
    // The answer's usage is priced after the run (the gateway reads it from the answer): it still belongs here.
    if (event.type === "usage_recorded") {
      this.#addUsage(trace, event);
      return;
    }
    if (this.#finished) return;
    const offsetMs = Math.max(0, at - trace.startedAt);
    switch (event.type) {
      case "attempt_started":
        trace.attempts.push(newTraceAttempt({ offsetMs, provider: event.provider, model: event.model, profileId: event.profileId }));
        return;
      case "attempt_finished": {
        const attempt = this.#openAttempt(event.provider, event.model, event.profileId);
        if (!attempt) return;
        attempt.outcome = event.outcome;
        attempt.status = event.status;
        attempt.reason = event.reason;
        attempt.durationMs = event.durationMs;
        attempt.statedResetAt = event.statedResetAt ?? null;
        attempt.firstTokenMs = event.firstTokenMs ?? null;
        attempt.inputTokens = event.inputTokens ?? null;
        attempt.outputTokens = event.outputTokens ?? null;
        attempt.costUsd = event.costUsd ?? null;
        attempt.committed = event.committed === true;
        attempt.continuation = event.continuation ?? null;
        attempt.hedge = event.hedge === true;
        attempt.code = traceableCode(event.code);
        attempt.finishedOffsetMs = offsetMs;
        return;
      }
      case "model_fallback_decision":
        if (event.decision === "skip_candidate") {
          trace.skips.push({ offsetMs, model: event.candidateModel, profileId: event.profileId, reason: event.reason });
        }
        return;
      case "short_wait":
      case "overloaded_backoff":
      case "cooldown_wait":
        trace.waits.push({ offsetMs, kind: event.type, waitMs: event.waitMs });
        return;
      case "timeout_retry_scheduled":
        trace.waits.push({ offsetMs, kind: "timeout_retry", waitMs: event.delayMs });
        return;
      case "server_error_retry_scheduled":
        trace.waits.push({ offsetMs, kind: "server_error_retry", waitMs: event.delayMs });
        return;
      case "headroom_read": {
        // Headers arrive before the outcome: the attempt is still open (a late hook falls back to the newest).
        const attempt =
          this.#openAttempt(event.provider, event.model, event.profileId) ??
          this.#newestAttempt(event.provider, event.model, event.profileId);
        if (!attempt || event.readings.length === 0) return;
        attempt.headroom = event.readings.slice(0, MAX_TRACE_HEADROOM_READINGS).map((reading) => ({ ...reading }));
        return;
      }
      case "headroom_passed_over":
        trace.headroom.push({
          offsetMs,
          provider: event.provider,
          model: event.model,
          profileId: event.profileId,
          window: event.window,
          remainingShare: event.remainingShare,
          resetAt: event.resetAt,
        });
        return;
      case "notice":
        trace.notices.push({ offsetMs, kind: event.kind, activeModel: event.activeModel });
        return;
      case "run_finished":
        trace.outcome = event.outcome;
        trace.durationMs = event.durationMs;
        trace.answeredBy =
          (event.outcome === "succeeded" || event.outcome === "content_filter") && event.provider && event.model
            ? { provider: event.provider, model: event.model, profileId: event.profileId }
            : null;
        trace.continuations = event.continuations ?? trace.attempts.filter((a) => a.continuation !== null).length;
        trace.hedges = trace.attempts.filter((a) => a.hedge).length;
        trace.costUsd = trace.attempts.reduce((sum, a) => sum + (a.costUsd ?? 0), 0);
        this.#finished = true;
        return;
      default:
        return;
    }
  }

  /** The finished trace, or `undefined` while the run has not finished. */
  finish(): RunTraceV1 | undefined {
    return this.#finished ? this.#trace : undefined;
  }

  /** Tokens and cost of the answer, on the attempt that answered (the newest success of that model and profile). */
  #addUsage(trace: RunTraceV1, event: DetourEventOf<"usage_recorded">): void {
    for (let index = trace.attempts.length - 1; index >= 0; index -= 1) {
      const attempt = trace.attempts[index]!;
      if (attempt.outcome !== "succeeded" || attempt.provider !== event.provider || attempt.model !== event.model) continue;
      if (attempt.profileId !== event.profileId) continue;
      attempt.inputTokens = event.inputTokens;
      attempt.outputTokens = event.outputTokens;
      attempt.costUsd = event.costUsd;
      trace.costUsd = trace.attempts.reduce((sum, a) => sum + (a.costUsd ?? 0), 0);
      return;
    }
  }

  /** The newest attempt of this (provider, model, profile), finished or not. */
  #newestAttempt(provider: string, model: string, profileId: string | null): TraceAttempt | undefined {
    const attempts = this.#trace?.attempts ?? [];
    for (let index = attempts.length - 1; index >= 0; index -= 1) {
      const attempt = attempts[index]!;
      if (attempt.provider === provider && attempt.model === model && attempt.profileId === profileId) return attempt;
    }
    return undefined;
  }

  /** The newest attempt of this (provider, model, profile) still waiting for its outcome. */
  #openAttempt(provider: string, model: string, profileId: string | null): TraceAttempt | undefined {
    const attempts = this.#trace?.attempts ?? [];
    for (let index = attempts.length - 1; index >= 0; index -= 1) {
      const attempt = attempts[index]!;
      if (attempt.outcome === null && attempt.provider === provider && attempt.model === model && attempt.profileId === profileId) {
        return attempt;
      }
    }
    return undefined;
  }
}
