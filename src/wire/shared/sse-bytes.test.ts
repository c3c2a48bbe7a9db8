import { describe, expect, it } from "vitest";
import { bytesAsText, completeEventsEnd, forEachEvent, forEachEventIn } from "./sse-bytes.js";

describe("SSE framing on a read's text (one character per byte)", () => {
  const read = Buffer.from('data: {"t":"é"}\n\nevent: x\r\ndata: 2\r\n\r\ndata: cut');

  it("finds each complete event with byte offsets, LF and CRLF alike, and leaves a cut event for the next read", () => {
    const end = completeEventsEnd(read);
    const events: string[] = [];
    forEachEventIn(bytesAsText(read), end, (start, eventEnd) => events.push(read.toString("utf8", start, eventEnd)));
    expect(events).toEqual(['data: {"t":"é"}\n\n', "event: x\r\ndata: 2\r\n\r\n"]);
    expect(read.toString("utf8", end)).toBe("data: cut");
  });

  it("walks bytes and their text the same way", () => {
    const fromBytes: [number, number][] = [];
    const fromText: [number, number][] = [];
    forEachEvent(read, completeEventsEnd(read), (start, end) => fromBytes.push([start, end]));
    forEachEventIn(bytesAsText(read), completeEventsEnd(read), (start, end) => fromText.push([start, end]));
    expect(fromBytes).toEqual(fromText);
    expect(fromBytes).toHaveLength(2);
  });
});
