import { describe, expect, it } from "vitest";
import type { CanonicalStreamEvent } from "../ports/canonical.js";
import { takeDroppedHints } from "./dropped-hints.js";

const start: CanonicalStreamEvent = { type: "message-start", id: "m1", model: "claude", dropped: ["seed", "user"] };
const text: CanonicalStreamEvent = { type: "text-delta", text: "hi" };
const finish: CanonicalStreamEvent = { type: "finish", reason: "stop", usage: { inputTokens: 1, outputTokens: 1 } };

/** A source that records whether it was returned (the upstream call stopped). */
function source(events: CanonicalStreamEvent[], failAt?: number) {
  const state = { returned: false };
  async function* generate(): AsyncGenerator<CanonicalStreamEvent> {
    try {
      for (const [index, event] of events.entries()) {
        if (index === failAt) throw new Error("cut");
        yield event;
      }
    } finally {
      state.returned = true;
    }
  }
  return { events: generate(), state };
}

describe("takeDroppedHints (R-GW-6: the x-detour-dropped header of a stream)", () => {
  it("R-GW-6: reads the hints off the held message-start and still yields every event, the first included", async () => {
    const { events } = source([start, text, finish]);
    const hinted = await takeDroppedHints(events);
    expect(hinted.dropped).toEqual(["seed", "user"]);
    const seen: CanonicalStreamEvent[] = [];
    for await (const event of hinted.events) seen.push(event);
    expect(seen).toEqual([start, text, finish]);
  });

  it("leaving the replay early returns the source, so the upstream call stops", async () => {
    const { events, state } = source([start, text, finish]);
    const hinted = await takeDroppedHints(events);
    for await (const event of hinted.events) if (event.type === "text-delta") break;
    expect(state.returned).toBe(true);
  });

  it("a failure of the first read surfaces when the replay is read, and a later one where it happens", async () => {
    const first = await takeDroppedHints(source([start], 0).events);
    expect(first.dropped).toBeUndefined();
    await expect(first.events[Symbol.asyncIterator]().next()).rejects.toThrow("cut");
    const later = await takeDroppedHints(source([start, text, finish], 2).events);
    const seen: CanonicalStreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of later.events) seen.push(event);
      })(),
    ).rejects.toThrow("cut");
    expect(seen).toEqual([start, text]);
  });

  it("a stream without a message-start first has no hints", async () => {
    const hinted = await takeDroppedHints(source([text, finish]).events);
    expect(hinted.dropped).toBeUndefined();
    const seen: CanonicalStreamEvent[] = [];
    for await (const event of hinted.events) seen.push(event);
    expect(seen).toEqual([text, finish]);
  });
});
