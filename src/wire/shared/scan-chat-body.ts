/**
 * The targeted read of the same-wire lane (SPEC R-GW-6): one pass over the request bytes that checks the
 * JSON is well formed and records only what routing needs — the top-level `model`, `stream` and
 * `stream_options` values with their byte spans, `max_tokens`, the size of `messages` and `tools` (the
 * pre-call fit's bound, R-FB-8), and the span of the last `messages` element (for slash commands) — without
 * building the document. Strings are skipped with `Buffer.indexOf` of the quote byte, so a long conversation
 * costs one native search per quote in its text; a full `JSON.parse` of a 1 MB body (with its UTF-8 decode)
 * costs several times a plain proxy's whole request.
 */
import { BodyBytes } from "./body-bytes.js";

export interface ValueSpan {
  /** Byte offset of the value's first byte. */
  start: number;
  /** Byte offset just past the value. */
  end: number;
}

export interface ScannedChatBody {
  /** The scanned bytes, as they arrived (a large request body is never joined: body-bytes.ts). */
  bytes: BodyBytes;
  /** Byte offset of the top-level object's `{`. */
  objectStart: number;
  model?: ValueSpan & { value: unknown };
  stream?: ValueSpan & { value: unknown };
  streamOptions?: ValueSpan;
  maxTokens?: ValueSpan & { value: unknown };
  /** OpenAI's newer name for `max_tokens` (it wins when both are set). */
  maxCompletionTokens?: ValueSpan & { value: unknown };
  /** The top-level `tools` array and its element count. */
  tools?: ValueSpan & { count: number };
  /** Some top-level key is spelled with an escape: the scan cannot vouch for the fields it looks for. */
  escapedKey: boolean;
  /** An answer's top-level `usage` (the same scan reads the provider's non-streamed answers, R-GW-7). */
  usage?: ValueSpan;
  messages?: ValueSpan & { count: number; last?: ValueSpan; roles: unknown[] };
}

export type ScanResult = { ok: true; body: ScannedChatBody } | { ok: false; problem: string };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
/** Far beyond any chat body; a hostile body cannot exhaust the stack. */
const MAX_DEPTH = 256;

class ScanError extends Error {}

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function isNumberByte(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || byte === 0x2d || byte === 0x2b || byte === 0x2e || byte === 0x65 || byte === 0x45;
}

class Scanner {
  pos = 0;
  constructor(readonly bytes: Buffer) {}

  fail(what: string): never {
    throw new ScanError(`${what} at byte ${this.pos}`);
  }

  skipWhitespace(): void {
    const bytes = this.bytes;
    while (this.pos < bytes.length && isWhitespace(bytes[this.pos] as number)) this.pos += 1;
  }

  /**
   * `pos` is on the opening quote; returns the offset just past the closing quote. One native search per quote
   * byte: a quote right after a non-backslash byte (the common case) ends the string at once; after a run of
   * backslashes it ends it only when the run is even (`\\"` ends, `\\\"` does not).
   */
  skipString(): number {
    const bytes = this.bytes;
    const open = this.pos;
    let quote = bytes.indexOf(QUOTE, open + 1);
    while (quote !== -1 && bytes[quote - 1] === BACKSLASH) {
      let before = quote - 2;
      while (before > open && bytes[before] === BACKSLASH) before -= 1;
      // quote - 1 - before backslashes precede the quote; an even count escapes only themselves.
      if ((quote - 1 - before) % 2 === 0) break;
      quote = bytes.indexOf(QUOTE, quote + 1);
    }
    if (quote === -1) this.fail("unterminated string");
    this.pos = quote + 1;
    return this.pos;
  }

  skipLiteral(text: string): void {
    for (let index = 0; index < text.length; index += 1) {
      if (this.bytes[this.pos + index] !== text.charCodeAt(index)) this.fail("unexpected token");
    }
    this.pos += text.length;
  }

