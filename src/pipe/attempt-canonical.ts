/**
 * One attempt on a candidate through its canonical provider (any wire): the library's every attempt, and the
 * gateway's on a candidate whose wire is not the client's. Non-streamed, the answer is made as a stream and
 * assembled (R-ST-6); streamed, the attempt resolves at the commit point (R-ST-1); a continuation (R-ST-4) is
 * always canonical, since any candidate can continue any answer.
 */
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent } from "../ports/canonical.js";
import type { MalformedChunk, ProviderCallContext } from "../ports/provider.js";
import type { AttemptContext } from "../runner/attempt.js";
import type { DeliveredAnswer } from "../wire/shared/sse-bytes.js";
import { completeThroughStream } from "./assembled-completion.js";
import { attemptStreamBudgets } from "./first-token-timeout.js";
import { missingProvider } from "./run-errors.js";
import { callContext, lookup, type AttemptScope, type ProviderLookup } from "./run-options.js";
import { commitStream } from "./stream-commit.js";
import { openContinuation } from "./stream-continuation.js";

/** A committed canonical stream, as the attempt hands it to the run. */
export interface CommittedAttempt {
  head: readonly CanonicalStreamEvent[];
  rest: AsyncIterable<CanonicalStreamEvent>;
  timeToFirstTokenMs: number;
  /** Malformed upstream chunks skipped so far (R-ST-2: skipped and counted, not forwarded). */
  malformedChunks(): number;
  /** Stops the upstream stream (the consumer is gone). */
  abort(reason?: unknown): void;
  /** A complete answer the consumer is done with: the call is let go, not aborted (its connection is kept). */
  release(): void;
}

/** What every canonical attempt of a run shares: the attempt scope and the providers by id. */
export interface CanonicalAttemptScope extends AttemptScope {
  providers: ProviderLookup;
}

/** One non-streamed attempt, made as a stream and assembled (R-ST-6): silence is caught by the first-token watchdog. */
export async function completeCanonicalAttempt(
  scope: CanonicalAttemptScope,
  request: CanonicalRequest,
  context: AttemptContext,
  onUpstreamHeaders?: ProviderCallContext["onUpstreamHeaders"],
): Promise<CanonicalResponse> {
  const provider = lookup(scope.providers, context.provider);
  if (!provider) throw missingProvider(context);
  const response = await completeThroughStream({
    provider,
    request,
    context,
    scope,
    callContext: (signal) => callContext(context, signal, onUpstreamHeaders),
  });
  // R-GW-11: a refusal stop reason is the provider's answer, returned as such but counted as content_filter.
  if (response.finishReason === "content_filter") context.refused?.();
  return response;
}

/** One streamed attempt: resolves at the commit point (R-ST-1). */
export async function streamCanonicalAttempt(
  scope: CanonicalAttemptScope,
  request: CanonicalRequest,
  context: AttemptContext,
  onUpstreamHeaders?: ProviderCallContext["onUpstreamHeaders"],
): Promise<CommittedAttempt> {
  let malformed = 0;
  const provider = lookup(scope.providers, context.provider);
  if (!provider) throw missingProvider(context);
  const onMalformedChunk = (_chunk: MalformedChunk) => {
    malformed += 1;
  };
  const committed = await commitStream({
    open: (signal) =>
      provider.stream(
        { ...request, model: context.model, stream: true },
        { ...callContext(context, signal, onUpstreamHeaders), onMalformedChunk },
      ),
    ...attemptStreamBudgets(scope.settings, context, scope.callerSignal),
    ...(context.upstreamUsage ? { statedUsage: (usage: { inputTokens: number }) => context.upstreamUsage?.(usage) } : {}),
  });
  return {
    head: committed.head,
    rest: committed.rest,
    timeToFirstTokenMs: committed.timeToFirstTokenMs,
    malformedChunks: () => malformed,
    abort: committed.abort,
    release: committed.release,
  };
}

/** R-ST-4: a continuation on the candidate of this attempt, through its canonical provider (any wire). */
export function continueCanonically(
  scope: CanonicalAttemptScope,
  request: CanonicalRequest,
  delivered: DeliveredAnswer,
  context: AttemptContext,
  onUpstreamHeaders?: ProviderCallContext["onUpstreamHeaders"],
): Promise<CommittedAttempt> {
  const continuations = scope.settings.continuations;
  if (!continuations) return streamCanonicalAttempt(scope, request, context, onUpstreamHeaders);
  return openContinuation({
    request,
    delivered,
    provider: context.provider,
    model: context.model,
    settings: continuations,
    clock: scope.settings.clock,
    open: (continued) => streamCanonicalAttempt(scope, continued, context, onUpstreamHeaders),
  });
}
