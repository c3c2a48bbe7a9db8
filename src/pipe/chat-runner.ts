/**
 * The one chat runner of the pipe: `detour.run` (the library), the gateway's chat route and the CLI all run a
 * chat request here. The runner decides everything — order, rotation, failover, notices, the commit point —
 * through `detour.runWith`; this module only picks, per attempt, how the candidate is called: with the
 * client's bytes when the candidate's wire is the client's (SPEC R-GW-6, attempt-same-wire.ts), otherwise
 * through its canonical provider (attempt-canonical.ts), the canonical request built on first need.
 *
 * Non-streamed runs resolve with the answer; streamed runs resolve at the commit point (R-ST-1) with the held
 * frames and the live rest of the stream; the run itself settles when the stream ends (R-ST-5), and a stream
 * that fails after its commit is continued on another profile or candidate (R-ST-4, continued-run.ts) or ends
 * with an explicit error (R-ST-2). A failure before any answer reaches front ends normalised (run-errors.ts).
 */
import { deferRequestFacts, type DeferredRequestFacts, type FitRequest } from "../core/fit.js";
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent } from "../ports/canonical.js";
import type { AttemptContext, RunOutcome } from "../runner/attempt.js";
import type { RawStreamScanner } from "../wire/shared/sse-bytes.js";
import type { SameWireAnswer } from "./assembled-pass-through.js";
import {
  completeCanonicalAttempt,
  continueCanonically,
  streamCanonicalAttempt,
  type CanonicalAttemptScope,
  type CommittedAttempt,
} from "./attempt-canonical.js";
import {
  completeSameWireAttempt,
  sameWireTarget,
  streamSameWireAttempt,
  type ClientWireBytes,
  type SameWireAttemptScope,
  type SameWireTargets,
} from "./attempt-same-wire.js";
import type { CommittedRawStream } from "./commit-point.js";
import { runContinuedStream } from "./continued-run.js";
import { assertPinnedProvider } from "./provider-pin.js";
import { requestFacts } from "./request-facts.js";
import { normalizeRunError } from "./run-errors.js";
import { routingOptionsOf, type ChatRunnerSettings, type ProviderLookup, type RunRouting } from "./run-options.js";
import type { RunnerDetour, RunTraceFacts } from "./run-with.js";
import { canonicalSegment, continuationSegment, rawContinuationRenderer, rawSegment } from "./stream-continuation.js";
import { StreamRefusals } from "./streamed-answer.js";

/** A chat request as the runner takes it: the canonical request on demand, and the client's bytes when it has them. */
export interface ChatRequestSource {
  stream: boolean;
  /** The canonical request; throws a `format` FailoverError when the client's bytes do not fit the canonical model. */
  canonical(): CanonicalRequest;
  /** The client's bytes in a wire format with a same-wire lane (the gateway); absent: every candidate is called canonically. */
  bytes?: ClientWireBytes;
}

export type ChatRunOptions = RunRouting & { request: ChatRequestSource };

/** A non-streamed answer: the upstream's bytes, or a canonical response from a cross-wire candidate. */
export type LaneResponse = ({ lane: "same-wire" } & SameWireAnswer) | { lane: "canonical"; response: CanonicalResponse };

/** A committed stream of canonical events: `events` starts with the held lifecycle frames and the first content. */
export interface CanonicalStreamResult {
  events: AsyncIterable<CanonicalStreamEvent>;
  timeToFirstTokenMs: number;
  /** Malformed upstream chunks skipped so far (R-ST-2: skipped and counted, not forwarded). */
  malformedChunks(): number;
  /** Stops the upstream stream (the consumer is gone). */
  abort(reason?: unknown): void;
}

/** A committed same-wire stream: `chunks` starts with the held head; one buffer per upstream read. */
export interface RawStreamResult {
  chunks: AsyncIterable<Buffer>;
  /** What the scanner found: finish reason, usage, malformed chunks, the delivered text (for continuations). */
  scanner: RawStreamScanner;
  timeToFirstTokenMs: number;
  abort(reason?: unknown): void;
}

export type LaneStream = { lane: "same-wire"; stream: RawStreamResult } | { lane: "canonical"; stream: CanonicalStreamResult };

export interface ChatRunner {
  complete(options: ChatRunOptions): Promise<RunOutcome<LaneResponse>>;
  stream(options: ChatRunOptions): Promise<RunOutcome<LaneStream>>;
}

/**
 * Facts on demand (R-FB-8): the runner settles every candidate it can from the bytes' bound, and parses the
 * body for the exact estimate — once per request — only when a candidate's known window or modalities could
 * exclude it. A model of unknown window never costs the lane a parse, which keeps it a pipe.
 */
