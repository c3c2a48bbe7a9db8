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
 * event, first one included. Returning the replay returns the source (the upstream call stops). The replay
 * is a plain iterator over the source, not a generator: every event of the stream passes through it.
 */
export async function takeDroppedHints(
  events: AsyncIterable<CanonicalStreamEvent>,
): Promise<{ dropped: readonly string[] | undefined; events: AsyncIterable<CanonicalStreamEvent> }> {
  const iterator = events[Symbol.asyncIterator]();
  let first: Promise<IteratorResult<CanonicalStreamEvent>> | undefined;
  let dropped: readonly string[] | undefined;
  try {
    const step = await iterator.next();
    if (!step.done && step.value.type === "message-start") dropped = step.value.dropped;
    first = Promise.resolve(step);
  } catch (error) {
    first = Promise.reject(error);
    // Read only when the replay is: an unread failure is not an unhandled rejection.
    first.catch(() => {});
  }
  let done = false;
  const replay: AsyncIterableIterator<CanonicalStreamEvent> = {
    next() {
      const held = first;
      if (held) {
        first = undefined;
        return held;
      }
      return done ? Promise.resolve({ done: true, value: undefined }) : iterator.next();
    },
    async return(value?: unknown) {
      first = undefined;
      done = true;
      await iterator.return?.();
      return { done: true, value };
    },
    [Symbol.asyncIterator]() {
      return replay;
    },
  };
  return { dropped, events: replay };
}
