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
import { SameWireStreamScanner, type EventVerdict, type ScannedEventSink } from "../shared/same-wire-scanner.js";
import {
  bytesAsText,
  forEachEventIn,
  parseEventJson,
  type AnswerIdentity,
  type DeliveredAnswer,
  type StreamScanEnd,
} from "../shared/sse-bytes.js";

export interface OpenAiChatScannerOptions {
  /** `provider/model` shown in every chunk (R-ST-3). */
  shownModel: string;
  /** The reads are assembled into one answer renamed once (R-ST-6): the events keep the upstream model. */
  keepUpstreamModel?: boolean;
  /** The client asked for `stream_options.include_usage` itself: its usage chunk is forwarded. */
  forwardUsageChunk: boolean;
  /** Gets each kept event's JSON (an assembler, R-ST-6). */
  onEvent?: ScannedEventSink;
  /** The reads are only assembled (R-ST-6): `push` forwards no bytes, the events go to `onEvent`. */
  assembleOnly?: boolean;
}

export const OPENAI_DONE_BYTES = Buffer.from("data: [DONE]\n\n");

const DONE = "[DONE]";

interface OpenAiChunk {
  id?: unknown;
  created?: unknown;
  system_fingerprint?: unknown;
  model?: unknown;
  error?: unknown;
  usage?: unknown;
  choices?: {
    delta?: { content?: unknown; tool_calls?: unknown; reasoning_content?: unknown; reasoning?: unknown };
    finish_reason?: unknown;
  }[];
}

/**
 * The keys an event's decision hangs on, found in one pass: one regular expression over the event finds all
 * three at about a third of the cost of three string searches (and a sixth of three Buffer searches). It is
 * run with `test`, which allocates no match array: the key is told from the end of the match.
 */
const DECISION_KEYS = /"(?:error|finish_reason|usage)"\s*:\s*/g;

/**
 * Where the values of an event's first unescaped `"error"` (not null), `"finish_reason"` (a string) and
 * `"usage"` (an object) keys start, or -1. A find only says the event is worth parsing: what counts is read
 * from the parsed chunk's own fields.
 */
class DecisionKeys {
  errorAt = -1;
  finishAt = -1;
  usageAt = -1;

  /** Finds them in `event[from, to)`. */
  find(event: string, from: number, to: number): void {
    this.errorAt = -1;
    this.finishAt = -1;
    this.usageAt = -1;
    DECISION_KEYS.lastIndex = from;
    while (DECISION_KEYS.test(event)) {
      const valueAt = DECISION_KEYS.lastIndex;
      // Back over `\s*:\s*` to the key's closing quote; its last letter names it (errorR, finish_reasoN, usagE).
      let close = valueAt - 1;
      while (event.charCodeAt(close) !== 0x22) close -= 1;
      const last = event.charCodeAt(close - 1);
      const open = close - (last === 0x6e ? 13 : 5) - 1;
      if (open >= to) break;
      // Inside a JSON string the quote would be escaped: `\"error\"` is text, not a key.
      if (event.charCodeAt(open - 1) === 0x5c) continue;
      // Only a value that can be the decision counts (an error that is not null, a finish that is a string, a
      // usage that is an object): a same-named key nested elsewhere (a tool's `"usage": 1`) must not hide it.
      const value = event.charCodeAt(valueAt);
      if (last === 0x72) {
        if (this.errorAt === -1 && value !== 0x6e) this.errorAt = valueAt;
      } else if (last === 0x6e) {
        if (this.finishAt === -1 && value === 0x22) this.finishAt = valueAt;
      } else if (this.usageAt === -1 && value === 0x7b) {
        this.usageAt = valueAt;
      }
    }
    DECISION_KEYS.lastIndex = 0;
  }
}

function nonEmptyString(value: unknown): boolean {
  return typeof value === "string" && value !== "";
}

export class OpenAiChatStreamScanner extends SameWireStreamScanner {
  readonly #forwardUsageChunk: boolean;
  #done = false;
  readonly #keys = new DecisionKeys();
  /**
   * The current event's JSON: where it lies in the read (scanEvent sets it), and its text and parse, each made
   * at most once per event and only when a decision needs it.
   */
  #eventBytes: Buffer = Buffer.alloc(0);
  #jsonFrom = 0;
  #jsonTo = 0;
  #json: string | undefined;
  #parsed = false;

