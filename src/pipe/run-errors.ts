/**
 * What front ends see of a failed chat run: whatever a single failed attempt threw becomes a classified
 * `FailoverError` carrying the provider's status and message; Detour's own errors (`FallbackSummaryError`,
 * `ModelSelectionError`, …) and caller aborts pass through unchanged. Every runner of the pipe (chat,
 * embeddings, count_tokens) normalises here.
 */
import { DetourError, FailoverError } from "../core/errors.js";
import type { Clock } from "../ports/clock.js";
import type { AttemptContext } from "../runner/attempt.js";
import { soonestRecoveryOf } from "../runner/exhaustion.js";
import { classifyAttemptError } from "../runner/failure.js";

function isAbort(error: unknown): boolean {
  return (error instanceof Error || error instanceof DOMException) && error.name === "AbortError";
}

/**
 * Front ends see a classified error: the runner rethrows a single attempt's own error (R-FB-6), which may be
 * a raw provider failure.
 */
export function normalizeRunError(error: unknown, clock: Clock, lastAttempt: AttemptContext | undefined): unknown {
  if (error instanceof DetourError || isAbort(error)) return error;
  const provider = lastAttempt?.provider ?? "unknown";
  const classification = classifyAttemptError(error, provider, clock.now());
  const message = error instanceof Error ? error.message : classification.preview;
  // A provider-stated reset wins; else the chain's soonest recovery, so a 429/503 still gets a Retry-After.
  const resetAt =
    classification.resetAt ??
    (classification.retryAfterMs !== undefined ? clock.now() + classification.retryAfterMs : undefined) ??
    soonestRecoveryOf(error);
  return new FailoverError(message, {
    reason: classification.reason,
    provider: lastAttempt?.provider,
    model: lastAttempt?.model,
    profileId: lastAttempt?.profileId,
    status: classification.status,
    code: classification.code,
    resetAt,
    cause: error,
  });
}

/** The chain names a provider the config does not build. */
export function missingProvider(context: AttemptContext): FailoverError {
  // model_not_found: another profile of the same provider cannot help, but the next model of the chain may.
  return new FailoverError(
    `No provider "${context.provider}" is available for ${context.provider}/${context.model}: configure ` +
      `models.providers.${context.provider} (api and baseUrl) or remove it from the model chain.`,
    { reason: "model_not_found", provider: context.provider, model: context.model },
  );
}
