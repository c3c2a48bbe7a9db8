/**
 * Continuing a cut stream (SPEC R-ST-4): which form a candidate gets (prefill or instructed), the prefill
 * 400 that falls back to the instructed form, and the continuation's events cut at the seam — the text the
 * client already holds is dropped, tool calls go on after the delivered ones — and rendered in the form the
 * client stream already has (canonical events, or the same-wire bytes of its dialect).
 */
import { modelDeclaration, type DetourConfig } from "../config/index.js";
import { describeModel } from "../catalogue/model-catalogue.js";
import { SeamTrimmer } from "../core/stream-seam.js";
import type { CanonicalRequest, CanonicalStreamEvent } from "../ports/canonical.js";
import type { Clock } from "../ports/clock.js";
import { classifyAttemptError } from "../runner/failure.js";
import type { DeliveredAnswer } from "../wire/shared/sse-bytes.js";
import { isRefusalFinish, REFUSAL_STREAM_MARKERS } from "../wire/shared/refusal-answer.js";
import type { WireFormat } from "../wire/wire-format.js";
import type { CommittedRawStream } from "./commit-point.js";
import { continuationRequest, firstContinuationMode, type ContinuationMode } from "./continuation-request.js";
import type { StreamSegment } from "./stream-relay.js";

export interface ContinuationSettings {
  /** `gateway.streamContinuations` (R-ST-4). */
  max: number;
  /** The first form to try on `provider/model`. */
  modeFor(provider: string, model: string): ContinuationMode;
  /** Answers a prefill with a 400: this process sends it the instructed form from now on. */
  rejectedPrefill(provider: string, model: string): void;
}

/**
 * Prefill support: `models.providers.<id>.models[].supportsPrefill`, else the catalogue; anything else gets
 * the instructed form (continuation-request.ts). A model that rejects a prefill is remembered for the process.
 */
export function continuationSettingsFromConfig(config: DetourConfig): ContinuationSettings {
  const rejected = new Set<string>();
  return {
    max: config.gateway.streamContinuations,
    modeFor(provider, model) {
      if (rejected.has(`${provider}/${model}`)) return "instructed";
      const declared = describeModel(provider, model, modelDeclaration(config, provider, model)).supportsPrefill;
      return firstContinuationMode(declared);
    },
    rejectedPrefill(provider, model) {
      rejected.add(`${provider}/${model}`);
    },
  };
}

/** A continuation's committed upstream stream (canonical events: any wire can continue any answer). */
export interface CommittedContinuation {
  head: readonly CanonicalStreamEvent[];
  rest: AsyncIterable<CanonicalStreamEvent>;
  abort(reason?: unknown): void;
  /** A complete answer the consumer is done with: the call is let go, not aborted. */
  release?(): void;
}

/**
 * Opens the continuation on the candidate of this attempt: prefill where the model takes it, otherwise (or
 * when it answers the prefill with a 400) the instructed form. A failure before the continuation's first
 * content is this attempt's failure, so the runner moves on (R-ST-4: a rejected prefill never masks the cut).
 */
export async function openContinuation<C extends CommittedContinuation>(options: {
  request: CanonicalRequest;
  delivered: DeliveredAnswer;
  provider: string;
  model: string;
  settings: ContinuationSettings;
  clock: Clock;
  open(request: CanonicalRequest): Promise<C>;
}): Promise<C> {
  const { provider, model, settings } = options;
  const mode = settings.modeFor(provider, model);
  try {
    return await options.open(continuationRequest(options.request, options.delivered.text, mode));
  } catch (error) {
    if (mode !== "prefill" || !rejectsRequest(error, provider, options.clock.now())) throw error;
    settings.rejectedPrefill(provider, model);
    return options.open(continuationRequest(options.request, options.delivered.text, "instructed"));
  }
}

function rejectsRequest(error: unknown, provider: string, now: number): boolean {
  const { status } = classifyAttemptError(error, provider, now);
  return status === 400 || status === 422;
}

/**
 * The continuation's events past the seam: no second `message-start`, no reasoning (the client's answer is
 * already past it), text trimmed of what was delivered, tool calls numbered after the delivered ones.
 */
