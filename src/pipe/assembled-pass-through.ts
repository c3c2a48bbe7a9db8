/**
 * A non-streamed same-wire attempt made as a stream (SPEC R-ST-6, R-GW-6): the client's bytes go upstream with
 * only `model` replaced and `stream: true` (plus OpenAI's `stream_options.include_usage`, for the usage the
 * non-streamed answer always has); the watchdogs of `watched-stream.ts` catch an upstream that sends nothing
 * for `ttftTimeoutSeconds`, driven by the wire's stream scanner (first token, finish, in-band errors); the wire's assembler turns the events into the JSON body the provider's own
 * non-streamed answer would have had. A model that refuses a stream gets the client's bytes as they are.
 */
import type { ProviderCallContext } from "../ports/provider.js";
import type { AttemptContext } from "../runner/attempt.js";
import {
  looksLikeJsonObject,
  openPassThrough,
  pumpPassThrough,
  readPassThroughBody,
  type PassThroughResponse,
  type PassThroughTarget,
  type UpstreamBody,
} from "../providers/shared/pass-through-call.js";
import { answersWithJson, type ResponseHeaders } from "../providers/shared/http-client.js";
import { failureFromStreamError, unreadableResponseFailure } from "../providers/shared/upstream-failure.js";
import type { RawStreamScanner } from "../wire/shared/sse-bytes.js";
import type { LaneWireFormat } from "../wire/wire-format.js";
import { attemptStreamBudgets } from "./first-token-timeout.js";
import { reportStatedUsage } from "./stated-usage.js";
import type { AttemptScope } from "./run-options.js";
import { refusesStreaming } from "./streamed-answer.js";
import { readWatchedPushed, type WatchedItem } from "./watched-stream.js";

export interface SameWireAnswer {
  status: number;
  headers: ResponseHeaders;
  body: Buffer;
  /**
   * Set when the body was assembled here from the stream: it already names the answering model (renamed once
   * when assembled, R-ST-3) and this is the usage the scanner kept, so nobody scans it again.
   */
  assembled?: { usage: unknown };
}

export interface AssembledSameWireCall {
  wire: LaneWireFormat;
  /** The candidate called as a stream, and as a plain call (for a model that refuses a stream). */
  streamTarget: PassThroughTarget;
  plainTarget: PassThroughTarget;
  streamedBody: UpstreamBody;
  /** The client's bytes for a plain call, built only when one is made (a 1 MB body is not copied twice). */
  plainBody: () => UpstreamBody;
  context: AttemptContext;
  scope: AttemptScope;
  callContext: (signal: AbortSignal) => Pick<ProviderCallContext, "signal" | "onUpstreamHeaders">;
}

/** One plain call: the client's bytes, the whole JSON answer (a 200 that is not one fails over). */
export async function completePlainSameWire(
  target: PassThroughTarget,
  body: UpstreamBody,
  call: Pick<ProviderCallContext, "signal" | "onUpstreamHeaders">,
): Promise<SameWireAnswer> {
  const response = await openPassThrough(target, body, call);
  return jsonAnswerOf(target, response, await readPassThroughBody(target, response, call.signal));
}

/** A whole JSON answer as the attempt's answer, returned as sent; a 200 whose body is not one fails over. */
function jsonAnswerOf(target: PassThroughTarget, response: PassThroughResponse, bytes: Buffer): SameWireAnswer {
  if (!looksLikeJsonObject(bytes))
    throw unreadableResponseFailure(target.provider, "the body is not a JSON object", bytes.toString("utf8", 0, 500));
  return { status: response.status, headers: response.headers, body: bytes };
}

/**
 * The wire's assembler, fed by the scanner itself: each event the scanner keeps (and the terminal frame it
 * supplies at the end, R-ST-2) reaches `accept` as the JSON the scanner parsed for its own decision, or parsed
 * once for the assembler — an event is framed and parsed once, not once by the scanner and again here.
 */