  constructor(options: OpenAiChatScannerOptions) {
    super(options.shownModel, options.keepUpstreamModel !== true, options.onEvent, options.assembleOnly !== true);
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
    const text = bytesAsText(bytes);
    forEachEventIn(text, bytes.length, (start, end) => {
      const event = text.slice(start, end);
      const from = dataPayloadStart(event);
      if (from === -1) return;
      const chunk = parseEventJson(bytes.toString("utf8", start + from, start + dataPayloadEnd(event, from))) as OpenAiChunk | undefined;
      if (chunk && answer.identity === undefined && typeof chunk.id === "string") answer.identity = identityOf(chunk);
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

  protected scanEvent(bytes: Buffer, start: number, end: number, text: string): EventVerdict {
    // The event alone (a view of the read's text), so no search runs on into the events after it.
    const event = text.slice(start, end);
    const from = dataPayloadStart(event);
    // Comments and events without data (keep-alives) pass as they are.
    if (from === -1) return "keep";
    const to = dataPayloadEnd(event, from);
    if (to - from === DONE.length && event.startsWith(DONE, from)) {
      this.#done = true;
      this.isComplete = true;
      return "keep";
    }
    if (event.charCodeAt(from) !== 0x7b || event.charCodeAt(to - 1) !== 0x7d) {
      this.malformedCount += 1;
      return "drop";
    }
    this.#eventBytes = bytes;
    this.#jsonFrom = start + from;
    this.#jsonTo = start + to;
    this.#json = undefined;
    this.#parsed = false;
    const keys = this.#keys;
    keys.find(event, from, to);
    if (keys.errorAt !== -1) {
      const error = this.#chunk()?.error;
      if (error !== undefined && error !== null) {
        this.failure = error;
        return "fail";
      }
    }
    if (!this.hasCommitted || !this.modelSwapKnown) {
      const parsed = this.#chunk();
      if (parsed === undefined) {
        this.malformedCount += 1;
        return "drop";
      }
      if (!this.modelSwapKnown) this.learnModelSwap(this.#jsonText());
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
    if (keys.finishAt !== -1) {
      const reason = this.#chunk()?.choices?.find((choice) => typeof choice.finish_reason === "string")?.finish_reason;
      if (typeof reason === "string") {
        this.finish = reason;
        // An empty completion is still an answer (R-ST-1).
        this.hasCommitted = true;
      }
    }
    let verdict: EventVerdict = "keep";
    if (keys.usageAt !== -1) {
      const parsed = this.#chunk();
      if (parsed?.usage !== undefined && parsed.usage !== null) {
        this.usageSeen = parsed.usage;
        const usageOnly = !Array.isArray(parsed.choices) || parsed.choices.length === 0;
        if (usageOnly && !this.#forwardUsageChunk) verdict = "drop";
      }
    }
    if (this.finish !== undefined && this.usageSeen !== undefined) this.isComplete = true;
    return verdict;
  }

  /** The current event's JSON as text, decoded once. */
  #jsonText(): string {
    return (this.#json ??= this.#eventBytes.toString("utf8", this.#jsonFrom, this.#jsonTo));
  }

  /** The current event's JSON parsed once (undefined when it is not JSON), kept for the event sink too. */
  #chunk(): OpenAiChunk | undefined {
    if (!this.#parsed) {
      this.#parsed = true;
      this.parsedEvent = parseEventJson(this.#jsonText());
    }
    return this.parsedEvent as OpenAiChunk | undefined;
  }
}

/** The answer's id, creation time and fingerprint as a chunk names them (R-GW-10: continuations keep them). */
function identityOf(chunk: OpenAiChunk): AnswerIdentity {
  return {
    id: chunk.id as string,
    ...(typeof chunk.created === "number" ? { createdSeconds: chunk.created } : {}),
    ...(typeof chunk.system_fingerprint === "string" ? { fingerprint: chunk.system_fingerprint } : {}),
  };
}

/** Where the payload of the event's single `data:` line starts in the event's text, or -1. */
function dataPayloadStart(event: string): number {
  let at = event.indexOf("data:");
  if (at === -1) return -1;
  // `data:` must start a line.
  if (at !== 0 && event.charCodeAt(at - 1) !== 0x0a) return -1;
  at += 5;
  if (event.charCodeAt(at) === 0x20) at += 1;
  return at;
}

/** Where the `data:` payload that starts at `from` ends (its line's end, without a CR). */
function dataPayloadEnd(event: string, from: number): number {
  let lineEnd = event.indexOf("\n", from);
  if (lineEnd === -1) lineEnd = event.length;
  if (event.charCodeAt(lineEnd - 1) === 0x0d) lineEnd -= 1;
  return lineEnd;
}