export function trimmedContinuation(
  events: AsyncIterable<CanonicalStreamEvent>,
  delivered: DeliveredAnswer,
  onText: (text: string) => void,
): AsyncGenerator<CanonicalStreamEvent> {
  const trimmer = new SeamTrimmer(delivered.text);
  const toolOffset = delivered.toolCalls.length;
  async function* trimmed(): AsyncGenerator<CanonicalStreamEvent> {
    const text = (piece: string): CanonicalStreamEvent | undefined => {
      if (piece === "") return undefined;
      onText(piece);
      return { type: "text-delta", text: piece };
    };
    for await (const event of events) {
      switch (event.type) {
        case "message-start":
        case "thinking-delta":
          continue;
        case "text-delta": {
          const out = text(trimmer.push(event.text));
          if (out) yield out;
          continue;
        }
        case "tool-call-delta": {
          const held = text(trimmer.end());
          if (held) yield held;
          yield { ...event, index: event.index + toolOffset };
          continue;
        }
        case "finish": {
          const held = text(trimmer.end());
          if (held) yield held;
          yield event;
          continue;
        }
        default:
          yield event;
      }
    }
  }
  return trimmed();
}

/** Renders canonical continuation events in the client's form: events as they are, or wire bytes. */
export type ContinuationRenderer<Out> = (event: CanonicalStreamEvent) => Out | undefined;

/** The same-wire lane's client already holds raw bytes of its dialect: the continuation goes on in them. */
export function rawContinuationRenderer(options: {
  wire: WireFormat;
  shownModel: string;
  delivered: DeliveredAnswer;
  includeUsage: boolean;
  createdSeconds: number;
}): ContinuationRenderer<Buffer> {
  const resume = options.wire.stream.resumeEncoder;
  // An invariant, not a path: a format without a resume encoder gets no continuation budget (chat-runner.ts).
  if (!resume) throw new Error(`Internal: a ${options.wire.id} stream cannot be continued in its own bytes.`);
  const encoder = resume({
    model: options.shownModel,
    createdSeconds: options.createdSeconds,
    includeUsage: options.includeUsage,
    delivered: options.delivered,
  });
  return (event) => {
    const frames = encoder.encode(event);
    return frames.length === 0 ? undefined : Buffer.from(frames.join(""));
  };
}

/** A continuation as one segment of the client's stream. */
export function continuationSegment<Out>(
  committed: CommittedContinuation,
  delivered: DeliveredAnswer,
  render: ContinuationRenderer<Out>,
): StreamSegment<Out> {
  let text = "";
  let complete = false;
  async function* upstream(): AsyncGenerator<CanonicalStreamEvent> {
    yield* committed.head;
    yield* committed.rest;
  }
  async function* items(): AsyncGenerator<Out> {
    for await (const event of trimmedContinuation(upstream(), delivered, (piece) => (text += piece))) {
      if (event.type === "finish") complete = true;
      const out = render(event);
      if (out !== undefined) yield out;
    }
  }
  return {
    head: [],
    rest: items(),
    delivered: () => ({ text, toolCalls: [] }),
    complete: () => complete,
    abort: (reason) => committed.abort(reason),
    ...(committed.release ? { release: () => committed.release?.() } : {}),
  };
}

/** The first attempt's canonical stream as a segment: what the client got is tracked for a continuation. */
export function canonicalSegment(committed: {
  head: readonly CanonicalStreamEvent[];
  rest: AsyncIterable<CanonicalStreamEvent>;
  abort(reason?: unknown): void;
  release(): void;
}): StreamSegment<CanonicalStreamEvent> {
  const delivered: DeliveredAnswer = { text: "", toolCalls: [] };
  let complete = false;
  let refused = false;
  const track = (event: CanonicalStreamEvent) => {
    if (event.type === "text-delta") delivered.text += event.text;
    else if (event.type === "finish") {
      complete = true;
      refused = event.reason === "content_filter";
    } else if (event.type === "tool-call-delta") {
      let call = delivered.toolCalls.find((entry) => entry.index === event.index);
      if (!call) {
        call = { index: event.index, arguments: "" };
        delivered.toolCalls.push(call);
      }
      if (event.id !== undefined) call.id = event.id;
      if (event.name !== undefined) call.name = event.name;
      call.arguments += event.argumentsDelta ?? "";
    }
  };
  return {
    head: committed.head,
    rest: committed.rest,
    observe: track,
    delivered: () => delivered,
    complete: () => complete,
    refused: () => refused,
    abort: (reason) => committed.abort(reason),
    release: () => committed.release(),
  };
}

/** A committed same-wire stream as a segment of the client's stream: the scanner knows what was delivered. */
export function rawSegment(committed: CommittedRawStream, api: string): StreamSegment<Buffer> {
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
