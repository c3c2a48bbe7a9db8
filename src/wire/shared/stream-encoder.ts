/**
 * The contract every canonical → client-wire stream encoder keeps (OpenAI chat, Anthropic Messages,
 * Responses): the gateway route and a continuation (R-ST-4) drive any of them the same way.
 */
import type { CanonicalStreamEvent } from "../../ports/canonical.js";

export interface CanonicalStreamEncoder {
  /** The frames for one canonical event, in order; the route writes them. */
  encode(event: CanonicalStreamEvent): string[];
  /** True once the terminal frames (finish or error) were produced; later events produce nothing (R-ST-2). */
  readonly finished: boolean;
}

/** All frames for a complete event sequence, from one fresh encoder. */
export function encodeWholeStream(encoder: CanonicalStreamEncoder, events: Iterable<CanonicalStreamEvent>): string[] {
  return [...events].flatMap((event) => encoder.encode(event));
}

/**
 * An encoder whose terminal frames (a finish or an error) end it: `encodeLive` sees only the events before that
 * end, and the wire's code marks the end with `ended.finished = true` where it writes the terminal frames.
 */
export function endingEncoder(ended: { finished: boolean }, encodeLive: (event: CanonicalStreamEvent) => string[]): CanonicalStreamEncoder {
  return {
    get finished() {
      return ended.finished;
    },
    encode: (event) => (ended.finished ? [] : encodeLive(event)),
  };
}
