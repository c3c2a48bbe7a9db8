/**
 * `createDetourModel` (SPEC R-LB-1): an AI SDK language model whose calls go through Detour's runner.
 * `generateText`, `streamText`, structured output and tools work unchanged; each attempt calls one of the
 * candidate AI SDK models with the profile (API key) the runner picked, and its failure is classified by
 * Detour's classifier. `doGenerate` and `doStream` share the runner: rotation, cooldowns, stickiness by
 * `providerOptions.detour.sessionId`, notices (in `providerMetadata.detour` and `onNotice`), the commit
 * point and the continuation of a cut stream.
 *
 * The candidate models are called directly, below the AI SDK's retry loop (the `maxRetries: 0` of calls
 * Detour makes), and what this model throws is Detour's error, never a retryable `APICallError`: the AI SDK
 * does not retry what Detour already failed over, so the two retry layers never multiply.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
  SharedV3ProviderMetadata,
  SharedV3ProviderOptions,
} from "@ai-sdk/provider";
import type { DetourConfigInput } from "../config/index.js";
import { FailoverError } from "../core/errors.js";
import type { Clock } from "../ports/clock.js";
import type { Logger } from "../ports/events.js";
import type { StateStore } from "../ports/state-store.js";
import { systemClock } from "../ports/system-clock.js";
import { createDetour } from "../engine/create-detour.js";
import type { AttemptContext, Detour, RunOutcome } from "../engine/detour-api.js";
import { runContinuedStream } from "../pipe/continued-run.js";
import { CONTINUE_INSTRUCTION, type ContinuationMode } from "../pipe/continuation-request.js";
import { continuationSettingsFromConfig } from "../pipe/stream-continuation.js";
import type { HeadroomRecorder } from "../pipe/headroom-recorder.js";
import { normalizeRunError } from "../pipe/run-errors.js";
import { classifyAttemptError } from "../runner/failure.js";
import type { DeliveredAnswer } from "../wire/shared/sse-bytes.js";
import { failureHeadersOf, toUpstreamFailure } from "./ai-sdk-errors.js";
import {
  planCandidates,
  type CandidatePlan,
  type DetourCandidateInput,
  type ProviderInstance,
  type ResolvedCandidate,
} from "./candidates.js";
import { detourConfigFor } from "./detour-config.js";
import { ClientStreamState, commitParts, continuationSegment, firstSegment, type CommittedParts, type Part } from "./part-stream.js";

export interface CreateDetourModelOptions {
  /**
   * The chain, primary first: AI SDK models (`openai("gpt-5")`, `anthropic("claude-sonnet-4-6")`). Several
   * instances of one provider and model made with different API keys are that provider's profiles
   * (`openai:1`, `openai:2`, … unless named with `{ model, profile }`).
   */
  candidates: readonly DetourCandidateInput[];
  /**
   * Named provider instances (`{ "openai:work": createOpenAI({ apiKey }) }`): the profiles of their provider
   * for every candidate of it. Ids read `<provider>:<name>`.
   */
  profiles?: Readonly<Record<string, ProviderInstance>>;
  /** Where cooldowns, usage stats and sessions live. Default: `config.state` (memory unless it says otherwise). */
  store?: StateStore;
  /** Detour's configuration (cooldowns, failover knobs, `state`, `gateway.streamContinuations`, …). */
  config?: DetourConfigInput;
  /** The agent whose state the calls use (default `main`). */
  agentId?: string;
  /** Called with the notice when a call changed the fallback state (it answered from a fallback, or returned). */
  onNotice?: (notice: string, run: DetourRunMetadata) => void;
  clock?: Clock;
  logger?: Logger;
}

/** One call that failed, or one candidate passed over without a call (`skipped`). */
export type DetourAttemptMetadata = {
  provider: string;
  model: string;
  profileId?: string;
  reason?: string;
  status?: number;
  skipped?: boolean;
};

