/**
 * `detour.run(...)` (SPEC §17): one canonical chat request through the runner, answered by whichever
 * provider API the chain reaches. Non-streamed runs resolve with the provider's response; streamed runs
 * resolve at the commit point (R-ST-1) with the held frames and the live rest of the stream; the run itself
 * settles when the stream ends (R-ST-5), and a stream that fails after its commit is continued on another
 * profile or candidate (R-ST-4, continued-run.ts) or ends with an explicit error (R-ST-2).
 *
 * Errors are normalised for front ends: whatever a single failed attempt threw becomes a classified
 * `FailoverError` carrying the provider's status and message; Detour's own errors (`FallbackSummaryError`,
 * `ModelSelectionError`, …) and caller aborts pass through unchanged.
 */
import { DetourError, FailoverError } from "../core/errors.js";
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent } from "../ports/canonical.js";
import type { Clock } from "../ports/clock.js";
import type { MalformedChunk, Provider, ProviderCallContext } from "../ports/provider.js";
import type { AttemptContext, RunOutcome } from "../runner/attempt.js";
import { soonestRecoveryOf } from "../runner/exhaustion.js";
import { classifyAttemptError } from "../runner/failure.js";
import type { RunnerDetour, RunWithOptions } from "./run-with.js";
import { attemptStreamBudgets, type FirstTokenSettings } from "./first-token-timeout.js";
import { requestFacts } from "./request-facts.js";
import type { HeadroomRecorder } from "./headroom-recorder.js";
import { assertPinnedProvider, type ProviderPin } from "./provider-pin.js";
import type { DeliveredAnswer } from "../wire/shared/sse-bytes.js";
import { commitStream } from "./stream-commit.js";
import { completeThroughStream } from "./assembled-completion.js";
import { StreamRefusals } from "./streamed-answer.js";
import { runContinuedStream } from "./continued-run.js";
import { canonicalSegment, continuationSegment, openContinuation, type ContinuationSettings } from "./stream-continuation.js";

export type ProviderLookup = ReadonlyMap<string, Provider> | ((providerId: string) => Provider | undefined);

/** `ttftTimeoutSeconds`: `gateway.ttftTimeoutSeconds` (R-ST-1); absent, it follows each candidate (R-ST-6). */
export interface CanonicalRunnerSettings extends FirstTokenSettings {
  clock: Clock;
  /** `gateway.streamStallSeconds` (R-ST-1, R-ST-2). */
  streamStallSeconds: number;
  /** R-PO-7: reads every upstream response's rate-limit headers into the store. */
  headroom?: HeadroomRecorder;
  /** R-ST-4: continuing cut streams; absent = a stream cut after its commit ends with an error. */
  continuations?: ContinuationSettings;
}

export interface CanonicalRunOptions {
  agentId?: string;
  sessionKey?: string;
  model?: string;
  fallbacks?: readonly string[] | "none";
  source?: "cron" | "heartbeat";
  strictModel?: boolean;
  /** The caller's signal: aborts the upstream call at any point, also after the commit. */
  signal?: AbortSignal;
  request: CanonicalRequest;
  stream?: boolean;
  /** Only this provider may answer: the request continues state it holds (an OpenAI Responses id). */
  pinnedProvider?: ProviderPin;
}

/** A committed stream: `events` starts with the held lifecycle frames and the first content. */
export interface CanonicalStreamResult {
  events: AsyncIterable<CanonicalStreamEvent>;
  timeToFirstTokenMs: number;
  /** Malformed upstream chunks skipped so far (R-ST-2: skipped and counted, not forwarded). */
  malformedChunks(): number;
  /** Stops the upstream stream (the consumer is gone). */
  abort(reason?: unknown): void;
}

export interface CanonicalRunner {
  run(options: CanonicalRunOptions & { stream: true }): Promise<RunOutcome<CanonicalStreamResult>>;
  run(options: CanonicalRunOptions & { stream?: false }): Promise<RunOutcome<CanonicalResponse>>;
  run(options: CanonicalRunOptions): Promise<RunOutcome<CanonicalResponse | CanonicalStreamResult>>;
}

export type { RunnerDetour } from "./run-with.js";

