/**
 * The seam of a continued stream (SPEC R-ST-4): the client already holds `delivered`; a continuation may
 * restart the answer from its beginning, repeat the last words, or go straight on. `SeamTrimmer` holds the
 * continuation's first text back until it can tell which, then lets through only the part not yet delivered.
 * Pure: strings in, strings out.
 */

/** A repeat shorter than this many non-space characters is taken as new text, not an overlap. */
export const MIN_OVERLAP_CHARACTERS = 3;

function isSpace(character: string | undefined): boolean {
  return character !== undefined && /\s/.test(character);
}

function nonSpaceLength(text: string): number {
  return text.replace(/\s+/g, "").length;
}

/**
 * Characters at the start of `continuation` already delivered, once `continuation` holds enough text to tell;
 * `undefined` while a longer continuation could still change the answer (hold the text back).
 * `ended` says no more continuation text will come.
 */
export function seamOverlap(delivered: string, continuation: string, ended = false): number | undefined {
  if (delivered === "") return 0;
  // A restart: the continuation repeats the delivered text from its beginning.
  if (continuation.startsWith(delivered)) return delivered.length;
  if (delivered.startsWith(continuation)) return ended ? continuation.length : undefined;
  // A longer repeat of the last words may still come while the continuation is a piece of the delivered text.
  if (!ended && couldGrowIntoSuffix(delivered, continuation)) return undefined;
  const repeated = longestRepeatedTail(delivered, continuation);
  if (repeated > 0) return repeated;
  // Straight on: whitespace both sides of the seam would double (a prefill cannot end in whitespace).
  if (isSpace(delivered[delivered.length - 1])) {
    let skip = 0;
    while (skip < continuation.length && isSpace(continuation[skip])) skip += 1;
    if (skip === continuation.length && !ended) return undefined;
    return skip;
  }
  return 0;
}

/** `continuation` occurs inside `delivered` where a longer continuation could end exactly at its end. */
function couldGrowIntoSuffix(delivered: string, continuation: string): boolean {
  for (let at = delivered.indexOf(continuation, 1); at !== -1; at = delivered.indexOf(continuation, at + 1)) {
    if (at + continuation.length < delivered.length && startsAtWord(delivered, at)) return true;
  }
  return false;
}

function startsAtWord(text: string, at: number): boolean {
  return at === 0 || isSpace(text[at - 1]) || isSpace(text[at]);
}

/** The longest start of `continuation` that ends `delivered`, begins at a word and is long enough. */
function longestRepeatedTail(delivered: string, continuation: string): number {
  const max = Math.min(delivered.length, continuation.length);
  for (let length = max; length > 0; length -= 1) {
    const tail = continuation.slice(0, length);
    if (!delivered.endsWith(tail)) continue;
    if (!startsAtWord(delivered, delivered.length - length)) continue;
    if (nonSpaceLength(tail) < MIN_OVERLAP_CHARACTERS) return 0;
    return length;
  }
  return 0;
}

/**
 * Streams a continuation's text past the seam: `push` returns the text to send now (possibly empty while
 * the seam is undecided), `end` whatever was held when the continuation ends.
 */
export class SeamTrimmer {
  readonly #delivered: string;
  #held = "";
  #decided = false;

  constructor(delivered: string) {
    this.#delivered = delivered;
    this.#decided = delivered === "";
  }

  get decided(): boolean {
    return this.#decided;
  }

  push(text: string): string {
    if (this.#decided) return text;
    this.#held += text;
    const overlap = seamOverlap(this.#delivered, this.#held);
    if (overlap === undefined) return "";
    return this.#release(overlap);
  }

  end(): string {
    if (this.#decided) return "";
    return this.#release(seamOverlap(this.#delivered, this.#held, true) ?? 0);
  }

  #release(overlap: number): string {
    this.#decided = true;
    const rest = this.#held.slice(overlap);
    this.#held = "";
    return rest;
  }
}
