/**
 * The AI SDK side of the streaming commit point and of continuation (SPEC R-ST-1, R-ST-4) for
 * `doStream`: an attempt's stream parts are held until the first content part (text, reasoning or a tool
 * call); a failure before it is the attempt's failure, so the runner moves on. After it the stream belongs to
 * the client; a cut is continued on the next profile or candidate, and the continuation's parts are fitted to
 * what the client holds — its text trimmed at the seam, its lifecycle parts dropped, its text going on in the
 * text block the client has open.
 */
import type { LanguageModelV3StreamPart, LanguageModelV3StreamResult } from "@ai-sdk/provider";
import { SeamTrimmer } from "../core/stream-seam.js";
import { cutFailure, stallTimeout } from "../pipe/stream-failures.js";
import type { StreamSegment } from "../pipe/stream-relay.js";
import type { DeliveredAnswer } from "../wire/shared/sse-bytes.js";
import { toUpstreamFailure } from "./ai-sdk-errors.js";

export type Part = LanguageModelV3StreamPart;

/** A stream at its commit point: the held parts, the live rest, and the call's response facts. */
export interface CommittedParts {
  head: readonly Part[];
  rest: AsyncIterable<Part>;
  response: LanguageModelV3StreamResult["response"];
  request: LanguageModelV3StreamResult["request"];
  abort(reason?: unknown): void;
  /** A complete answer the client is done with: the reader is let go. */
  release(): void;
}

/** The first content of an answer: from here on the client holds something (R-ST-1). */
function isContent(part: Part): boolean {
  switch (part.type) {
    case "text-delta":
    case "reasoning-delta":
    case "tool-input-delta":
      return part.delta !== "";
    case "tool-input-start":
    case "tool-call":
    case "tool-result":
    case "file":
    case "source":
      return true;
    default:
      return false;
  }
}

/** The failure an in-band `error` part or a broken read stands for, ready for the classifier. */
function streamFailure(error: unknown, provider: string): unknown {
  return toUpstreamFailure(error, provider);
}

/**
 * Opens one attempt's stream and reads it to its commit point. The call runs under its own controller, linked
 * to the attempt's signal, so the client going away (or the relay) can stop it after the commit too.
 */
export async function commitParts(options: {
  open(signal: AbortSignal): PromiseLike<LanguageModelV3StreamResult>;
  signal: AbortSignal;
  provider: string;
  model: string;
  /** `gateway.streamStallSeconds`: a committed stream silent this long is cut (and continued). */
  stallMs: number;
}): Promise<CommittedParts> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal.reason);
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener("abort", onAbort, { once: true });
  const detach = () => options.signal.removeEventListener("abort", onAbort);

  let result: LanguageModelV3StreamResult;
  try {
    result = await options.open(controller.signal);
  } catch (error) {
    detach();
    throw streamFailure(error, options.provider);
  }
  const reader = result.stream.getReader();
  const stop = (reason: unknown) => {
    controller.abort(reason);
    reader.cancel(reason).catch(() => undefined);
    detach();
  };

  const head: Part[] = [];
  let ended = false;
  let finished = false;
  /** A stream that closes without its `finish` part was cut, whatever the provider package made of it. */
  const closed = () =>
    cutFailure(
      options.provider,
      options.model,
      head.some(isContent) ? "stream closed before it finished" : "stream closed before any content",
    );
  try {
    for (;;) {
      const read = await reader.read();
      if (read.done) {
        ended = true;
        if (!finished) throw closed();
        break;
      }
      if (read.value.type === "error") throw streamFailure(read.value.error, options.provider);
      if (read.value.type === "finish") finished = true;
      head.push(read.value);
      if (isContent(read.value)) break;
    }
  } catch (error) {
    stop(error);
    throw streamFailure(error, options.provider);
  }

  /** One read of the committed stream, bounded by the stall budget (the attempt's watchdog stopped at the commit). */
  async function readWithin(): Promise<Awaited<ReturnType<typeof reader.read>>> {
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(stallTimeout(options.provider, options.model, options.stallMs)), options.stallMs);
    });
    try {
      return await Promise.race([reader.read(), stalled]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function* rest(): AsyncGenerator<Part> {
    if (ended) {
      detach();
      return;
    }
    try {
      for (;;) {
        const read = await readWithin();
        if (read.done) {
          if (!finished) throw closed();
          return;
        }
        if (read.value.type === "error") throw streamFailure(read.value.error, options.provider);
        if (read.value.type === "finish") finished = true;
        yield read.value;
      }
    } catch (error) {
      stop(error);
      throw streamFailure(error, options.provider);
    } finally {
      detach();
    }
  }

  return {
    head,
    rest: rest(),
    response: result.response,
    request: result.request,
    abort: stop,
    release: () => {
      reader.releaseLock();
      detach();
    },
  };
}

/** What one segment delivered to the client: its text and tool calls (the relay adds the segments up). */
class SegmentDelivery {
  readonly answer: DeliveredAnswer = { text: "", toolCalls: [] };

  see(part: Part): void {
    switch (part.type) {
      case "text-delta":
        this.answer.text += part.delta;
        return;
      case "tool-input-start":
        this.#toolCall(part.id, part.toolName);
        return;
      case "tool-input-delta": {
        const call = this.answer.toolCalls.find((entry) => entry.id === part.id);
        if (call) call.arguments += part.delta;
        return;
      }
      case "tool-call":
        this.#toolCall(part.toolCallId, part.toolName).arguments = part.input;
        return;
      default:
        return;
    }
  }

  #toolCall(id: string, name: string) {
    let call = this.answer.toolCalls.find((entry) => entry.id === id);
    if (!call) {
      call = { index: this.answer.toolCalls.length, id, name, arguments: "" };
      this.answer.toolCalls.push(call);
    }
    return call;
  }
}

