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

/**
 * The frames an encoder writes once, before anything else (Anthropic's message_start, Responses'
 * response.created): `start()` writes them the first time only. Until then a message-start event may still
 * rename the message; once they are out, the id and model the client saw stay.
 */
export class StreamOpening {
  id: string;
  model: string;
  #started: boolean;
  readonly #frames: (names: { id: string; model: string }) => string[];

  /** `started`: the opening was already sent (a continuation, R-ST-4). */
  constructor(options: { id: string; model: string; started: boolean; frames: (names: { id: string; model: string }) => string[] }) {
    this.id = options.id;
    this.model = options.model;
    this.#started = options.started;
    this.#frames = options.frames;
  }

  start(): string[] {
    if (this.#started) return [];
    this.#started = true;
    return this.#frames({ id: this.id, model: this.model });
  }

  messageStart(event: { id: string; model: string }): string[] {
    if (!this.#started) {
      this.id = event.id;
      this.model = event.model;
    }
    return this.start();
  }
}