/** What a streamed attempt hands the runner: the committed stream before the run's failure reporting wraps it. */
export type CommittedAttempt = Omit<CanonicalStreamResult, "events"> & {
  head: readonly CanonicalStreamEvent[];
  rest: AsyncIterable<CanonicalStreamEvent>;
  /** A complete answer the consumer is done with: the call is let go, not aborted (its connection is kept). */
  release(): void;
};

export function lookup(providers: ProviderLookup, id: string): Provider | undefined {
  return typeof providers === "function" ? providers(id) : providers.get(id);
}

function missingProvider(context: AttemptContext): FailoverError {
  // model_not_found: another profile of the same provider cannot help, but the next model of the chain may.
  return new FailoverError(
    `No provider "${context.provider}" is available for ${context.provider}/${context.model}: configure ` +
      `models.providers.${context.provider} (api and baseUrl) or remove it from the model chain.`,
    { reason: "model_not_found", provider: context.provider, model: context.model },
  );
}

/** The profile id rides along for providers that care (test doubles script outcomes per profile). */
export function callContext(
  context: AttemptContext,
  signal: AbortSignal,
  onUpstreamHeaders?: ProviderCallContext["onUpstreamHeaders"],
): ProviderCallContext & { profileId?: string } {
  return {
    model: context.model,
    ...(context.credential ? { credential: context.credential } : {}),
    ...(context.profileId !== undefined ? { profileId: context.profileId } : {}),
    ...(onUpstreamHeaders ? { onUpstreamHeaders } : {}),
    signal,
  };
}

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

/**
 * One non-streamed canonical attempt on the provider the runner picked, made as a stream and assembled
 * (R-ST-6): silence is caught by the first-token watchdog, a steady generation runs to the provider's deadline.
 */
export async function completeCanonicalAttempt(
  providers: ProviderLookup,
  request: CanonicalRequest,
  context: AttemptContext,
  watch: { settings: CanonicalRunnerSettings; refusals: StreamRefusals; callerSignal?: AbortSignal | undefined },
  onUpstreamHeaders?: ProviderCallContext["onUpstreamHeaders"],
): Promise<CanonicalResponse> {
  const provider = lookup(providers, context.provider);
  if (!provider) throw missingProvider(context);
  const response = await completeThroughStream({
    provider,
    request,
    context,
    settings: watch.settings,
    refusals: watch.refusals,
    callContext: (signal) => callContext(context, signal, onUpstreamHeaders),
    ...(watch.callerSignal ? { callerSignal: watch.callerSignal } : {}),
  });
  // R-GW-11: a refusal stop reason is the provider's answer, returned as such but counted as content_filter.
  if (response.finishReason === "content_filter") context.refused?.();
  return response;
}

