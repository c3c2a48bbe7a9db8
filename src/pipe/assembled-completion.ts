/**
 * A non-streamed canonical attempt made as a stream (SPEC R-ST-6): the provider is asked for a stream, the
 * watchdogs catch an upstream that sends nothing for `ttftTimeoutSeconds` (or stalls for
 * `streamStallSeconds` once it has started), and the events are assembled into the canonical answer the
 * provider's own non-streamed call would have given. A generation that keeps producing tokens is bounded only
 * by the provider's `timeoutSeconds` (the attempt's signal). A model that refuses a stream gets the plain call.
 */
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent } from "../ports/canonical.js";
import { UpstreamFailure, type Provider, type ProviderCallContext } from "../ports/provider.js";
import type { AttemptContext } from "../runner/attempt.js";
import { CanonicalResponseAssembler } from "../wire/shared/assemble-canonical-response.js";
import { attemptStreamBudgets } from "./first-token-timeout.js";
import type { AttemptScope } from "./run-options.js";
import { cutFailure } from "./stream-failures.js";
import { refusesStreaming } from "./streamed-answer.js";
import { readWatchedPushed, readWatchedStream, type WatchedItem } from "./watched-stream.js";

/**
 * A provider that can also push its stream's events as the body's reads arrive (the built-in Anthropic and
 * OpenAI providers): an assembled answer then costs no promise or generator step per event, and a complete
 * answer's body drains so its connection is reused. `push` returns false once it needs no more.
 */
interface PushingProvider extends Provider {
  pushStream(request: CanonicalRequest, context: ProviderCallContext, push: (event: CanonicalStreamEvent) => boolean): Promise<void>;
}

function pushes(provider: Provider): provider is PushingProvider {
  return typeof (provider as Partial<PushingProvider>).pushStream === "function";
}

export interface AssembledCompletionCall {
  provider: Provider;
  request: CanonicalRequest;
  context: AttemptContext;
  scope: AttemptScope;
  /** Builds the provider's call context for a signal (credential, profile, header readers). */
  callContext: (signal: AbortSignal) => ProviderCallContext;
}

function errorEventFailure(provider: string, error: unknown): Error {
  if (error instanceof Error) return error;
  const message = typeof error === "string" ? error : "stream error event";
  return new UpstreamFailure(`${provider} reported an error mid-stream: ${message}`, { provider, message }, error);
}

export async function completeThroughStream(call: AssembledCompletionCall): Promise<CanonicalResponse> {
  const { provider, context } = call;
  const { settings, refusals, callerSignal } = call.scope;
  const plain = () => {
    // R-HG-1: a plain call's first content cannot be seen, so it is not raced.
    context.upstreamProgress?.("unwatched");
    return provider.complete({ ...call.request, model: context.model, stream: false }, call.callContext(context.signal));
  };
  if (refusals.has(context.provider, context.model)) return plain();
  const assembler = new CanonicalResponseAssembler({ id: `detour-${context.runId}`, model: context.model });
  const accept = (event: CanonicalStreamEvent): WatchedItem => {
    if (event.type === "error") throw errorEventFailure(context.provider, event.error);
    if (event.type === "finish" && event.reason === "error")
      throw cutFailure(context.provider, context.model, "stream finished with stop reason: error");
    assembler.accept(event);
    if (event.type === "finish") return "complete";
    // R-HG-1: the input tokens stated before the answer are what a raced loser is charged.
    if (event.type === "message-start" && event.inputTokens !== undefined) context.upstreamUsage?.({ inputTokens: event.inputTokens });
    // Thinking is tokens too: a model that is visibly reasoning is not silent.
    const token = (event.type === "text-delta" && event.text !== "") || event.type === "tool-call-delta" || event.type === "thinking-delta";
    return token ? "token" : "lifecycle";
  };
  const streamed = { ...call.request, model: context.model, stream: true };
  // Providers end their stream only after a finish (or throw for a cut), so an end without one is a cut.
  const end = () => assembler.finished;
  try {
    if (pushes(provider)) {
      await readWatchedPushed({
        open: (signal, push) => provider.pushStream(streamed, call.callContext(signal), push),
        accept,
        end,
        ...attemptStreamBudgets(settings, context, callerSignal),
      });
    } else {
      await readWatchedStream({
        open: (signal) => provider.stream(streamed, call.callContext(signal)),
        accept,
        end,
        ...attemptStreamBudgets(settings, context, callerSignal),
      });
    }
  } catch (error) {
    if (!refusesStreaming(error)) throw error;
    refusals.add(context.provider, context.model);
    return plain();
  }
  return assembler.response();
}
