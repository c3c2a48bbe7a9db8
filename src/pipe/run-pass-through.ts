/**
 * The same-wire lane (SPEC R-GW-6): a chat request whose client dialect is a candidate's wire format goes to
 * that candidate as the client's bytes (only `model` replaced, credentials swapped) and its answer comes back
 * as bytes. The runner still decides everything — order, rotation, failover, notices, the commit point —
 * through `detour.runWith`; this module only picks, per attempt, whether the candidate is called raw or,
 * across wires, through the canonical path (parsed lazily, on the first candidate that needs it).
 */
import { resolveProviderSettings, type DetourConfig } from "../config/index.js";
import { deferRequestFacts, type DeferredRequestFacts, type RequestFactsBound } from "../core/fit.js";
import { requestFacts } from "./request-facts.js";
import type { CanonicalRequest, CanonicalResponse } from "../ports/canonical.js";
import type { Provider } from "../ports/provider.js";
import type { AttemptContext, RunOutcome } from "../runner/attempt.js";
import { sameWireTargetOf, type SameWireTarget } from "../providers/same-wire-targets.js";
import { Readable } from "node:stream";
import {
  drainCompleteBody,
  openPassThrough,
  readPassThroughBody,
  type PassThroughResponse,
  type PassThroughTarget,
  type UpstreamBody,
} from "../providers/shared/pass-through-call.js";
import { answersWithJson, type ResponseHeaders } from "../providers/shared/http-client.js";
import type { RawStreamScanner } from "../wire/shared/sse-bytes.js";
import { isRefusalBody, isRefusalFinish, REFUSAL_STREAM_MARKERS } from "../wire/shared/refusal-answer.js";
import type { LaneWireFormat } from "../wire/wire-format.js";
import { failureFromNetworkError, failureFromStreamError, unreadableResponseFailure } from "../providers/shared/upstream-failure.js";
import { assertPinnedProvider } from "./provider-pin.js";
import { attemptStreamBudgets } from "./first-token-timeout.js";
import { commitRawStream } from "./commit-point.js";
import { reportStatedUsage } from "./stated-usage.js";
import { completeSameWireThroughStream, completePlainSameWire, type SameWireAnswer } from "./assembled-pass-through.js";
import { StreamRefusals } from "./streamed-answer.js";
import {
  callContext,
  completeCanonicalAttempt,
  continueCanonically,
  normalizeRunError,
  routingOptionsOf,
  streamCanonicalAttempt,
  type CanonicalRunnerSettings,
  type CanonicalRunOptions,
  type CanonicalStreamResult,
  type CommittedAttempt,
  type ProviderLookup,
  type RunnerDetour,
} from "./run-canonical.js";
import { runContinuedStream } from "./continued-run.js";
import { canonicalSegment, continuationSegment, rawContinuationRenderer } from "./stream-continuation.js";
import type { StreamSegment } from "./stream-relay.js";
import type { CanonicalStreamEvent } from "../ports/canonical.js";

/** A chat request as the lane holds it: the client's bytes, and what the runner and the wire need. */
export interface PassThroughRequest {
  /** The client's wire format (one with a same-wire lane). */
  wire: LaneWireFormat;
  stream: boolean;
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
  /** The canonical request, for a cross-wire candidate; throws a `format` FailoverError when it does not fit. */
  canonical(): CanonicalRequest;
  /**
   * What the client's bytes say about its facts without a parse (R-FB-8), read only for a candidate with a
   * known window or modalities; the exact facts (through `canonical()`) only for one this bound cannot settle.
   */
  factsBound(): RequestFactsBound;
}

/**
 * Facts on demand (R-FB-8): the runner settles every candidate it can from the bytes' bound, and parses the
 * body for the exact estimate — once per request — only when a candidate's known window or modalities could
 * exclude it. A model of unknown window never costs the lane a parse, which keeps it a pipe.
 */
function laneRequestFacts(request: PassThroughRequest): DeferredRequestFacts {
  return deferRequestFacts(
    () => request.factsBound(),
    () => {
      try {
        return requestFacts(request.canonical());
      } catch {
        // A body the canonical model cannot hold is checked by the same-wire upstream itself.
        return undefined;
      }
    },
  );
}

export type PassThroughRunOptions = Omit<CanonicalRunOptions, "request" | "stream"> & { request: PassThroughRequest };

/** A non-streamed answer: the upstream's bytes, or a canonical response from a cross-wire candidate. */
export type LaneResponse = ({ lane: "same-wire" } & SameWireAnswer) | { lane: "canonical"; response: CanonicalResponse };