/** One streamed canonical attempt: resolves at the commit point (R-ST-1). */
export async function streamCanonicalAttempt(
  providers: ProviderLookup,
  request: CanonicalRequest,
  context: AttemptContext,
  settings: CanonicalRunnerSettings,
  callerSignal: AbortSignal | undefined,
  onUpstreamHeaders?: ProviderCallContext["onUpstreamHeaders"],
): Promise<CommittedAttempt> {
  const provider = lookup(providers, context.provider);
  if (!provider) throw missingProvider(context);
  let malformed = 0;
  const onMalformedChunk = (_chunk: MalformedChunk) => {
    malformed += 1;
  };
  const committed = await commitStream({
    open: (signal) =>
      provider.stream(
        { ...request, model: context.model, stream: true },
        { ...callContext(context, signal, onUpstreamHeaders), onMalformedChunk },
      ),
    ...attemptStreamBudgets(settings, context, callerSignal),
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
  providers: ProviderLookup,
  request: CanonicalRequest,
  delivered: DeliveredAnswer,
  context: AttemptContext,
  settings: CanonicalRunnerSettings,
  callerSignal: AbortSignal | undefined,
  onUpstreamHeaders?: ProviderCallContext["onUpstreamHeaders"],
): Promise<CommittedAttempt> {
  const continuations = settings.continuations;
  if (!continuations) return streamCanonicalAttempt(providers, request, context, settings, callerSignal, onUpstreamHeaders);
  return openContinuation({
    request,
    delivered,
    provider: context.provider,
    model: context.model,
    settings: continuations,
    clock: settings.clock,
    open: (continued) => streamCanonicalAttempt(providers, continued, context, settings, callerSignal, onUpstreamHeaders),
  });
}

/** The run options both lanes hand the runner unchanged: who asks, for which model chain, under which signal. */
export function routingOptionsOf(options: Omit<CanonicalRunOptions, "request" | "stream">) {
  return {
    ...(options.agentId !== undefined ? { agentId: options.agentId } : {}),
    ...(options.sessionKey !== undefined ? { sessionKey: options.sessionKey } : {}),
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.fallbacks !== undefined ? { fallbacks: options.fallbacks } : {}),
    ...(options.source !== undefined ? { source: options.source } : {}),
    ...(options.strictModel !== undefined ? { strictModel: options.strictModel } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  };
}

export function createCanonicalRunner(detour: RunnerDetour, providers: ProviderLookup, settings: CanonicalRunnerSettings): CanonicalRunner {
  const { clock } = settings;
  const refusals = new StreamRefusals();

  function runOptions<T>(options: CanonicalRunOptions, attempt: RunWithOptions<T>["attempt"]): RunWithOptions<T> {
    // R-HG-1: every attempt of this runner reports its upstream progress, so a slow one can be raced.
    return {
      ...routingOptionsOf(options),
      requestFacts: requestFacts(options.request),
      reportsProgress: true,
      traceFacts: { stream: false },
      attempt,
    };
  }

  async function complete(options: CanonicalRunOptions): Promise<RunOutcome<CanonicalResponse>> {
    let lastAttempt: AttemptContext | undefined;
    try {
      return await detour.runWith(
        runOptions(options, async (context) => {
          lastAttempt = context;
          assertPinnedProvider(options.pinnedProvider, context);
          const watch = { settings, refusals, callerSignal: options.signal };
          return completeCanonicalAttempt(providers, options.request, context, watch, settings.headroom?.(options.agentId, context));
        }),
      );
    } catch (error) {
      throw normalizeRunError(error, clock, lastAttempt);
    }
  }

  async function stream(options: CanonicalRunOptions): Promise<RunOutcome<CanonicalStreamResult>> {
    const onHeaders = (context: AttemptContext) => settings.headroom?.(options.agentId, context);
    const outcome = await runContinuedStream<CanonicalStreamEvent, CommittedAttempt>({
      runWith: detour.runWith,
      run: {
        ...routingOptionsOf(options),
        requestFacts: requestFacts(options.request),
        reportsProgress: true,
        traceFacts: { stream: true },
      },
      maxContinuations: settings.continuations?.max ?? 0,
      async first(context) {
        assertPinnedProvider(options.pinnedProvider, context);
        const committed = await streamCanonicalAttempt(providers, options.request, context, settings, options.signal, onHeaders(context));
        return { segment: canonicalSegment(committed), info: committed };
      },
      continuation: async (context, delivered) => {
        assertPinnedProvider(options.pinnedProvider, context);
        const committed = await continueCanonically(
          providers,
          options.request,
          delivered,
          context,
          settings,
          options.signal,
          onHeaders(context),
        );
        return continuationSegment(committed, delivered, (event) => event);
      },
      normalizeError: (error, lastAttempt) => normalizeRunError(error, clock, lastAttempt),
    });
    const { output, first, abort } = outcome.result;
    return {
      ...outcome,
      result: { events: output, timeToFirstTokenMs: first.timeToFirstTokenMs, malformedChunks: first.malformedChunks, abort },
    };
  }

  function run(options: CanonicalRunOptions & { stream: true }): Promise<RunOutcome<CanonicalStreamResult>>;
  function run(options: CanonicalRunOptions & { stream?: false }): Promise<RunOutcome<CanonicalResponse>>;
  function run(options: CanonicalRunOptions): Promise<RunOutcome<CanonicalResponse | CanonicalStreamResult>>;
  function run(options: CanonicalRunOptions): Promise<RunOutcome<CanonicalResponse | CanonicalStreamResult>> {
    return options.stream ? stream(options) : complete(options);
  }
  return { run };
}
