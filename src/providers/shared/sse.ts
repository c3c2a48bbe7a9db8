/** Server-sent events framing via eventsource-parser (never hand-written). */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { decodeTextStream } from "./read-body.js";

export type SseEvent = EventSourceMessage;

/**
 * Yields each complete SSE event of a body. An event left unterminated when the body ends is still
 * delivered: some servers close the connection without the final blank line.
 */
export async function* readSseEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const pending: SseEvent[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event) });
  for await (const text of decodeTextStream(body)) {
    parser.feed(text);
    yield* pending.splice(0);
  }
  // A blank line ends any event the server left unterminated (a lone newline would only end the line).
  parser.feed("\n\n");
  yield* pending.splice(0);
}