function bytesRequestFacts(request: ChatRequestSource, bytes: ClientWireBytes): DeferredRequestFacts {
  return deferRequestFacts(
    () => bytes.factsBound(),
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

function runFacts(request: ChatRequestSource): { requestFacts: FitRequest | DeferredRequestFacts; traceFacts: RunTraceFacts } {
  const bytes = request.bytes;
  if (!bytes) return { requestFacts: requestFacts(request.canonical()), traceFacts: { stream: request.stream } };
  return { requestFacts: bytesRequestFacts(request, bytes), traceFacts: { dialect: bytes.wire.id, stream: request.stream } };
}

/** The first answer of a streamed run in the client's form: raw bytes, or canonical events from another wire. */
type FirstAnswer = { lane: "same-wire"; committed: CommittedRawStream } | { lane: "canonical"; committed: CommittedAttempt };

/**
 * `targets`: the providers that can be called with a client's bytes; absent, every candidate is called
 * canonically (the library's runner).
 */
export function createChatRunner(
  detour: RunnerDetour,
  providers: ProviderLookup,
  targets: SameWireTargets | undefined,
  settings: ChatRunnerSettings,
): ChatRunner {
  const { clock } = settings;
  const refusals = new StreamRefusals();

  function scopeOf(options: ChatRunOptions): CanonicalAttemptScope & SameWireAttemptScope {
    return { providers, targets, settings, refusals, callerSignal: options.signal };
  }

  function runOptions(options: ChatRunOptions) {
    // R-HG-1: every attempt reports its upstream progress, so a slow one can be raced.
    return { ...routingOptionsOf(options), ...runFacts(options.request), reportsProgress: true };
  }

  async function complete(options: ChatRunOptions): Promise<RunOutcome<LaneResponse>> {
    const request = options.request;
    const scope = scopeOf(options);
    let lastAttempt: AttemptContext | undefined;
    try {
      return await detour.runWith<LaneResponse>({
        ...runOptions(options),
        attempt: async (context) => {
          lastAttempt = context;
          assertPinnedProvider(options.pinnedProvider, context);
          const onUpstreamHeaders = settings.headroom?.(options.agentId, context);
          const target = sameWireTarget(targets, context, request.bytes, false);
          if (target && request.bytes)
            return { lane: "same-wire", ...(await completeSameWireAttempt(scope, target, request.bytes, context, onUpstreamHeaders)) };
          return { lane: "canonical", response: await completeCanonicalAttempt(scope, request.canonical(), context, onUpstreamHeaders) };
        },
      });
    } catch (error) {
      throw normalizeRunError(error, clock, lastAttempt);
    }
  }

  /**
   * R-ST-4: the client stream keeps the form of its first answer; continuations are canonical (any candidate
   * can continue any answer) and are rendered into it — as dialect bytes after a same-wire first answer.
   */
  async function stream(options: ChatRunOptions): Promise<RunOutcome<LaneStream>> {
    const request = options.request;
    const bytes = request.bytes;
    const scope = scopeOf(options);
    // R-PO-7: rate-limit readings are taken on every attempt.
    const onHeaders = (context: AttemptContext) => settings.headroom?.(options.agentId, context);
    const createdSeconds = Math.floor(clock.now() / 1000);
    let firstLane: FirstAnswer["lane"] | undefined;
    const outcome = await runContinuedStream<Buffer | CanonicalStreamEvent, FirstAnswer>({
      runWith: detour.runWith,
      run: runOptions(options),
      // A format whose cut stream cannot go on in its own bytes (Responses: its events carry item ids and
      // sequence numbers) ends a cut stream with R-ST-2's explicit error.
      maxContinuations: bytes && !bytes.wire.stream.resumeEncoder ? 0 : (settings.continuations?.max ?? 0),
      async first(context) {
        assertPinnedProvider(options.pinnedProvider, context);
        const target = sameWireTarget(targets, context, bytes, true);
        if (!target || !bytes) {
          const committed = await streamCanonicalAttempt(scope, request.canonical(), context, onHeaders(context));
          firstLane = "canonical";
          return { segment: canonicalSegment(committed), info: { lane: "canonical", committed } };
        }
        const committed = await streamSameWireAttempt(scope, target, bytes, context, onHeaders(context));
        firstLane = "same-wire";
        return { segment: rawSegment(committed, bytes.wire.id), info: { lane: "same-wire", committed } };
      },
      continuation: async (context, delivered) => {
        assertPinnedProvider(options.pinnedProvider, context);
        const committed = await continueCanonically(scope, request.canonical(), delivered, context, onHeaders(context));
        if (firstLane === "canonical" || !bytes)
          return continuationSegment<Buffer | CanonicalStreamEvent>(committed, delivered, (event) => event);
        const render = rawContinuationRenderer({
          wire: bytes.wire,
          shownModel: `${context.provider}/${context.model}`,
          delivered,
          includeUsage: bytes.clientWantsUsage,
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
