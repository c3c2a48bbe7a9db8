/**
 * The part every same-wire stream scanner shares (SPEC R-GW-6, R-ST-1…R-ST-3): the carry of an event that
 * a read cut in two, the walk over the complete events of a read with one verdict per event, the one
 * forwarded buffer per read, the record of what was forwarded (for `delivered()`, R-ST-4) and the state the
 * lane reads. What an event means stays in each wire's scanner (`scanEvent`).
 *
 * Hot path: one `push` per upstream read, one walk callback per push, no parse here; a read whose events are
 * all kept is forwarded as a view of the read, not a copy.
 */
import {
  bytesAsText,
  completeEventsEndIn,
  eventField,
  forEachEventIn,
  modelSwap,
  parseEventJson,
  replaceAllInText,
  type DeliveredAnswer,
  type RawStreamScanner,
  type StreamScanEnd,
  type StreamScanStep,
} from "./sse-bytes.js";

/**
 * What to do with one complete event: send it on, leave it out, stop before it (an in-band error: nothing
 * from it on is sent), or send these bytes in its place.
 */
export type EventVerdict = "keep" | "drop" | "fail" | Buffer;

/** Each event the scanner keeps, as parsed JSON, in order (R-ST-6: what an assembler builds the answer from). */
export type ScannedEventSink = (event: unknown) => void;

/** The step of a read that forwards nothing (shared: a step is only read). */
const NOTHING_FORWARDED: StreamScanStep = Object.freeze({ forward: undefined });

export abstract class SameWireStreamScanner<Usage = unknown> implements RawStreamScanner {
  /** `provider/model` the client is shown (R-ST-3). */
  protected readonly shownModel: string;
  protected hasCommitted = false;
  protected isComplete = false;
  protected finish: string | undefined;
  protected usageSeen: Usage | undefined;
  protected malformedCount = 0;
  /** The in-band error that stopped the stream; set by `scanEvent` together with a `"fail"` verdict. */
  protected failure: unknown;
  /** The current event's JSON when `scanEvent` parsed it anyway, so the event sink does not parse it again. */
  protected parsedEvent: unknown;
  #carry: Buffer | undefined;
  /** The upstream's `model` bytes as text (bytesAsText) and what replaces them (R-ST-3). */
  #swap: { needleText: string; replacement: Buffer } | undefined;
  #swapKnown = false;
  readonly #forwarded: Buffer[] = [];

  /**
   * `swapModel` false: the events keep the upstream's `model`, because what is read is assembled into one
   * answer that is renamed once (R-ST-6) — a rename per read would be a copy of every read for nothing.
   */
  protected constructor(
    shownModel: string,
    protected readonly swapModel = true,
    private readonly eventSink?: ScannedEventSink,
    /**
     * False when the reads are only assembled (R-ST-6): the events go to the sink, and `push` builds no
     * forwarded bytes nobody would send (nor keeps them for `delivered()`).
     */
    private readonly forwards = true,
  ) {
    this.shownModel = shownModel;
  }

  get committed(): boolean {
    return this.hasCommitted;
  }
  get complete(): boolean {
    return this.isComplete;
  }
  get finishReason(): string | undefined {
    return this.finish;
  }
  get usage(): unknown {
    return this.usageSeen;
  }
  get malformedChunks(): number {
    return this.malformedCount;
  }

  abstract end(): StreamScanEnd;
  abstract delivered(): DeliveredAnswer;

  /**
   * The verdict on `bytes[start, end)`, one complete event; updates the scanner's state on the way. `text` is
   * the read as one character per byte (bytesAsText): the same offsets, for searching.
   */
  protected abstract scanEvent(bytes: Buffer, start: number, end: number, text: string): EventVerdict;

  /** Last edit to a read's forwarded bytes (after the model swap); a wire that adds a frame overrides it. */
  protected finishForward(forward: Buffer): Buffer {
    return forward;
  }