/** Who answered and what failed before, as `providerMetadata.detour` (JSON, for logs and UIs). */
export type DetourRunMetadata = {
  runId: string;
  provider: string;
  model: string;
  profileId?: string;
  /** Every failed call of the run, per profile, then the candidates skipped without a call. */
  attempts: DetourAttemptMetadata[];
  notice?: string;
  /**
   * What the answer cost in US dollars (config `cost`, else the model catalogue), charged to the answering
   * profile's 24-hour spend; absent when the model's prices are unknown.
   */
  costUsd?: number;
  /** Streams only: continuations that completed a cut answer, each on the profile and model that answered it. */
  continuations?: { provider: string; model: string; profileId?: string }[];
};

/** The AI SDK language model, plus what a long-running app needs to shut down and look inside. */
export interface DetourLanguageModel extends LanguageModelV3 {
  /** The Detour engine behind the model (status, profiles, sessions), created on first use. */
  detour(): Promise<Detour>;
  /** Closes the stores Detour opened (a Redis connection, a SQLite file). A store passed in stays open. */
  close(): Promise<void>;
}

function withoutDetourOptions(options: LanguageModelV3CallOptions): LanguageModelV3CallOptions {
  const providerOptions = options.providerOptions;
  if (!providerOptions || !("detour" in providerOptions)) return options;
  const { detour: _detour, ...rest } = providerOptions;
  return { ...options, providerOptions: rest as SharedV3ProviderOptions };
}

/** R-PO-5: `providerOptions.detour.sessionId` keeps a conversation on the model and key it settled on. */
function sessionKeyOf(options: LanguageModelV3CallOptions): string | undefined {
  const sessionId = options.providerOptions?.detour?.sessionId;
  return typeof sessionId === "string" && sessionId !== "" ? sessionId : undefined;
}

/** The failed calls of one run, as the classifier read them (the run's outcome lists candidates only). */
class FailedCalls {
  readonly list: DetourAttemptMetadata[] = [];
  constructor(private readonly clock: Clock) {}

  /** Callers skip this for their own abort (never a failure); a watchdog's abort of the attempt is one. */
  add(context: AttemptContext, error: unknown): void {
    const { reason, status } = classifyAttemptError(error, context.provider, this.clock.now());
    this.list.push({
      provider: context.provider,
      model: context.model,
      ...(context.profileId !== undefined ? { profileId: context.profileId } : {}),
      reason,
      ...(status !== undefined ? { status } : {}),
    });
  }
}

function metadataOf(outcome: Omit<RunOutcome<unknown>, "result">, failed: FailedCalls): DetourRunMetadata {
  const skipped = outcome.attempts
    .filter((attempt) => attempt.skipped)
    .map((attempt) => ({
      provider: attempt.provider,
      model: attempt.model,
      ...(attempt.reason !== undefined ? { reason: attempt.reason } : {}),
      skipped: true,
    }));
  return {
    runId: outcome.runId,
    provider: outcome.provider,
    model: outcome.model,
    ...(outcome.profileId !== undefined ? { profileId: outcome.profileId } : {}),
    attempts: [...failed.list, ...skipped],
    ...(outcome.notice !== undefined ? { notice: outcome.notice } : {}),
  };
}

/** The AI SDK's usage in the shape Detour prices; undefined when the provider reported no token counts. */
function pricedUsageOf(usage: LanguageModelV3Usage | undefined) {
  const input = usage?.inputTokens.total;
  const output = usage?.outputTokens.total;
  if (input === undefined && output === undefined) return undefined;
  return {
    // Like the AI SDK's total, Detour's input count includes cache reads and writes, which it prices apart.
    inputTokens: input ?? 0,
    outputTokens: output ?? 0,
    ...(usage?.inputTokens.cacheRead !== undefined ? { cacheReadTokens: usage.inputTokens.cacheRead } : {}),
    ...(usage?.inputTokens.cacheWrite !== undefined ? { cacheWriteTokens: usage.inputTokens.cacheWrite } : {}),
    ...(usage?.outputTokens.reasoning !== undefined ? { reasoningTokens: usage.outputTokens.reasoning } : {}),
  };
}

