/**
 * R-GW-6 `x-detour-dropped`: the hints of a request the answering wire format could not carry, named in a
 * response header. Providers put the list on the answer (non-streamed) or on the stream's `message-start`
 * event, which a committed stream holds at its head, so reading it costs no wait.
 */
import type { CanonicalStreamEvent } from "../ports/canonical.js";

export const DROPPED_HEADER = "x-detour-dropped";

export function droppedHeader(dropped: readonly string[] | undefined): Record<string, string> {
  return dropped && dropped.length > 0 ? { [DROPPED_HEADER]: dropped.join(", ") } : {};
}

/**
 * Reads the dropped hints off the stream's first event and hands back a stream that still yields every
 * event, first one included. Returning the replay returns the source (the upstream call stops).
 */
export async function takeDroppedHints(
  events: AsyncIterable<CanonicalStreamEvent>,
): Promise<{ dropped: readonly string[] | undefined; events: AsyncIterable<CanonicalStreamEvent> }> {
  const iterator = events[Symbol.asyncIterator]();
  let first: IteratorResult<CanonicalStreamEvent> | undefined;
  let failure: { error: unknown } | undefined;
  try {
    first = await iterator.next();
  } catch (error) {
    failure = { error };
  }
  const dropped = first && !first.done && first.value.type === "message-start" ? first.value.dropped : undefined;
  async function* replay(): AsyncGenerator<CanonicalStreamEvent> {
    if (failure) throw failure.error;
    try {
      if (!first || first.done) return;
      yield first.value;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      await iterator.return?.();
    }
  }
  return { dropped, events: replay() };
}
