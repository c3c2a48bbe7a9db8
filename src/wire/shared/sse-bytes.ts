/**
 * SSE framing on bytes, for the stream scanners of the same-wire lane (SPEC R-GW-6): finds where complete
 * events end in an upstream read and where an event's `data:` payload sits, without decoding the read.
 * A read may end inside an event; its tail waits for the next read.
 */

const LF = 0x0a;
const CR = 0x0d;

/** Offset just past the last complete event (`\n\n` or `\r\n\r\n`) in `bytes`, or 0 when there is none. */
export function completeEventsEnd(bytes: Buffer): number {
  return completeEventsEndIn(bytesAsText(bytes));
}

/**
 * Calls `onEvent(start, end)` for each event of `bytes[0, end)` (end is a boundary from completeEventsEnd).
 * For bytes read once (a `delivered()`, a supplied terminal frame); the scanners' per-read walk has the text.
 */
export function forEachEvent(bytes: Buffer, end: number, onEvent: (start: number, end: number) => void): void {
  forEachEventIn(bytesAsText(bytes), end, onEvent);
}

/**
 * A read as text with one character per byte (latin1), so every offset in it is the byte offset in the read.
 * The scanners search this instead of the Buffer: a string `indexOf` stays in JavaScript, where each
 * `Buffer.indexOf` is a call into C++ and a search bounded by a `subarray` a Buffer object too — a dozen of
 * those per read were most of a streamed request's scanning. JSON is still decoded from the bytes as UTF-8.
 */
export function bytesAsText(bytes: Buffer): string {
  return bytes.toString("latin1");
}

/** `completeEventsEnd` on a read's text (bytesAsText). */
export function completeEventsEndIn(text: string): number {
  for (let index = text.lastIndexOf("\n"); index > 0; index = text.lastIndexOf("\n", index - 1)) {
    const before = text.charCodeAt(index - 1);
    if (before === LF) return index + 1;
    if (before === CR && text.charCodeAt(index - 2) === LF) return index + 1;
  }
  return 0;
}

/** `forEachEvent` on a read's text (bytesAsText). */
export function forEachEventIn(text: string, end: number, onEvent: (start: number, end: number) => void): void {
  let start = 0;
  let search = 0;
  while (search < end) {
    const lf = text.indexOf("\n", search);
    if (lf === -1 || lf >= end) return;
    const next = text.charCodeAt(lf + 1);
    let eventEnd = -1;
    if (next === LF) eventEnd = lf + 2;
    else if (next === CR && text.charCodeAt(lf + 2) === LF) eventEnd = lf + 3;
    if (eventEnd === -1) {
      search = lf + 1;
      continue;
    }
    if (eventEnd - start > 2) onEvent(start, eventEnd);
    start = eventEnd;
    search = eventEnd;
  }
}

const FIELD_PREFIX = { data: Buffer.from("data:"), event: Buffer.from("event:") } as const;

/** True when `bytes` holds `prefix` at `at` (compared in place: no string per line). */
function startsWithAt(bytes: Buffer, at: number, prefix: Buffer): boolean {
  if (at + prefix.length > bytes.length) return false;
  for (let index = 0; index < prefix.length; index += 1) if (bytes[at + index] !== prefix[index]) return false;
  return true;
}

/** The value of the event's `field:` line (`data`, `event`) as text; multi-line data is joined with `\n`. */
export function eventField(bytes: Buffer, start: number, end: number, field: "data" | "event"): string | undefined {
  let found: string | undefined;
  let lineStart = start;
  while (lineStart < end) {
    let lineEnd = bytes.indexOf(LF, lineStart);
    if (lineEnd === -1 || lineEnd > end) lineEnd = end;
    const contentEnd = lineEnd > lineStart && bytes[lineEnd - 1] === CR ? lineEnd - 1 : lineEnd;
    if (contentEnd - lineStart > field.length && startsWithAt(bytes, lineStart, FIELD_PREFIX[field])) {
      let valueStart = lineStart + field.length + 1;
      if (bytes[valueStart] === 0x20) valueStart += 1;
      const value = bytes.toString("utf8", valueStart, contentEnd);
      found = found === undefined ? value : `${found}\n${value}`;
    }
    lineStart = lineEnd + 1;
  }
  return found;
}

