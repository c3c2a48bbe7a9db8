/**
 * R-ST-6: how long an attempt may wait for its first content. A configured `gateway.ttftTimeoutSeconds`
 * applies to every model; unset, the watchdog follows the candidate: reasoning models (as the catalogue marks
 * them) think before their first visible token and get 60 s, every other model 15 s — so a slow-to-start
 * ordinary model is handed to the fallback quickly while a thinking model is not cut while it thinks.
 */
import { catalogueFacts } from "../catalogue/model-catalogue.js";
import { DEFAULT_TTFT_TIMEOUT_SECONDS } from "../config/defaults.js";
import type { Clock } from "../ports/clock.js";

export interface FirstTokenSettings {
  /** `gateway.ttftTimeoutSeconds` when configured; absent: the per-model default. */
  ttftTimeoutSeconds?: number | undefined;
  /** Whether `provider/model` is a reasoning model; default: the built-in catalogue's `reasoning` flag. */
  isReasoningModel?: (provider: string, model: string) => boolean;
}

export function catalogueMarksReasoning(provider: string, model: string): boolean {
  return catalogueFacts(provider, model).reasoning === true;
}

/** Milliseconds the attempt on `provider/model` may wait for its first content. */
export function firstTokenTimeoutMs(settings: FirstTokenSettings, candidate: { provider: string; model: string }): number {
  if (settings.ttftTimeoutSeconds !== undefined) return settings.ttftTimeoutSeconds * 1000;
  const reasoning = (settings.isReasoningModel ?? catalogueMarksReasoning)(candidate.provider, candidate.model);
  return (reasoning ? DEFAULT_TTFT_TIMEOUT_SECONDS.reasoning : DEFAULT_TTFT_TIMEOUT_SECONDS.ordinary) * 1000;
}

/** What every watched upstream stream of an attempt is bounded by (R-ST-1, R-ST-2, R-ST-6). */
export interface AttemptStreamBudgets {
  clock: Clock;
  ttftTimeoutMs: number;
  stallTimeoutMs: number;
  /** The attempt's signal: the provider's total deadline and the runner's aborts. */
  attemptSignal: AbortSignal;
  /** The caller's own signal (client gone), when there is one. */
  callerSignal?: AbortSignal;
  provider: string;
  model: string;
  /** R-HG-1: reports the upstream's first bytes and first content to the runner (absent = not raced). */
  progress?: (kind: "bytes" | "content") => void;
}

/**
 * The budgets of one attempt's stream: its first-token budget per model, the stall budget, its signals. A
 * continuation (R-ST-4) goes on with a stream the client is already reading, so it may not keep that stream
 * silent longer than a stall would (R-GW-10): its first-token budget is at most `streamStallSeconds`.
 */
export function attemptStreamBudgets(
  settings: FirstTokenSettings & { clock: Clock; streamStallSeconds: number },
  context: {
    provider: string;
    model: string;
    signal: AbortSignal;
    continuation?: number | undefined;
    firstTokenTimeoutMs?: number;
    upstreamProgress?: (kind: "bytes" | "content") => void;
  },
  callerSignal: AbortSignal | undefined,
): AttemptStreamBudgets {
  const stallTimeoutMs = settings.streamStallSeconds * 1000;
  // R-TT-1: the runner's deadline for this model (learned from its first-token times) unless one is configured.
  const firstTokenMs =
    settings.ttftTimeoutSeconds === undefined && context.firstTokenTimeoutMs !== undefined
      ? context.firstTokenTimeoutMs
      : firstTokenTimeoutMs(settings, context);
  return {
    clock: settings.clock,
    ttftTimeoutMs: context.continuation !== undefined ? Math.min(firstTokenMs, stallTimeoutMs) : firstTokenMs,
    stallTimeoutMs,
    ...(context.upstreamProgress ? { progress: context.upstreamProgress } : {}),
    attemptSignal: context.signal,
    ...(callerSignal ? { callerSignal } : {}),
    provider: context.provider,
    model: context.model,
  };
}
