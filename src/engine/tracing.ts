/**
 * OpenTelemetry spans from the runner's events (DESIGN §4: observability is events): one span per run and
 * one child span per attempt, with the GenAI semantic-convention attributes (`gen_ai.*`) and Detour's own
 * (`detour.*`: profile, reason, cooldown applied, fallback). Detour depends on `@opentelemetry/api` only:
 * without a registered SDK every call is a no-op, and a run does not even look up a tracer.
 */
import {
  ProxyTracerProvider,
  SpanKind,
  SpanStatusCode,
  context,
  trace,
  type Attributes,
  type Span,
  type Tracer,
  type TracerProvider,
} from "@opentelemetry/api";
import type { DetourEvent, DetourEventOf } from "../ports/events.js";

export const TRACER_NAME = "detour-llm";

/** Token usage of an answer, as far as the provider reported it (R-GW-7). */
export interface TracedUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  reasoningTokens?: number;
}

interface RunSpans {
  run: Span;
  attempt?: Span;
  /**
   * A failed attempt's span stays open until the failure is recorded on the profile (the runner emits
   * `profile_failure_recorded` right after `attempt_finished`), so the cooldown it caused lands on it.
   */
  failedAttempt?: Span;
}

/**
 * Spans of runs still in flight. Bounded: a run whose `run_finished` never arrives (a crashed listener
 * upstream) must not pin its spans forever.
 */
const MAX_OPEN_RUNS = 10_000;

/** The API's no-op provider: what the global proxy delegates to until an SDK registers (a singleton). */
const NOOP_PROVIDER = new ProxyTracerProvider().getDelegate();

/** Whether anything would record a span: an SDK registered globally, or a provider given explicitly. */
function isRecordingProvider(provider: TracerProvider): boolean {
  if (provider instanceof ProxyTracerProvider) return provider.getDelegate() !== NOOP_PROVIDER;
  return provider !== NOOP_PROVIDER;
}

function definedAttributes(entries: Record<string, string | number | boolean | string[] | null | undefined>): Attributes {
  const attributes: Attributes = {};
  for (const [key, value] of Object.entries(entries)) {
    if (value !== null && value !== undefined) attributes[key] = value;
  }
  return attributes;
}

function endPending(spans: RunSpans): void {
  spans.failedAttempt?.end();
  spans.failedAttempt = undefined;
  spans.attempt?.end();
  spans.attempt = undefined;
}

export class RunTracer {
  readonly #explicitProvider: TracerProvider | undefined;
  readonly #open = new Map<string, RunSpans>();
  #tracer: Tracer | undefined;
  #tracerProvider: TracerProvider | undefined;

  constructor(tracerProvider?: TracerProvider) {
    this.#explicitProvider = tracerProvider;
  }