function withDetourMetadata(metadata: SharedV3ProviderMetadata | undefined, run: DetourRunMetadata): SharedV3ProviderMetadata {
  // JSON round trip: provider metadata must be plain JSON values, and undefined fields are left out.
  return { ...metadata, detour: JSON.parse(JSON.stringify(run)) as SharedV3ProviderMetadata[string] };
}

/** R-ST-4: the conversation plus what the client holds, in the form the continuing model takes. */
export function continuationPrompt(prompt: LanguageModelV3Prompt, delivered: string, mode: ContinuationMode): LanguageModelV3Prompt {
  if (delivered.trim() === "") return prompt;
  if (mode === "prefill") return [...prompt, { role: "assistant", content: [{ type: "text", text: delivered.trimEnd() }] }];
  return [
    ...prompt,
    { role: "assistant", content: [{ type: "text", text: delivered }] },
    { role: "user", content: [{ type: "text", text: CONTINUE_INSTRUCTION }] },
  ];
}

class DetourModel implements DetourLanguageModel {
  readonly specificationVersion = "v3" as const;
  readonly provider = "detour";
  readonly modelId: string;
  /** Every URL is downloaded by the AI SDK first: a fallback candidate may not fetch what the primary can. */
  readonly supportedUrls: Record<string, RegExp[]> = {};

  readonly #options: CreateDetourModelOptions;
  readonly #plan: CandidatePlan;
  readonly #byRef: ReadonlyMap<string, ResolvedCandidate>;
  readonly #clock: Clock;
  #engine: Promise<{ detour: Detour; headroom: HeadroomRecorder }> | undefined;

  constructor(options: CreateDetourModelOptions) {
    this.#options = options;
    this.#plan = planCandidates(options.candidates, options.profiles);
    this.#byRef = new Map(this.#plan.candidates.map((candidate) => [candidate.ref, candidate]));
    this.#clock = options.clock ?? systemClock;
    this.modelId = this.#plan.candidates.map((candidate) => candidate.ref).join(",");
  }

  detour(): Promise<Detour> {
    return this.#ensureEngine().then(({ detour }) => detour);
  }

  async close(): Promise<void> {
    const engine = this.#engine;
    this.#engine = undefined;
    if (engine) await (await engine).detour.close();
  }