  push(chunk: Buffer): StreamScanStep {
    const bytes = this.#carry ? Buffer.concat([this.#carry, chunk]) : chunk;
    const text = bytesAsText(bytes);
    const end = completeEventsEndIn(text);
    // Copied: a subarray would keep the whole read alive until the next one.
    this.#carry = end < bytes.length ? Buffer.from(bytes.subarray(end)) : undefined;
    if (end === 0 || this.isComplete) return NOTHING_FORWARDED;
    let parts: Buffer[] | undefined;
    let from = 0;
    let stopAt = end;
    forEachEventIn(text, end, (start, eventEnd) => {
      if (stopAt !== end) return;
      // Whatever follows the answer's end in the same read is not part of the answer.
      this.parsedEvent = undefined;
      const verdict = this.isComplete ? "drop" : this.scanEvent(bytes, start, eventEnd, text);
      if (this.eventSink && (verdict === "keep" || typeof verdict === "object")) this.#sink(bytes, start, eventEnd);
      if (verdict === "keep") return;
      if (verdict === "fail") {
        stopAt = start;
        return;
      }
      if (!this.forwards) return;
      (parts ??= []).push(bytes.subarray(from, start));
      if (verdict !== "drop") parts.push(verdict);
      from = eventEnd;
    });
    if (!this.forwards) return this.failure === undefined ? NOTHING_FORWARDED : { forward: undefined, failure: this.failure };
    let forward: Buffer;
    const swap = this.#swap;
    if (parts) {
      if (from < stopAt) parts.push(bytes.subarray(from, stopAt));
      forward = Buffer.concat(parts);
      if (swap) forward = replaceAllInText(forward, bytesAsText(forward), forward.length, swap.needleText, swap.replacement);
    } else {
      // The usual read: its own bytes, searched in its text.
      forward = swap ? replaceAllInText(bytes, text, stopAt, swap.needleText, swap.replacement) : bytes.subarray(0, stopAt);
    }
    forward = this.finishForward(forward);
    const step: StreamScanStep = { forward: forward.length > 0 ? forward : undefined };
    if (step.forward) this.#forwarded.push(step.forward);
    if (this.failure !== undefined) step.failure = this.failure;
    return step;
  }

  /** Hands a kept event's JSON to the sink: the one `scanEvent` parsed, else its `data:` parsed now. */
  #sink(bytes: Buffer, start: number, end: number): void {
    let json = this.parsedEvent;
    if (json === undefined) {
      const data = eventField(bytes, start, end, "data");
      if (data === undefined || data === "[DONE]") return;
      json = parseEventJson(data);
    }
    if (json !== undefined) this.eventSink?.(json);
  }

  /** False until `learnModelSwap` has seen the stream's first JSON event. */
  protected get modelSwapKnown(): boolean {
    return this.#swapKnown;
  }

  /**
   * Learns from the first JSON event how the upstream spells its `model`, so every later read gets the
   * shown model by one byte replace instead of a parse (R-ST-3).
   */
  protected learnModelSwap(eventText: string): void {
    this.#swapKnown = true;
    const swap = this.swapModel ? modelSwap(eventText, this.shownModel) : undefined;
    if (swap) this.#swap = { needleText: bytesAsText(swap.needle), replacement: swap.replacement };
  }

  /**
   * R-ST-2: an upstream that ended after its finish but before its terminal frame gave a complete answer;
   * the frame is supplied (and counts as forwarded, unless the scanner only assembles, and as a kept event
   * for the sink).
   */
  protected endWithTerminalFrame(frame: Buffer): StreamScanEnd {
    if (this.isComplete) return { complete: true };
    if (this.finish !== undefined) {
      this.isComplete = true;
      if (this.forwards) this.#forwarded.push(frame);
      // The supplied frame is an event of the answer like the others (an assembler sees `message_stop`).
      if (this.eventSink) {
        this.parsedEvent = undefined;
        forEachEventIn(bytesAsText(frame), frame.length, (start, end) => this.#sink(frame, start, end));
      }
      return this.forwards ? { complete: true, forward: frame } : { complete: true };
    }
    return { complete: false };
  }

  /** All bytes forwarded so far, as one buffer (for `delivered()`, which is rare). */
  protected forwardedBytes(): Buffer {
    return Buffer.concat(this.#forwarded);
  }
}
