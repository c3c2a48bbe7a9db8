/**
 * A non-streamed canonical attempt made as a stream (SPEC R-ST-6): the provider is asked for a stream, the
 * commit point's watchdogs catch an upstream that sends nothing for `ttftTimeoutSeconds` (or stalls for
 * `streamStallSeconds`), and the events are assembled into the canonical answer the provider's own
 * non-streamed call would have given. A generation that keeps producing tokens is bounded only by the
 * provider's `timeoutSeconds` (the attempt's signal). A model that refuses a stream gets the plain call.
 */
import type { CanonicalRequest, CanonicalResponse } from "../ports/canonical.js";
import type { Provider, ProviderCallContext } from "../ports/provider.js";
import type { AttemptContext } from "../runner/attempt.js";
import { CanonicalResponseAssembler } from "../wire/shared/assemble-canonical-response.js";
import { firstTokenTimeoutMs } from "./first-token-timeout.js";
import type { CanonicalRunnerSettings } from "./run-canonical.js";
import { commitStream } from "./stream-commit.js";
import { readUnderDeadline, refusesStreaming, type StreamRefusals } from "./streamed-answer.js";

export interface AssembledCompletionCall {
  provider: Provider;
  request: CanonicalRequest;
  context: AttemptContext;
  settings: CanonicalRunnerSettings;
  refusals: StreamRefusals;
  /** Builds the provider's call context for a signal (credential, profile, header readers). */
  callContext: (signal: AbortSignal) => ProviderCallContext;
  /** The caller's own signal (client gone): stops the upstream at any point. */
  callerSignal?: AbortSignal;
}

export async function completeThroughStream(call: AssembledCompletionCall): Promise<CanonicalResponse> {
  const { provider, context, settings } = call;
  const plain = () => provider.complete({ ...call.request, model: context.model, stream: false }, call.callContext(context.signal));
  if (call.refusals.has(context.provider, context.model)) return plain();
  let committed: Awaited<ReturnType<typeof commitStream>>;
  try {
    committed = await commitStream({
      open: (signal) => provider.stream({ ...call.request, model: context.model, stream: true }, call.callContext(signal)),
      clock: settings.clock,
      ttftTimeoutMs: firstTokenTimeoutMs(settings, context),
      stallTimeoutMs: settings.streamStallSeconds * 1000,
      attemptSignal: context.signal,
      ...(call.callerSignal ? { callerSignal: call.callerSignal } : {}),
      provider: context.provider,
      model: context.model,
    });
  } catch (error) {
    if (!refusesStreaming(error)) throw error;
    call.refusals.add(context.provider, context.model);
    return plain();
  }
  const assembler = new CanonicalResponseAssembler({ id: `detour-${context.runId}`, model: context.model });
  for (const event of committed.head) assembler.accept(event);
  await readUnderDeadline(committed.rest, context.signal, committed.abort, (event) => assembler.accept(event));
  return assembler.response();
}