  /** Feeds one runner event; never throws into the event hub. */
  readonly onEvent = (event: DetourEvent): void => {
    switch (event.type) {
      case "run_started":
        return this.#startRun(event);
      case "attempt_started":
        return this.#startAttempt(event);
      case "attempt_finished":
        return this.#finishAttempt(event);
      case "profile_failure_recorded":
        return this.#recordCooldown(event);
      case "profile_rotated":
        return this.#addEvent(event.runId, "detour.profile_rotated", {
          "detour.profile.from": event.fromProfileId,
          "detour.profile.to": event.toProfileId,
          "detour.reason": event.reason,
        });
      case "notice":
        return this.#addEvent(event.runId, "detour.notice", { "detour.notice.kind": event.kind, "detour.notice.text": event.text });
      case "run_finished":
        return this.#finishRun(event);
      default:
        return undefined;
    }
  };

  /** Usage of the answer (R-GW-7), set on the run span while it is open. */
  recordUsage(runId: string, usage: TracedUsage): void {
    const spans = this.#open.get(runId);
    if (!spans) return;
    const attributes = definedAttributes({
      "gen_ai.usage.input_tokens": usage.inputTokens,
      "gen_ai.usage.output_tokens": usage.outputTokens,
      "gen_ai.usage.cache_read.input_tokens": usage.cacheReadTokens,
      "gen_ai.usage.cache_creation.input_tokens": usage.cacheWriteTokens,
      "gen_ai.usage.reasoning.output_tokens": usage.reasoningTokens,
    });
    spans.run.setAttributes(attributes);
    spans.attempt?.setAttributes(attributes);
  }

  /** Spans of runs in flight (for tests and leak checks). */
  get openRuns(): number {
    return this.#open.size;
  }

  #activeTracer(): Tracer | undefined {
    const provider = this.#explicitProvider ?? trace.getTracerProvider();
    if (!isRecordingProvider(provider)) return undefined;
    if (this.#tracer === undefined || this.#tracerProvider !== provider) {
      this.#tracer = provider.getTracer(TRACER_NAME);
      this.#tracerProvider = provider;
    }
    return this.#tracer;
  }

  #startRun(event: DetourEventOf<"run_started">): void {
    const tracer = this.#activeTracer();
    if (!tracer) return;
    if (this.#open.size >= MAX_OPEN_RUNS) this.#evictOldest();
    const run = tracer.startSpan(
      "detour.run",
      {
        kind: SpanKind.INTERNAL,
        attributes: definedAttributes({
          "gen_ai.operation.name": "chat",
          "gen_ai.request.model": event.requestedModel,
          "detour.run.id": event.runId,
          "detour.agent.id": event.agentId,
          "detour.session.id": event.sessionId,
          "detour.selection_source": event.selectionSource,
          "detour.chain": event.chain,
        }),
      },
      context.active(),
    );
    this.#open.set(event.runId, { run });
  }

  #startAttempt(event: DetourEventOf<"attempt_started">): void {
    const spans = this.#open.get(event.runId);
    const tracer = this.#tracer;
    if (!spans || !tracer) return;
    endPending(spans);
    spans.attempt = tracer.startSpan(
      `chat ${event.provider}/${event.model}`,
      {
        kind: SpanKind.CLIENT,
        attributes: definedAttributes({
          "gen_ai.operation.name": "chat",
          "gen_ai.system": event.provider,
          "gen_ai.provider.name": event.provider,
          "gen_ai.request.model": event.model,
          "detour.profile.id": event.profileId,
        }),
      },
      trace.setSpan(context.active(), spans.run),
    );
  }

  #finishAttempt(event: DetourEventOf<"attempt_finished">): void {
    const spans = this.#open.get(event.runId);
    const attempt = spans?.attempt;
    if (!spans || !attempt) return;
    attempt.setAttributes(
      definedAttributes({
        "detour.outcome": event.outcome,
        "detour.reason": event.reason,
        "error.type": event.reason,
        "http.response.status_code": event.status,
        "gen_ai.response.model": event.outcome === "succeeded" ? event.model : undefined,
        // R-ST-4/R-ST-5: a streamed attempt's outcome is how its stream ended; a continuation says which seam.
        "detour.stream.committed": event.committed,
        "detour.continuation": event.continuation,
      }),
    );
    spans.attempt = undefined;
    if (event.outcome === "failed") {
      attempt.setStatus({ code: SpanStatusCode.ERROR, message: event.reason ?? "failed" });
      spans.failedAttempt = attempt;
    } else {
      attempt.end();
    }
  }

  #recordCooldown(event: DetourEventOf<"profile_failure_recorded">): void {
    if (event.runId === null) return;
    const spans = this.#open.get(event.runId);
    if (!spans) return;
    const attributes = definedAttributes({
      "detour.cooldown.applied_ms": event.cooldownMs,
      "detour.cooldown.profile.id": event.profileId,
      "detour.cooldown.reason": event.reason,
    });
    // The failure belongs to the attempt that just failed; the run span gets it as an event.
    if (spans.failedAttempt) {
      spans.failedAttempt.setAttributes(attributes);
      spans.failedAttempt.end();
      spans.failedAttempt = undefined;
    }
    spans.run.addEvent("detour.cooldown_applied", attributes);
  }

  #addEvent(runId: string, name: string, attributes: Attributes): void {
    this.#open.get(runId)?.run.addEvent(name, attributes);
  }

  #finishRun(event: DetourEventOf<"run_finished">): void {
    const spans = this.#open.get(event.runId);
    if (!spans) return;
    this.#open.delete(event.runId);
    endPending(spans);
    spans.run.setAttributes(
      definedAttributes({
        "detour.outcome": event.outcome,
        "gen_ai.response.model": event.provider && event.model ? `${event.provider}/${event.model}` : undefined,
        "detour.profile.id": event.profileId,
        "detour.failed_candidates": event.failedCandidates,
        "detour.fallback": event.failedCandidates > 0,
        "detour.continuations": event.continuations,
      }),
    );
    if (event.outcome === "failed") spans.run.setStatus({ code: SpanStatusCode.ERROR, message: "every candidate failed" });
    spans.run.end();
  }

  #evictOldest(): void {
    const oldest = this.#open.keys().next();
    if (oldest.done) return;
    const spans = this.#open.get(oldest.value);
    this.#open.delete(oldest.value);
    if (spans) endPending(spans);
    spans?.run.setStatus({ code: SpanStatusCode.ERROR, message: "run never finished" });
    spans?.run.end();
  }
}