/** The state every same-wire stream scanner keeps and reports (SPEC R-ST-1…R-ST-3). */
export interface StreamScanStep {
  /** Bytes of complete events to send on, as one write (transformed where the lane must: model, usage). */
  forward: Buffer | undefined;
  /** An in-band error event was seen; `forward` holds only what came before it. */
  failure?: unknown;
}

export interface StreamScanEnd {
  /** The answer had its finish: a missing terminal frame is supplied in `forward`. */
  complete: boolean;
  forward?: Buffer;
}

/** What the scanner saw of the answer so far: what a later continuation needs (the delivered part). */
export interface DeliveredAnswer {
  text: string;
  toolCalls: { index: number; id?: string; name?: string; arguments: string }[];
  /**
   * Anthropic content blocks so far: how many started and the index of the text block still open, so a
   * continuation goes on in the same block (R-ST-4).
   */
  blocks?: { started: number; openText?: number };
  /**
   * Who the answer is, as its first part named it (R-GW-10): a continuation's frames keep the same id, creation
   * time and fingerprint, so the client sees one answer. Absent for a format whose later frames name none.
   */
  identity?: AnswerIdentity;
}

export interface AnswerIdentity {
  id?: string;
  createdSeconds?: number;
  /** OpenAI `system_fingerprint`. */
  fingerprint?: string;
}

export interface RawStreamScanner {
  /** Scans one upstream read. */
  push(chunk: Buffer): StreamScanStep;
  /** The upstream body ended. */
  end(): StreamScanEnd;
  /** First content (text, tool call or reasoning delta) was seen: the commit point (R-ST-1). */
  readonly committed: boolean;
  /** The answer is complete (finish and usage, or the terminal frame): finalise at once (R-ST-2). */
  readonly complete: boolean;
  readonly finishReason: string | undefined;
  /** The wire's usage object as the upstream sent it. */
  readonly usage: unknown;
  /** Events that were not JSON objects: skipped and counted, not forwarded (R-ST-2). */
  readonly malformedChunks: number;
  /** The bytes forwarded so far, decoded on demand. */
  delivered(): DeliveredAnswer;
}

/** Bytes → text for the rare events the scanner must read (a mostly-ASCII JSON line). */
export function parseEventJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Replaces every occurrence of `needle` in `bytes` (returns `bytes` itself when there is none). */
export function replaceAll(bytes: Buffer, needle: Buffer, replacement: Buffer): Buffer {
  return replaceAllInText(bytes, bytesAsText(bytes), bytes.length, bytesAsText(needle), replacement);
}

/**
 * `bytes[0, end)` with every `needleText` (a needle as bytesAsText) replaced, found in the bytes' text: what a
 * scanner does to each read it already holds as text. `bytes` itself (or its view) when there is none.
 */
export function replaceAllInText(bytes: Buffer, text: string, end: number, needleText: string, replacement: Buffer): Buffer {
  const first = text.indexOf(needleText);
  if (first === -1 || first + needleText.length > end) return end === bytes.length ? bytes : bytes.subarray(0, end);
  // Counted first, then copied into one buffer of the final size: a read of a stream carries its `model` on
  // every event, and views of the pieces plus a join cost more than the copy.
  let count = 0;
  for (let at = first; at !== -1 && at + needleText.length <= end; at = text.indexOf(needleText, at + needleText.length)) count += 1;
  const out = Buffer.allocUnsafe(end + count * (replacement.length - needleText.length));
  let written = 0;
  let from = 0;
  for (let at = first; at !== -1 && at + needleText.length <= end; at = text.indexOf(needleText, from)) {
    written += bytes.copy(out, written, from, at);
    written += replacement.copy(out, written);
    from = at + needleText.length;
  }
  bytes.copy(out, written, from, end);
  return out;
}

/** The exact `"model":"…"` bytes of a JSON event and the same with another model, for a byte-level swap. */
export function modelSwap(eventText: string, shownModel: string): { needle: Buffer; replacement: Buffer } | undefined {
  const match = /"model"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(eventText);
  if (!match) return undefined;
  const whole = match[0];
  const head = whole.slice(0, whole.length - (match[1] as string).length - 2);
  const replacementText = `${head}${JSON.stringify(shownModel)}`;
  if (replacementText === whole) return undefined;
  return { needle: Buffer.from(whole), replacement: Buffer.from(replacementText) };
}
