/**
 * One attempt on a candidate whose wire format is the client's (SPEC R-GW-6): the client's bytes go to it with
 * only `model` replaced (credentials swapped) and its answer comes back as bytes. Non-streamed, the bytes are
 * streamed upstream and the answer assembled (R-ST-6, assembled-pass-through.ts); streamed, the bytes go
 * through the commit point watched by the wire's scanner (R-ST-1). Which providers can be called this way is
 * read from the config once.
 */
import { Readable } from "node:stream";
import { resolveProviderSettings, type DetourConfig } from "../config/index.js";
import type { RequestFactsBound } from "../core/fit.js";
import type { Provider, ProviderCallContext } from "../ports/provider.js";
import { sameWireTargetOf, type SameWireTarget } from "../providers/same-wire-targets.js";
import { answersWithJson, type ResponseHeaders } from "../providers/shared/http-client.js";
import {
  drainCompleteBody,
  openPassThrough,
  readPassThroughBody,
  type PassThroughResponse,
  type PassThroughTarget,
  type UpstreamBody,
} from "../providers/shared/pass-through-call.js";
import { failureFromNetworkError, failureFromStreamError, unreadableResponseFailure } from "../providers/shared/upstream-failure.js";
import type { AttemptContext } from "../runner/attempt.js";
import { isRefusalBody } from "../wire/shared/refusal-answer.js";
import type { LaneWireFormat } from "../wire/wire-format.js";
import { completePlainSameWire, completeSameWireThroughStream, type SameWireAnswer } from "./assembled-pass-through.js";
import { commitRawStream, type CommittedRawStream } from "./commit-point.js";
import { attemptStreamBudgets } from "./first-token-timeout.js";
import { callContext, type AttemptScope } from "./run-options.js";
import { reportStatedUsage } from "./stated-usage.js";

/** A chat request's bytes as the client sent them in a wire format that has a same-wire lane. */
export interface ClientWireBytes {
  /** The client's wire format. */
  wire: LaneWireFormat;
  /** The bytes for one candidate: the client's body with only `model` (and the usage option) changed. */
  bodyFor(model: string): UpstreamBody;
  /**
   * A non-streamed request's bytes as a stream: `model` replaced, `stream: true` and (OpenAI)
   * `stream_options.include_usage` set — the upstream call is streamed and its answer assembled (R-ST-6).
   * Absent: the non-streamed request goes upstream as one plain call.
   */
  streamedBodyFor?(model: string): UpstreamBody;
  /** OpenAI: the client asked for `stream_options.include_usage` itself. */
  clientWantsUsage: boolean;
  /** The client's headers that select its format's behaviour (Anthropic's version and beta flags). */
  clientHeaders?: Readonly<Record<string, string>>;
  /**
   * What the client's bytes say about its facts without a parse (R-FB-8), read only for a candidate with a
   * known window or modalities; the exact facts (through the canonical request) only for one this bound cannot settle.
   */
  factsBound(): RequestFactsBound;
}

/** The providers an attempt can call with the client's bytes, by id: only the built-in wire implementations. */
export interface SameWireTargets {
  get(providerId: string): SameWireTarget | undefined;
}

export function sameWireTargetsFromConfig(
  config: DetourConfig,
  providers: ReadonlyMap<string, Provider>,
): ReadonlyMap<string, SameWireTarget> {
  const targets = new Map<string, SameWireTarget>();
  for (const [id, provider] of providers) {
    const resolved = resolveProviderSettings(config, id);
    if (!resolved || resolved.api !== provider.api) continue;
    const settings = {
      id,
      api: resolved.api,
      baseUrl: resolved.baseUrl,
      headers: resolved.headers,
      timeoutSeconds: resolved.timeoutSeconds,
    };
    const target = sameWireTargetOf(provider, settings);
    if (target) targets.set(id, target);
  }
  return targets;
}

