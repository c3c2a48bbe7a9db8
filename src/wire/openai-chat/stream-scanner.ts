/**
 * The OpenAI chat-completions stream scanner of the same-wire lane (SPEC R-GW-6, R-ST-1…R-ST-3): finds the
 * commit point, the finish reason, the usage, in-band error chunks and `[DONE]` on the bytes of each upstream
 * read. After the commit an event is only looked at with a few `indexOf`s; JSON is parsed only for the events
 * that carry a decision (the first content, the finish, the usage, an error). One forwarded buffer per read.
 *
 * Two edits are made to the bytes: the `model` value names the model that answered (R-ST-3), and the
 * usage-only chunk that the lane's own `stream_options.include_usage` produced is kept for metrics but not
 * sent to a client that did not ask for it.
 */
import {
  completeEventsEnd,
  forEachEvent,
  modelSwap,
  parseEventJson,
  replaceAll,
  withoutRanges,
  type DeliveredAnswer,
  type RawStreamScanner,
  type StreamScanEnd,
  type StreamScanStep,
} from "../shared/sse-bytes.js";

export interface OpenAiChatScannerOptions {
  /** `provider/model` shown in every chunk (R-ST-3). */
  shownModel: string;
  /** The client asked for `stream_options.include_usage` itself: its usage chunk is forwarded. */
  forwardUsageChunk: boolean;
}

export const OPENAI_DONE_BYTES = Buffer.from("data: [DONE]\n\n");

const DATA = Buffer.from("data:");
const DONE = Buffer.from("[DONE]");
const ERROR_KEY = Buffer.from('"error"');
const FINISH_KEY = Buffer.from('"finish_reason"');
const USAGE_KEY = Buffer.from('"usage"');

type Verdict = "keep" | "drop" | "fail";

interface OpenAiChunk {
  model?: unknown;
  error?: unknown;
  usage?: unknown;
  choices?: { delta?: { content?: unknown; tool_calls?: unknown; reasoning_content?: unknown; reasoning?: unknown }; finish_reason?: unknown }[];
}

function isWhitespace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Offset of the first byte after `key` and its colon, when `key` occurs unescaped in [start, end). */
function valueAfterKey(bytes: Buffer, key: Buffer, start: number, end: number): number {
  for (let at = bytes.indexOf(key, start); at !== -1 && at < end; at = bytes.indexOf(key, at + 1)) {
    // Inside a JSON string the quote would be escaped: `\"error\"` is text, not a key.
    if (bytes[at - 1] === 0x5c) continue;
    let index = at + key.length;
    while (isWhitespace(bytes[index])) index += 1;
    if (bytes[index] !== 0x3a) continue;
    index += 1;
    while (isWhitespace(bytes[index])) index += 1;
    return index;
  }
  return -1;
}

function nonEmptyString(value: unknown): boolean {
  return typeof value === "string" && value !== "";
}

export class OpenAiChatStreamScanner implements RawStreamScanner {
  readonly #options: OpenAiChatScannerOptions;
  #carry: Buffer | undefined;
  #swap: { needle: Buffer; replacement: Buffer } | undefined;
  #swapKnown = false;
  #committed = false;
  #complete = false;
  #done = false;
  #finishReason: string | undefined;
  #usage: unknown;
  #malformed = 0;
  #failure: unknown;
  readonly #forwarded: Buffer[] = [];

  constructor(options: OpenAiChatScannerOptions) {
    this.#options = options;
  }

  get committed(): boolean {
    return this.#committed;
  }
  get complete(): boolean {
    return this.#complete;
  }
  get finishReason(): string | undefined {
    return this.#finishReason;
  }
  get usage(): unknown {
    return this.#usage;
  }
  get malformedChunks(): number {
    return this.#malformed;
  }

