import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { bytesAsText, completeEventsEnd, forEachEvent, forEachEventIn, replaceAllInText } from "./sse-bytes.js";

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

describe("replaceAllInText (the model swap of a read, R-ST-3)", () => {
  test.prop([
    fc
      .array(fc.constantFrom('"model":"gpt-x"', "gpt-x", "data: ", "é", "\n\n", "x", '"'), { maxLength: 16 })
      .map((parts) => Buffer.from(parts.join(""))),
    fc.constantFrom('"model":"gpt-x"', "gpt-x", "x", '"'),
    fc.constantFrom('"model":"openai/gpt-x"', "", "é", "gpt-x"),
    fc.nat(),
  ])(
    "R-ST-3: every whole needle before the end is replaced, exactly as a string replaceAll would",
    (bytes, needle, replacement, endSeed) => {
      const end = bytes.length === 0 ? 0 : endSeed % (bytes.length + 1);
      const latin1 = (buffer: Buffer) => buffer.toString("latin1");
      const expected = Buffer.from(
        latin1(bytes.subarray(0, end)).replaceAll(latin1(Buffer.from(needle)), latin1(Buffer.from(replacement))),
        "latin1",
      );
      const result = replaceAllInText(bytes, bytesAsText(bytes), end, bytesAsText(Buffer.from(needle)), Buffer.from(replacement));
      expect(result.equals(expected)).toBe(true);
    },
  );
});
