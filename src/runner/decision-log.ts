/**
 * R-OB-1: the one builder of `model_fallback_decision` events. Call sites say what happened to a candidate;
 * this class fills in every field, including the flat `fallbackStep*` fields that let an exporter rebuild the
 * primary failure even when the last fallback fails too.
 */
import { formatModelRef } from "../core/candidate-chain.js";
import type { ModelRef } from "../core/types.js";
import type { DecisionReason, EventSink, FallbackDecision, FallbackStepOutcome, ModelFallbackDecisionEvent } from "../ports/events.js";

export interface DecisionContext {
  runId: string;
  agentId: string;
  sessionKey?: string;
  requested: ModelRef;
  chain: readonly ModelRef[];
}

export interface CandidateDecision {
  decision: FallbackDecision;
  /** 0-based index of the candidate in the chain. */
  index: number;
  profileId?: string;
  reason?: DecisionReason;
  status?: number;
  code?: string;
  error?: string;
  /** The candidate the run moves to next; absent when none. */
  next?: ModelRef;
  /** Absent only for a probe or last-resort decision, whose outcome follows in the candidate's next event. */
  outcome?: FallbackStepOutcome;
  /** R-ST-4: the continuation of a committed stream this decision belongs to. */
  continuation?: number;
}

export class DecisionLog {
  readonly #events: EventSink;
  readonly #context: DecisionContext;
  #firstFailure?: { model: string; reason: DecisionReason | null; detail: string | null };
  #failedCandidates = 0;

  constructor(events: EventSink, context: DecisionContext) {
    this.#events = events;
    this.#context = context;
  }

  /** Candidates that failed or were skipped so far in this run. */
  get failedCandidates(): number {
    return this.#failedCandidates;
  }

  record(decision: CandidateDecision): ModelFallbackDecisionEvent {
    const { chain } = this.#context;
    const candidate = chain[decision.index];
    if (!candidate) throw new RangeError(`Decision for candidate ${decision.index} outside a chain of ${chain.length}.`);
    const candidateModel = formatModelRef(candidate);
    const failed = decision.decision === "candidate_failed" || decision.decision === "skip_candidate";
    if (failed) this.#failedCandidates += 1;
    if (failed && !this.#firstFailure) {
      this.#firstFailure = { model: candidateModel, reason: decision.reason ?? null, detail: decision.error ?? null };
    }
    const next = decision.next ? formatModelRef(decision.next) : null;
    const event: ModelFallbackDecisionEvent = {
      type: "model_fallback_decision",
      decision: decision.decision,
      runId: this.#context.runId,
      agentId: this.#context.agentId,
      sessionId: this.#context.sessionKey ?? null,
      requestedModel: formatModelRef(this.#context.requested),
      candidateModel,
      attemptIndex: decision.index + 1,
      attemptTotal: chain.length,
      profileId: decision.profileId ?? null,
      reason: decision.reason ?? null,
      status: decision.status ?? null,
      code: decision.code ?? null,
      errorPreview: decision.error ?? null,
      nextCandidate: next,
      isPrimary: decision.index === 0,
      fallbackStepFromModel: this.#firstFailure?.model ?? null,
      fallbackStepToModel: failed ? next : candidateModel,
      fallbackStepFromFailureReason: this.#firstFailure?.reason ?? null,
      fallbackStepFromFailureDetail: this.#firstFailure?.detail ?? null,
      fallbackStepChainPosition: decision.index + 1,
      fallbackStepFinalOutcome: decision.outcome ?? null,
      continuation: decision.continuation ?? null,
    };
    this.#events.emit(event);
    return event;
  }
}