function sseAssembler(wire: LaneWireFormat): { accept(event: unknown): void; body(shownModel: string): Buffer } {
  const assembler = wire.lane.assembler();
  return {
    accept: (event) => assembler.accept(event),
    body(shownModel) {
      const answer = assembler.answer();
      // R-ST-3, once for the whole answer: the events kept the upstream's name (keepUpstreamModel).
      answer.model = shownModel;
      return Buffer.from(JSON.stringify(answer));
    },
  };
}

export async function completeSameWireThroughStream(call: AssembledSameWireCall): Promise<SameWireAnswer> {
  const { context, streamTarget } = call;
  const { settings, refusals, callerSignal } = call.scope;
  const plain = () => {
    // R-HG-1: a plain call's first content cannot be seen, so it is not raced.
    context.upstreamProgress?.("unwatched");
    return completePlainSameWire(call.plainTarget, call.plainBody(), call.callContext(context.signal));
  };
  if (refusals.has(context.provider, context.model)) return plain();
  let headers: ResponseHeaders | undefined;
  let status = 200;
  const shownModel = `${context.provider}/${context.model}`;
  // The usage chunk is the non-streamed answer's `usage`: it is always kept here. The answer is renamed once.
  const assembled = sseAssembler(call.wire);
  const onEvent = assembled.accept;
  const scanner: RawStreamScanner = call.wire.lane.scanner({
    shownModel,
    forwardUsage: true,
    keepUpstreamModel: true,
    onEvent,
    assembleOnly: true,
  });
  // R-GW-10: the upstream ignored `stream: true` and sent its whole JSON answer: that answer is the attempt's.
  let jsonAnswer: { response: PassThroughResponse; body?: Buffer } | undefined;
  const inBandFailure = (failure: unknown) =>
    failureFromStreamError({
      provider: streamTarget.provider,
      details: call.wire.errors.readStreamError(failure),
      ...(headers ? { headers } : {}),
      secrets: streamTarget.secrets,
    });
  const accept = (read: Buffer): WatchedItem => {
    if (jsonAnswer?.body === read) {
      // An error object in place of the answer is the provider's error, read as the same error mid-stream is:
      // the wire makes it its stream's error event, which the scanner fails on.
      const asStream = call.wire.lane.answerAsStream(read, { createdSeconds: 0 });
      const failure = asStream === undefined ? undefined : scanner.push(asStream).failure;
      if (failure !== undefined) throw inBandFailure(failure);
      return "complete";
    }
    const scanned = scanner.push(read);
    if (scanned.failure !== undefined) throw inBandFailure(scanned.failure);
    if (scanner.complete) return "complete";
    return scanner.committed ? "token" : "lifecycle";
  };
  const budgets = attemptStreamBudgets(settings, context, callerSignal);
  try {
    // Pushed, not pulled: the reads of an assembled answer never reach the client one by one, so they need no
    // promise each (R-ST-6 reads a short answer as ~20 events).
    await readWatchedPushed({
      open: async (signal, push) => {
        await pumpPassThrough(
          streamTarget,
          call.streamedBody,
          call.callContext(signal),
          (response) => {
            headers = response.headers;
            status = response.status;
            if (!answersWithJson(response.headers)) return true;
            jsonAnswer = { response };
            return false;
          },
          push,
        );
        if (!jsonAnswer) return;
        // Read under the same watchdogs: a body that never comes is a silence like any other.
        jsonAnswer.body = await readPassThroughBody(streamTarget, jsonAnswer.response, signal);
        push(jsonAnswer.body);
      },
      accept,
      end: () => scanner.end().complete && scanner.committed,
      ...budgets,
      // R-HG-1: the input tokens stated before the answer are what a raced loser is charged.
      ...(budgets.progress ? { progress: reportStatedUsage(budgets.progress, scanner, call.wire, context) } : {}),
    });
  } catch (error) {
    if (!refusesStreaming(error)) throw error;
    refusals.add(context.provider, context.model);
    return plain();
  }
  if (jsonAnswer?.body) return jsonAnswerOf(streamTarget, jsonAnswer.response, jsonAnswer.body);
  // The stream's headers (request id, rate limits) stay; the body is JSON now, not an event stream.
  return {
    status,
    headers: { ...(headers ?? {}), "content-type": "application/json" },
    body: assembled.body(shownModel),
    assembled: { usage: scanner.usage },
  };
}
