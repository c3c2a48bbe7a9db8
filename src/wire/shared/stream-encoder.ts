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