/** A committed same-wire stream: `chunks` starts with the held head; one buffer per upstream read. */
export interface RawStreamResult {
  chunks: AsyncIterable<Buffer>;
  /** What the scanner found: finish reason, usage, malformed chunks, the delivered text (for continuations). */
  scanner: RawStreamScanner;
  timeToFirstTokenMs: number;
  abort(reason?: unknown): void;
}

export type LaneStream = { lane: "same-wire"; stream: RawStreamResult } | { lane: "canonical"; stream: CanonicalStreamResult };

/** The providers the lane can call raw, by id: only the built-in wire implementations, from the config. */
export interface PassThroughTargets {
  get(providerId: string): SameWireTarget | undefined;
}

export function passThroughTargetsFromConfig(
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

export interface PassThroughRunner {
  complete(options: PassThroughRunOptions): Promise<RunOutcome<LaneResponse>>;
  stream(options: PassThroughRunOptions): Promise<RunOutcome<LaneStream>>;
}

/** A committed same-wire stream as a segment of the client's stream: the scanner knows what was delivered. */
function rawSegment(committed: Awaited<ReturnType<typeof commitRawStream>>, api: string): StreamSegment<Buffer> {
  // R-GW-11: a refusal part in the stream (OpenAI `delta.refusal`, Responses `response.refusal.delta`) counts
  // even when the finish reason is a plain stop; only wires that have one look at the reads.
  const marker = REFUSAL_STREAM_MARKERS[api];
  let refusalPart = false;
  const observe =
    marker === undefined
      ? {}
      : {
          observe: (read: Buffer) => {
            if (!refusalPart && read.includes(marker)) refusalPart = true;
          },
        };
  return {
    head: [committed.head],
    rest: committed.rest,
    ...observe,
    delivered: () => committed.scanner.delivered(),
    complete: () => committed.scanner.complete,
    refused: () => refusalPart || isRefusalFinish(committed.scanner.finishReason),
    abort: (reason) => committed.abort(reason),
  };
}

export function createPassThroughRunner(
  detour: RunnerDetour,
  providers: ProviderLookup,
  targets: PassThroughTargets,
  settings: CanonicalRunnerSettings,
): PassThroughRunner {
  const { clock } = settings;
  const refusals = new StreamRefusals();

  function runOptions(options: PassThroughRunOptions) {
    const traceFacts = { dialect: options.request.wire.id, stream: options.request.stream };
    // R-HG-1: every attempt of this lane reports its upstream progress, so a slow one can be raced.
    return { ...routingOptionsOf(options), requestFacts: laneRequestFacts(options.request), reportsProgress: true, traceFacts };
  }

  function sameWire(context: AttemptContext, request: PassThroughRequest, stream = request.stream) {
    const entry = targets.get(context.provider);
    return entry && entry.wire === request.wire
      ? entry.target(context.credential, stream, request.clientHeaders, context.model)
      : undefined;
  }

  async function complete(options: PassThroughRunOptions): Promise<RunOutcome<LaneResponse>> {
    const request = options.request;
    let lastAttempt: AttemptContext | undefined;
    try {
      return await detour.runWith<LaneResponse>({
        ...runOptions(options),
        attempt: async (context) => {
          lastAttempt = context;
          assertPinnedProvider(options.pinnedProvider, context);
          const target = sameWire(context, request);
          const onUpstreamHeaders = settings.headroom?.(options.agentId, context);
          const watch = { settings, refusals, callerSignal: options.signal };
          if (!target)
            return {
              lane: "canonical",
              response: await completeCanonicalAttempt(providers, request.canonical(), context, watch, onUpstreamHeaders),
            };
          const plainBody = () => request.bodyFor(context.model);
          // R-ST-6: streamed upstream and assembled, so silence is caught; without the streamed bytes, one plain call.
          const answer = request.streamedBodyFor
            ? await completeSameWireThroughStream({
                wire: request.wire,
                streamTarget: sameWire(context, request, true) as PassThroughTarget,
                plainTarget: target,
                streamedBody: request.streamedBodyFor(context.model),
                plainBody,
                context,
                settings,
                refusals,
                callContext: (signal) => callContext(context, signal, onUpstreamHeaders),
                ...(options.signal ? { callerSignal: options.signal } : {}),
              })
            : await (context.upstreamProgress?.("unwatched"),
              completePlainSameWire(target, plainBody(), callContext(context, context.signal, onUpstreamHeaders)));
          // R-GW-11: a refusal goes back as sent, counted as content_filter.
          if (isRefusalBody(answer.body)) context.refused?.();
          return { lane: "same-wire", ...answer };
        },
      });
    } catch (error) {
      throw normalizeRunError(error, clock, lastAttempt);
    }
  }

  /** Opens and commits a same-wire stream: the client's bytes to the upstream, its bytes back (R-GW-6). */
  function commitSameWire(target: PassThroughTarget, context: AttemptContext, request: PassThroughRequest, options: PassThroughRunOptions) {
    const onUpstreamHeaders = settings.headroom?.(options.agentId, context);
    const body = request.bodyFor(context.model);
    const wire = request.wire;
    let headers: ResponseHeaders | undefined;
    const scanner = wire.lane.scanner({ shownModel: `${context.provider}/${context.model}`, forwardUsage: request.clientWantsUsage });
    const budgets = attemptStreamBudgets(settings, context, options.signal);
    return commitRawStream({
      open: async (signal) => {
        const response = await openPassThrough(target, body, callContext(context, signal, onUpstreamHeaders));
        headers = response.headers;
        if (!answersWithJson(response.headers)) return response.body;
        // R-GW-10: the upstream ignored `stream: true` and sent its whole answer: the client gets that answer
        // as the stream of its format, scanned like any upstream stream (commit, usage, the shown model).
        const answer = await readPassThroughBody(target, response, signal);
        const stream = wire.lane.answerAsStream(answer, { createdSeconds: Math.floor(clock.now() / 1000) });
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

  /** The first answer of the run in the client's form: raw bytes, or canonical events from another wire. */
  type FirstAnswer =
    { lane: "same-wire"; committed: Awaited<ReturnType<typeof commitRawStream>> } | { lane: "canonical"; committed: CommittedAttempt };

  /**
   * R-ST-4: the client stream keeps the form of its first answer; continuations are canonical (any candidate
   * can continue any answer) and are rendered into it — as dialect bytes after a same-wire first answer.
   */
  async function stream(options: PassThroughRunOptions): Promise<RunOutcome<LaneStream>> {
    const request = options.request;
    // R-PO-7: rate-limit readings are taken on this lane exactly as on the canonical one.
    const onHeaders = (context: AttemptContext) => settings.headroom?.(options.agentId, context);
    const createdSeconds = Math.floor(clock.now() / 1000);
    let firstLane: FirstAnswer["lane"] | undefined;
    const outcome = await runContinuedStream<Buffer | CanonicalStreamEvent, FirstAnswer>({
      runWith: detour.runWith,
      run: runOptions(options),
      // A format whose cut stream cannot go on in its own bytes (Responses: its events carry item ids and
      // sequence numbers) ends a cut stream with R-ST-2's explicit error.
      maxContinuations: request.wire.stream.resumeEncoder ? (settings.continuations?.max ?? 0) : 0,
      async first(context) {
        assertPinnedProvider(options.pinnedProvider, context);
        const target = sameWire(context, request);
        if (!target) {
          const committed = await streamCanonicalAttempt(
            providers,
            request.canonical(),
            context,
            settings,
            options.signal,
            onHeaders(context),
          );
          firstLane = "canonical";
          return { segment: canonicalSegment(committed), info: { lane: "canonical", committed } };
        }
        const committed = await commitSameWire(target, context, request, options);
        firstLane = "same-wire";
        return { segment: rawSegment(committed, request.wire.id), info: { lane: "same-wire", committed } };
      },
      continuation: async (context, delivered) => {
        assertPinnedProvider(options.pinnedProvider, context);
        const committed = await continueCanonically(
          providers,
          request.canonical(),
          delivered,
          context,
          settings,
          options.signal,
          onHeaders(context),
        );
        if (firstLane === "canonical") return continuationSegment<Buffer | CanonicalStreamEvent>(committed, delivered, (event) => event);
        const render = rawContinuationRenderer({
          wire: request.wire,
          shownModel: `${context.provider}/${context.model}`,
          delivered,
          includeUsage: request.clientWantsUsage,
          createdSeconds,
        });
        return continuationSegment<Buffer | CanonicalStreamEvent>(committed, delivered, render);
      },
      normalizeError: (error, lastAttempt) => normalizeRunError(error, clock, lastAttempt),
    });
    const { output, first, abort } = outcome.result;
    if (first.lane === "canonical") {
      const events = output as AsyncIterable<CanonicalStreamEvent>;
      const result: CanonicalStreamResult = {
        events,
        timeToFirstTokenMs: first.committed.timeToFirstTokenMs,
        malformedChunks: first.committed.malformedChunks,
        abort,
      };
      return { ...outcome, result: { lane: "canonical", stream: result } };
    }
    const raw = first.committed;
    const chunks = output as AsyncIterable<Buffer>;
    return {
      ...outcome,
      result: { lane: "same-wire", stream: { chunks, scanner: raw.scanner, timeToFirstTokenMs: raw.timeToFirstTokenMs, abort } },
    };
  }

  return { complete, stream };
}
export { FORWARDED_RESPONSE_HEADERS } from "../providers/shared/pass-through-call.js";
export type { UpstreamBody, UpstreamChunks } from "../providers/shared/pass-through-call.js";