  skipNumber(): void {
    const start = this.pos;
    while (this.pos < this.bytes.length && isNumberByte(this.bytes[this.pos] as number)) this.pos += 1;
    // The set of bytes is loose; the exact grammar is checked on the (tiny) token itself.
    if (!/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(this.bytes.toString("latin1", start, this.pos))) {
      this.pos = start;
      this.fail("invalid number");
    }
  }

  /** Skips one value at `pos` (whitespace already skipped). */
  skipValue(depth: number): void {
    const byte = this.bytes[this.pos];
    switch (byte) {
      case QUOTE:
        this.skipString();
        return;
      case OPEN_OBJECT:
        this.skipObject(depth + 1);
        return;
      case OPEN_ARRAY:
        this.skipArray(depth + 1, undefined);
        return;
      case 0x74:
        this.skipLiteral("true");
        return;
      case 0x66:
        this.skipLiteral("false");
        return;
      case 0x6e:
        this.skipLiteral("null");
        return;
      default:
        if (byte === undefined) this.fail("unexpected end of body");
        this.skipNumber();
    }
  }

  skipObject(depth: number, onMember?: (keyStart: number, keyEnd: number) => void): void {
    if (depth > MAX_DEPTH) this.fail("nesting too deep");
    this.pos += 1;
    this.skipWhitespace();
    if (this.bytes[this.pos] === CLOSE_OBJECT) {
      this.pos += 1;
      return;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.bytes[this.pos] !== QUOTE) this.fail("expected a property name");
      const keyStart = this.pos;
      const keyEnd = this.skipString();
      this.skipWhitespace();
      if (this.bytes[this.pos] !== COLON) this.fail("expected ':'");
      this.pos += 1;
      this.skipWhitespace();
      if (onMember) onMember(keyStart, keyEnd);
      else this.skipValue(depth);
      this.skipWhitespace();
      const next = this.bytes[this.pos];
      this.pos += 1;
      if (next === CLOSE_OBJECT) return;
      if (next !== COMMA) {
        this.pos -= 1;
        this.fail("expected ',' or '}'");
      }
    }
  }

  /** Returns the element count; `onElement` sees each element's span; `scanElement` replaces the skip. */
  skipArray(depth: number, onElement: ((span: ValueSpan) => void) | undefined, scanElement?: (depth: number) => void): number {
    if (depth > MAX_DEPTH) this.fail("nesting too deep");
    this.pos += 1;
    this.skipWhitespace();
    if (this.bytes[this.pos] === CLOSE_ARRAY) {
      this.pos += 1;
      return 0;
    }
    let count = 0;
    for (;;) {
      this.skipWhitespace();
      const start = this.pos;
      if (scanElement) scanElement(depth);
      else this.skipValue(depth);
      count += 1;
      onElement?.({ start, end: this.pos });
      this.skipWhitespace();
      const next = this.bytes[this.pos];
      this.pos += 1;
      if (next === CLOSE_ARRAY) return count;
      if (next !== COMMA) {
        this.pos -= 1;
        this.fail("expected ',' or ']'");
      }
    }
  }
}

function hasBackslash(bytes: Buffer, start: number, end: number): boolean {
  for (let index = start + 1; index < end - 1; index += 1) if (bytes[index] === BACKSLASH) return true;
  return false;
}

function parseSmall(bytes: Buffer, span: ValueSpan): unknown {
  return JSON.parse(bytes.toString("utf8", span.start, span.end));
}

function parseSpan(bytes: BodyBytes, span: ValueSpan): unknown {
  return JSON.parse(bytes.utf8(span.start, span.end));
}

/**
 * Scans a chat request body (OpenAI chat completions or Anthropic messages), or a provider's answer. Chunks
 * are scanned as one contiguous copy that is not kept: the spans found are offsets into `bytes` as given.
 */
export function scanChatBody(bytes: Buffer | BodyBytes): ScanResult {
  if (Buffer.isBuffer(bytes)) return scanContiguous(bytes, BodyBytes.of(bytes));
  return bytes.withContiguous((contiguous) => scanContiguous(contiguous, bytes));
}