/** What the client's stream has open, kept as parts go out, so a continuation writes into it. */
export class ClientStreamState {
  openText: string | undefined;
  readonly openReasoning = new Set<string>();
  finished = false;

  see(part: Part): void {
    switch (part.type) {
      case "text-start":
        this.openText = part.id;
        return;
      case "text-end":
        if (this.openText === part.id) this.openText = undefined;
        return;
      case "reasoning-start":
        this.openReasoning.add(part.id);
        return;
      case "reasoning-end":
        this.openReasoning.delete(part.id);
        return;
      case "finish":
        this.finished = true;
        return;
      default:
        return;
    }
  }
}

function segmentOf(
  committed: CommittedParts,
  client: ClientStreamState,
  head: readonly Part[],
  rest: AsyncIterable<Part>,
): StreamSegment<Part> {
  const delivery = new SegmentDelivery();
  return {
    head,
    rest,
    observe: (part) => {
      client.see(part);
      delivery.see(part);
    },
    delivered: () => delivery.answer,
    complete: () => client.finished,
    abort: (reason) => committed.abort(reason),
    release: () => committed.release(),
  };
}

/** The first attempt's committed stream as the client's first segment. */
export function firstSegment(committed: CommittedParts, client: ClientStreamState): StreamSegment<Part> {
  return segmentOf(committed, client, committed.head, committed.rest);
}

/**
 * A continuation as the next segment: no second `stream-start` or `response-metadata`, no reasoning (the
 * client's answer is past it; reasoning the cut left open is closed), text trimmed of what was delivered and
 * written into the text block the client has open.
 */
export function continuationSegment(
  committed: CommittedParts,
  client: ClientStreamState,
  delivered: DeliveredAnswer,
  sequence: number,
): StreamSegment<Part> {
  const trimmer = new SeamTrimmer(delivered.text);
  let textId = client.openText;
  let opened = 0;

  async function* fitted(): AsyncGenerator<Part> {
    for (const id of [...client.openReasoning]) yield { type: "reasoning-end", id };
    function* text(piece: string): Generator<Part> {
      if (piece === "") return;
      if (textId === undefined) {
        opened += 1;
        textId = `detour-continuation-${sequence}-${opened}`;
        yield { type: "text-start", id: textId };
      }
      yield { type: "text-delta", id: textId, delta: piece };
    }
    function* closeText(): Generator<Part> {
      yield* text(trimmer.end());
      if (textId !== undefined) yield { type: "text-end", id: textId };
      textId = undefined;
    }
    async function* upstream(): AsyncGenerator<Part> {
      yield* committed.head;
      yield* committed.rest;
    }
    for await (const part of upstream()) {
      switch (part.type) {
        case "stream-start":
        case "response-metadata":
        case "raw":
        case "text-start":
        case "reasoning-start":
        case "reasoning-delta":
        case "reasoning-end":
          continue;
        case "text-delta":
          yield* text(trimmer.push(part.delta));
          continue;
        case "text-end":
          yield* closeText();
          continue;
        case "finish":
          yield* closeText();
          yield part;
          continue;
        default:
          yield* text(trimmer.end());
          yield part;
      }
    }
  }

  return segmentOf(committed, client, [], fitted());
}