/** The candidate's call with the client's bytes, when its wire is the client's; undefined: it is called canonically. */
export function sameWireTarget(
  targets: SameWireTargets | undefined,
  context: AttemptContext,
  bytes: ClientWireBytes | undefined,
  stream: boolean,
): PassThroughTarget | undefined {
  if (!bytes || !targets) return undefined;
  const entry = targets.get(context.provider);
  return entry && entry.wire === bytes.wire ? entry.target(context.credential, stream, bytes.clientHeaders, context.model) : undefined;
}

/** What every same-wire attempt of a run shares: the attempt scope and the candidates callable with the client's bytes. */
export interface SameWireAttemptScope extends AttemptScope {
  targets: SameWireTargets | undefined;
}

/** One non-streamed same-wire attempt: streamed upstream and assembled (R-ST-6), or one plain call without the streamed bytes. */
export async function completeSameWireAttempt(
  scope: SameWireAttemptScope,
  target: PassThroughTarget,
  bytes: ClientWireBytes,
  context: AttemptContext,
  onUpstreamHeaders: ProviderCallContext["onUpstreamHeaders"],
): Promise<SameWireAnswer> {
  const plainBody = () => bytes.bodyFor(context.model);
  const answer = bytes.streamedBodyFor
    ? await completeSameWireThroughStream({
        wire: bytes.wire,
        streamTarget: sameWireTarget(scope.targets, context, bytes, true) as PassThroughTarget,
        plainTarget: target,
        streamedBody: bytes.streamedBodyFor(context.model),
        plainBody,
        context,
        scope,
        callContext: (signal) => callContext(context, signal, onUpstreamHeaders),
      })
    : await (context.upstreamProgress?.("unwatched"),
      completePlainSameWire(target, plainBody(), callContext(context, context.signal, onUpstreamHeaders)));
  // R-GW-11: a refusal goes back as sent, counted as content_filter.
  if (isRefusalBody(answer.body)) context.refused?.();
  return answer;
}

/** Opens and commits a same-wire stream: the client's bytes to the upstream, its bytes back (R-GW-6). */
export function streamSameWireAttempt(
  scope: SameWireAttemptScope,
  target: PassThroughTarget,
  bytes: ClientWireBytes,
  context: AttemptContext,
  onUpstreamHeaders: ProviderCallContext["onUpstreamHeaders"],
): Promise<CommittedRawStream> {
  const { settings } = scope;
  const body = bytes.bodyFor(context.model);
  const wire = bytes.wire;
  let headers: ResponseHeaders | undefined;
  const scanner = wire.lane.scanner({ shownModel: `${context.provider}/${context.model}`, forwardUsage: bytes.clientWantsUsage });
  const budgets = attemptStreamBudgets(settings, context, scope.callerSignal);
  return commitRawStream({
    open: async (signal) => {
      const response = await openPassThrough(target, body, callContext(context, signal, onUpstreamHeaders));
      headers = response.headers;
      if (!answersWithJson(response.headers)) return response.body;
      // R-GW-10: the upstream ignored `stream: true` and sent its whole answer: the client gets that answer
      // as the stream of its format, scanned like any upstream stream (commit, usage, the shown model).
      const answer = await readPassThroughBody(target, response, signal);
      const stream = wire.lane.answerAsStream(answer, { createdSeconds: Math.floor(settings.clock.now() / 1000) });
      if (!stream)
        throw unreadableResponseFailure(
          target.provider,
          "the JSON body sent for a stream is not an answer",
          answer.toString("utf8", 0, 500),
        );
      return Readable.from([stream]);
    },
    // A network failure mid-body is classified like any other (an abort included).
    readFailure: (error, signal) => failureFromNetworkError(error, { provider: target.provider, signal }),
    // The answer's last bytes (`[DONE]`, the terminating chunk) drain, so the connection is reused.
    releaseComplete: (body) => drainCompleteBody(body as PassThroughResponse["body"]),
    scanner,
    failureOf: (error) =>
      failureFromStreamError({
        provider: target.provider,
        details: wire.errors.readStreamError(error),
        ...(headers ? { headers } : {}),
        secrets: target.secrets,
      }),
    ...budgets,
    ...(budgets.progress ? { progress: reportStatedUsage(budgets.progress, scanner, wire, context) } : {}),
  });
}