/** The scan proper; nothing it returns refers to `bytes` (values are parsed, spans are offsets). */
function scanContiguous(bytes: Buffer, source: BodyBytes): ScanResult {
  const scanner = new Scanner(bytes);
  const body: ScannedChatBody = { bytes: source, objectStart: 0, escapedKey: false };
  try {
    scanner.skipWhitespace();
    if (scanner.pos >= bytes.length) return { ok: false, problem: "the request body is empty" };
    if (bytes[scanner.pos] !== OPEN_OBJECT) return { ok: false, problem: "the request body must be a JSON object" };
    body.objectStart = scanner.pos;
    scanner.skipObject(1, (keyStart, keyEnd) => {
      // Keys of interest are plain ASCII; an escaped spelling is not one of them, and is flagged (laneShapeOk).
      const key = keyEnd - keyStart <= 24 ? bytes.toString("latin1", keyStart + 1, keyEnd - 1) : "";
      if (!body.escapedKey && hasBackslash(bytes, keyStart, keyEnd)) body.escapedKey = true;
      const start = scanner.pos;
      if (key === "messages" && bytes[start] === OPEN_ARRAY) {
        let last: ValueSpan | undefined;
        const roles: unknown[] = [];
        const count = scanner.skipArray(
          2,
          (span) => {
            last = span;
          },
          (depth) => {
            // Each message's `role` is read (the lane's shape check); everything else is skipped.
            if (bytes[scanner.pos] !== OPEN_OBJECT) {
              roles.push(undefined);
              scanner.skipValue(depth);
              return;
            }
            let role: unknown;
            scanner.skipObject(depth + 1, (roleKeyStart, roleKeyEnd) => {
              const valueStart = scanner.pos;
              scanner.skipValue(depth + 1);
              if (roleKeyEnd - roleKeyStart === 6 && bytes.toString("latin1", roleKeyStart + 1, roleKeyEnd - 1) === "role") {
                role = parseSmall(bytes, { start: valueStart, end: scanner.pos });
              }
            });
            roles.push(role);
          },
        );
        body.messages = { start, end: scanner.pos, count, roles, ...(last ? { last } : {}) };
        return;
      }
      if (key === "tools" && bytes[start] === OPEN_ARRAY) {
        const count = scanner.skipArray(2, undefined);
        body.tools = { start, end: scanner.pos, count };
        return;
      }
      scanner.skipValue(1);
      const span = { start, end: scanner.pos };
      if (key === "model") body.model = { ...span, value: parseSmall(bytes, span) };
      else if (key === "stream") body.stream = { ...span, value: parseSmall(bytes, span) };
      else if (key === "stream_options") body.streamOptions = span;
      else if (key === "max_tokens") body.maxTokens = { ...span, value: parseSmall(bytes, span) };
      else if (key === "max_completion_tokens") body.maxCompletionTokens = { ...span, value: parseSmall(bytes, span) };
      else if (key === "usage") body.usage = span;
    });
    scanner.skipWhitespace();
    if (scanner.pos !== bytes.length) scanner.fail("unexpected data after the JSON object");
  } catch (error) {
    if (error instanceof ScanError || error instanceof SyntaxError) return { ok: false, problem: error.message };
    throw error;
  }
  return { ok: true, body };
}

/** The parsed last element of `messages` (one message, not the conversation). */
export function lastMessageOf(body: ScannedChatBody): unknown {
  const last = body.messages?.last;
  return last ? parseSpan(body.bytes, last) : undefined;
}

/** The top-level `usage` value of an answer, parsed (a few dozen bytes), or undefined. */
export function usageOf(body: ScannedChatBody): unknown {
  return body.usage ? parseSpan(body.bytes, body.usage) : undefined;
}

/** The `stream_options` object as sent, or undefined. */
export function streamOptionsOf(body: ScannedChatBody): unknown {
  return body.streamOptions ? parseSpan(body.bytes, body.streamOptions) : undefined;
}