  #ensureEngine(): Promise<{ detour: Detour; headroom: HeadroomRecorder }> {
    if (!this.#engine) {
      const { config, env } = detourConfigFor(this.#plan, this.#options.config, this.#options.store !== undefined);
      const engine = createDetour({
        config,
        env,
        ...(this.#options.store ? { store: this.#options.store } : {}),
        clock: this.#clock,
        ...(this.#options.logger ? { logger: this.#options.logger } : {}),
      }).then((detour) => ({ detour, headroom: detour.headroom }));
      // A failed start must not poison the model for the next call.
      engine.catch(() => {
        if (this.#engine === engine) this.#engine = undefined;
      });
      this.#engine = engine;
    }
    return this.#engine;
  }

  /** The AI SDK model that makes this attempt: the candidate's instance for the profile the runner picked. */
  #modelFor(context: AttemptContext): LanguageModelV3 {
    const candidate = this.#byRef.get(`${context.provider}/${context.model}`);
    if (!candidate) {
      throw new FailoverError(`${context.provider}/${context.model} is not one of this model's candidates.`, {
        reason: "model_not_found",
        provider: context.provider,
        model: context.model,
      });
    }
    const model = context.profileId !== undefined ? candidate.byProfile.get(context.profileId) : candidate.byProfile.values().next().value;
    if (!model) {
      // A profile another front end stored for this provider: its key is not in any of the AI SDK models.
      throw new FailoverError(`The profile ${context.profileId} has no AI SDK model for ${candidate.ref}.`, {
        reason: "incompatible",
        provider: context.provider,
        model: context.model,
        ...(context.profileId !== undefined ? { profileId: context.profileId } : {}),
      });
    }
    return model;
  }

  #routing(options: LanguageModelV3CallOptions) {
    const [primary, ...fallbacks] = this.#plan.candidates;
    const sessionKey = sessionKeyOf(options);
    return {
      ...(this.#options.agentId !== undefined ? { agentId: this.#options.agentId } : {}),
      ...(sessionKey !== undefined ? { sessionKey } : {}),
      model: primary!.ref,
      fallbacks: fallbacks.map((candidate) => candidate.ref),
      ...(options.abortSignal ? { signal: options.abortSignal } : {}),
    };
  }

  /** R-GW-7: prices the answer and charges the profile that gave it; the cost goes into the metadata. */
  #charge(
    detour: Detour,
    answeredBy: { provider: string; model: string; profileId?: string },
    usage: LanguageModelV3Usage | undefined,
  ): number | undefined {
    const priced = pricedUsageOf(usage);
    if (!priced) return undefined;
    return detour.recordUsage({
      ...(this.#options.agentId !== undefined ? { agentId: this.#options.agentId } : {}),
      provider: answeredBy.provider,
      model: answeredBy.model,
      ...(answeredBy.profileId !== undefined ? { profileId: answeredBy.profileId } : {}),
      usage: priced,
    });
  }

  #announce(run: DetourRunMetadata): void {
    if (run.notice !== undefined) this.#options.onNotice?.(run.notice, run);
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const { detour, headroom } = await this.#ensureEngine();
    const call = withoutDetourOptions(options);
    const failed = new FailedCalls(this.#clock);
    let lastAttempt: AttemptContext | undefined;
    let outcome: RunOutcome<LanguageModelV3GenerateResult>;
    try {
      outcome = await detour.runWith({
        ...this.#routing(options),
        attempt: async (context) => {
          lastAttempt = context;
          const onHeaders = headroom(this.#options.agentId, context);
          try {
            const result = await this.#modelFor(context).doGenerate({ ...call, abortSignal: context.signal });
            if (onHeaders && result.response?.headers) onHeaders(200, result.response.headers);
            return result;
          } catch (error) {
            const answered = failureHeadersOf(error);
            if (onHeaders && answered) onHeaders(answered.status, answered.headers);
            const failure = toUpstreamFailure(error, context.provider);
            if (!options.abortSignal?.aborted) failed.add(context, failure);
            throw failure;
          }
        },
      });
    } catch (error) {
      throw normalizeRunError(error, this.#clock, lastAttempt);
    }
    const run = metadataOf(outcome, failed);
    const costUsd = this.#charge(detour, outcome, outcome.result.usage);
    if (costUsd !== undefined) run.costUsd = costUsd;
    this.#announce(run);
    return { ...outcome.result, providerMetadata: withDetourMetadata(outcome.result.providerMetadata, run) };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const { detour, headroom } = await this.#ensureEngine();
    const call = withoutDetourOptions(options);
    const client = new ClientStreamState();
    const failed = new FailedCalls(this.#clock);
    const continued: { provider: string; model: string; profileId?: string }[] = [];
    const continuationSettings = continuationSettingsFromConfig(detour.config);
    const ttftSeconds = detour.config.gateway.ttftTimeoutSeconds;

    const open = (context: AttemptContext, prompt: LanguageModelV3Prompt): Promise<CommittedParts> => {
      const onHeaders = headroom(this.#options.agentId, context);
      return commitParts({
        open: async (signal) => {
          try {
            const result = await this.#modelFor(context).doStream({ ...call, prompt, abortSignal: signal });
            if (onHeaders && result.response?.headers) onHeaders(200, result.response.headers);
            return result;
          } catch (error) {
            const answered = failureHeadersOf(error);
            if (onHeaders && answered) onHeaders(answered.status, answered.headers);
            throw error;
          }
        },
        signal: context.signal,
        provider: context.provider,
        model: context.model,
        stallMs: detour.config.gateway.streamStallSeconds * 1000,
      }).catch((error: unknown) => {
        if (!options.abortSignal?.aborted) failed.add(context, error);
        throw error;
      });
    };

    /** Prefill where the model takes it; a prefill answered with 400 falls back to the instructed form. */
    const openContinuation = async (context: AttemptContext, delivered: DeliveredAnswer): Promise<CommittedParts> => {
      const mode = continuationSettings.modeFor(context.provider, context.model);
      try {
        return await open(context, continuationPrompt(call.prompt, delivered.text, mode));
      } catch (error) {
        const status =
          error instanceof Error && "failure" in error ? (error as { failure: { status?: number } }).failure.status : undefined;
        if (mode !== "prefill" || (status !== 400 && status !== 422)) throw error;
        continuationSettings.rejectedPrefill(context.provider, context.model);
        return open(context, continuationPrompt(call.prompt, delivered.text, "instructed"));
      }
    };

    let lastAttempt: AttemptContext | undefined;
    const outcome = await runContinuedStream<Part, CommittedParts>({
      runWith: detour.runWith,
      run: {
        ...this.#routing(options),
        ...(ttftSeconds !== undefined ? { attemptTimeoutMs: ttftSeconds * 1000 } : {}),
      },
      maxContinuations: continuationSettings.max,
      first: async (context) => {
        lastAttempt = context;
        const committed = await open(context, call.prompt);
        return { segment: firstSegment(committed, client), info: committed };
      },
      continuation: async (context, delivered) => {
        lastAttempt = context;
        const committed = await openContinuation(context, delivered);
        continued.push({
          provider: context.provider,
          model: context.model,
          ...(context.profileId !== undefined ? { profileId: context.profileId } : {}),
        });
        return continuationSegment(committed, client, delivered, continued.length);
      },
      normalizeError: (error, last) => normalizeRunError(error, this.#clock, last),
    });

    const head = metadataOf(outcome, failed);
    this.#announce(head);
    const { output, first, abort } = outcome.result;
    const parts = output[Symbol.asyncIterator]();
    const stream = new ReadableStream<Part>({
      pull: async (controller) => {
        try {
          const next = await parts.next();
          if (next.done) {
            controller.close();
            return;
          }
          const part = next.value;
          if (part.type !== "finish") {
            controller.enqueue(part);
            return;
          }
          const run: DetourRunMetadata = continued.length > 0 ? { ...head, continuations: [...continued] } : { ...head };
          // The finish part's usage is its own call's: the continuation's when the answer was continued.
          const costUsd = this.#charge(detour, continued.at(-1) ?? head, part.usage);
          if (costUsd !== undefined) run.costUsd = costUsd;
          controller.enqueue({ ...part, providerMetadata: withDetourMetadata(part.providerMetadata, run) });
        } catch (error) {
          // R-ST-2: a cut that could not be continued ends the stream with an explicit error.
          controller.enqueue({ type: "error", error: normalizeRunError(error, this.#clock, lastAttempt) });
          controller.close();
        }
      },
      cancel: async (reason) => {
        abort(reason);
        await parts.return?.();
      },
    });
    return {
      stream,
      ...(first.request ? { request: first.request } : {}),
      ...(first.response ? { response: first.response } : {}),
    };
  }
}

/** An AI SDK language model that fails over across `candidates` (SPEC R-LB-1). */
export function createDetourModel(options: CreateDetourModelOptions): DetourLanguageModel {
  return new DetourModel(options);
}