  push(chunk: Buffer): StreamScanStep {
    const bytes = this.#carry ? Buffer.concat([this.#carry, chunk]) : chunk;
    const end = completeEventsEnd(bytes);
    // Copied: a subarray would keep the whole read alive until the next one.
    this.#carry = end < bytes.length ? Buffer.from(bytes.subarray(end)) : undefined;
    if (end === 0 || this.#complete) return { forward: undefined };
    let cut: [number, number][] | undefined;
    let stopAt = end;
    forEachEvent(bytes, end, (start, eventEnd) => {
      if (stopAt !== end) return;
      const verdict = this.#complete ? "drop" : this.#scanEvent(bytes, start, eventEnd);
      if (verdict === "fail") stopAt = start;
      else if (verdict === "drop") (cut ??= []).push([start, eventEnd]);
    });
    let forward = cut ? withoutRanges(bytes, stopAt, cut) : bytes.subarray(0, stopAt);
    if (this.#swap) forward = replaceAll(forward, this.#swap.needle, this.#swap.replacement);
    if (this.#complete && !this.#done && this.#failure === undefined) forward = Buffer.concat([forward, OPENAI_DONE_BYTES]);
    const step: StreamScanStep = { forward: forward.length > 0 ? forward : undefined };
    if (step.forward) this.#forwarded.push(step.forward);
    if (this.#failure !== undefined) step.failure = this.#failure;
    return step;
  }

  end(): StreamScanEnd {
    if (this.#complete) return { complete: true };
    // R-ST-2: a stream that ends without [DONE] but with a finish reason is complete.
    if (this.#finishReason !== undefined) {
      this.#complete = true;
      this.#forwarded.push(OPENAI_DONE_BYTES);
      return { complete: true, forward: OPENAI_DONE_BYTES };
    }
    return { complete: false };
  }

  delivered(): DeliveredAnswer {
    const answer: DeliveredAnswer = { text: "", toolCalls: [] };
    const bytes = Buffer.concat(this.#forwarded);
    forEachEvent(bytes, bytes.length, (start, end) => {
      const payload = dataPayload(bytes, start, end);
      if (payload === undefined) return;
      const chunk = parseEventJson(bytes.toString("utf8", payload[0], payload[1])) as OpenAiChunk | undefined;
      const delta = chunk?.choices?.[0]?.delta;
      if (!delta) return;
      if (typeof delta.content === "string") answer.text += delta.content;
      if (Array.isArray(delta.tool_calls)) {
        for (const call of delta.tool_calls as { index?: number; id?: string; function?: { name?: string; arguments?: string } }[]) {
          const index = call.index ?? 0;
          let known = answer.toolCalls.find((entry) => entry.index === index);
          if (!known) {
            known = { index, arguments: "" };
            answer.toolCalls.push(known);
          }
          if (call.id !== undefined) known.id = call.id;
          if (call.function?.name !== undefined) known.name = call.function.name;
          known.arguments += call.function?.arguments ?? "";
        }
      }
    });
    return answer;
  }

  #scanEvent(bytes: Buffer, start: number, end: number): Verdict {
    const payload = dataPayload(bytes, start, end);
    // Comments and events without data (keep-alives) pass as they are.
    if (payload === undefined) return "keep";
    const [from, to] = payload;
    if (to - from === DONE.length && bytes.indexOf(DONE, from) === from) {
      this.#done = true;
      this.#complete = true;
      return "keep";
    }
    if (bytes[from] !== 0x7b || bytes[to - 1] !== 0x7d) {
      this.#malformed += 1;
      return "drop";
    }
    let chunk: OpenAiChunk | undefined;
    const read = (): OpenAiChunk | undefined => {
      chunk ??= parseEventJson(bytes.toString("utf8", from, to)) as OpenAiChunk | undefined;
      return chunk;
    };
    const errorAt = valueAfterKey(bytes, ERROR_KEY, from, to);
    if (errorAt !== -1 && bytes[errorAt] !== 0x6e) {
      const error = read()?.error;
      if (error !== undefined && error !== null) {
        this.#failure = error;
        return "fail";
      }
    }
    if (!this.#committed || !this.#swapKnown) {
      const parsed = read();
      if (parsed === undefined) {
        this.#malformed += 1;
        return "drop";
      }
      if (!this.#swapKnown) {
        this.#swapKnown = true;
        this.#swap = modelSwap(bytes.toString("utf8", from, to), this.#options.shownModel);
      }
      const delta = parsed.choices?.[0]?.delta;
      if (
        delta &&
        (nonEmptyString(delta.content) ||
          (Array.isArray(delta.tool_calls) && delta.tool_calls.length > 0) ||
          nonEmptyString(delta.reasoning_content) ||
          nonEmptyString(delta.reasoning))
      ) {
        this.#committed = true;
      }
    }
    const finishAt = valueAfterKey(bytes, FINISH_KEY, from, to);
    if (finishAt !== -1 && bytes[finishAt] === 0x22) {
      const reason = read()?.choices?.find((choice) => typeof choice.finish_reason === "string")?.finish_reason;
      if (typeof reason === "string") {
        this.#finishReason = reason;
        // An empty completion is still an answer (R-ST-1).
        this.#committed = true;
      }
    }
    let verdict: Verdict = "keep";
    const usageAt = valueAfterKey(bytes, USAGE_KEY, from, to);
    if (usageAt !== -1 && bytes[usageAt] === 0x7b) {
      const parsed = read();
      if (parsed?.usage !== undefined && parsed.usage !== null) {
        this.#usage = parsed.usage;
        const usageOnly = !Array.isArray(parsed.choices) || parsed.choices.length === 0;
        if (usageOnly && !this.#options.forwardUsageChunk) verdict = "drop";
      }
    }
    if (this.#finishReason !== undefined && this.#usage !== undefined) this.#complete = true;
    return verdict;
  }
}

/** [start, end) of the event's single `data:` line payload, or undefined. */
function dataPayload(bytes: Buffer, start: number, end: number): [number, number] | undefined {
  let at = bytes.indexOf(DATA, start);
  if (at === -1 || at >= end) return undefined;
  // `data:` must start a line.
  if (at !== start && bytes[at - 1] !== 0x0a) return undefined;
  at += DATA.length;
  if (bytes[at] === 0x20) at += 1;
  let lineEnd = bytes.indexOf(0x0a, at);
  if (lineEnd === -1 || lineEnd > end) lineEnd = end;
  if (bytes[lineEnd - 1] === 0x0d) lineEnd -= 1;
  return [at, lineEnd];
}
