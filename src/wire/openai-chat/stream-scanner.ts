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
import { SameWireStreamScanner, type EventVerdict } from "../shared/same-wire-scanner.js";
import { forEachEvent, indexOfBetween, parseEventJson, type DeliveredAnswer, type StreamScanEnd } from "../shared/sse-bytes.js";

export interface OpenAiChatScannerOptions {
  /** `provider/model` shown in every chunk (R-ST-3). */
  shownModel: string;
  /** The reads are assembled into one answer renamed once (R-ST-6): the events keep the upstream model. */
  keepUpstreamModel?: boolean;
  /** The client asked for `stream_options.include_usage` itself: its usage chunk is forwarded. */
  forwardUsageChunk: boolean;
}

export const OPENAI_DONE_BYTES = Buffer.from("data: [DONE]\n\n");

const DATA = Buffer.from("data:");
const DONE = Buffer.from("[DONE]");
const ERROR_KEY = Buffer.from('"error"');
const FINISH_KEY = Buffer.from('"finish_reason"');
const USAGE_KEY = Buffer.from('"usage"');

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
  for (let at = indexOfBetween(bytes, key, start, end); at !== -1; at = indexOfBetween(bytes, key, at + 1, end)) {
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

export class OpenAiChatStreamScanner extends SameWireStreamScanner {
  readonly #forwardUsageChunk: boolean;
  #done = false;

  constructor(options: OpenAiChatScannerOptions) {
    super(options.shownModel, options.keepUpstreamModel !== true);
    this.#forwardUsageChunk = options.forwardUsageChunk;
  }

  end(): StreamScanEnd {
    // R-ST-2: a stream that ends without [DONE] but with a finish reason is complete.
    return this.endWithTerminalFrame(OPENAI_DONE_BYTES);
  }

  /** The answer ended on finish and usage without `[DONE]`: the client still gets its terminal frame. */
  protected override finishForward(forward: Buffer): Buffer {
    return this.isComplete && !this.#done && this.failure === undefined ? Buffer.concat([forward, OPENAI_DONE_BYTES]) : forward;
  }

  delivered(): DeliveredAnswer {
    const answer: DeliveredAnswer = { text: "", toolCalls: [] };
    const bytes = this.forwardedBytes();
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

  protected scanEvent(bytes: Buffer, start: number, end: number): EventVerdict {
    const payload = dataPayload(bytes, start, end);
    // Comments and events without data (keep-alives) pass as they are.
    if (payload === undefined) return "keep";
    const [from, to] = payload;
    if (to - from === DONE.length && indexOfBetween(bytes, DONE, from, to) === from) {
      this.#done = true;
      this.isComplete = true;
      return "keep";
    }
    if (bytes[from] !== 0x7b || bytes[to - 1] !== 0x7d) {
      this.malformedCount += 1;
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
        this.failure = error;
        return "fail";
      }
    }
    if (!this.hasCommitted || !this.modelSwapKnown) {
      const parsed = read();
      if (parsed === undefined) {
        this.malformedCount += 1;
        return "drop";
      }
      if (!this.modelSwapKnown) this.learnModelSwap(bytes.toString("utf8", from, to));
      const delta = parsed.choices?.[0]?.delta;
      if (
        delta &&
        (nonEmptyString(delta.content) ||
          (Array.isArray(delta.tool_calls) && delta.tool_calls.length > 0) ||
          nonEmptyString(delta.reasoning_content) ||
          nonEmptyString(delta.reasoning))
      ) {
        this.hasCommitted = true;
      }
    }
    const finishAt = valueAfterKey(bytes, FINISH_KEY, from, to);
    if (finishAt !== -1 && bytes[finishAt] === 0x22) {
      const reason = read()?.choices?.find((choice) => typeof choice.finish_reason === "string")?.finish_reason;
      if (typeof reason === "string") {
        this.finish = reason;
        // An empty completion is still an answer (R-ST-1).
        this.hasCommitted = true;
      }
    }
    let verdict: EventVerdict = "keep";
    const usageAt = valueAfterKey(bytes, USAGE_KEY, from, to);
    if (usageAt !== -1 && bytes[usageAt] === 0x7b) {
      const parsed = read();
      if (parsed?.usage !== undefined && parsed.usage !== null) {
        this.usageSeen = parsed.usage;
        const usageOnly = !Array.isArray(parsed.choices) || parsed.choices.length === 0;
        if (usageOnly && !this.#forwardUsageChunk) verdict = "drop";
      }
    }
    if (this.finish !== undefined && this.usageSeen !== undefined) this.isComplete = true;
    return verdict;
  }
}

/** [start, end) of the event's single `data:` line payload, or undefined. */
function dataPayload(bytes: Buffer, start: number, end: number): [number, number] | undefined {
  let at = indexOfBetween(bytes, DATA, start, end);
  if (at === -1) return undefined;
  // `data:` must start a line.
  if (at !== start && bytes[at - 1] !== 0x0a) return undefined;
  at += DATA.length;
  if (bytes[at] === 0x20) at += 1;
  let lineEnd = bytes.indexOf(0x0a, at);
  if (lineEnd === -1 || lineEnd > end) lineEnd = end;
  if (bytes[lineEnd - 1] === 0x0d) lineEnd -= 1;
  return [at, lineEnd];
}
