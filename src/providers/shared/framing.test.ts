import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readNdjsonLines } from "./ndjson.js";
import { readBodyText } from "./read-body.js";
import { readSseEvents } from "./sse.js";

/** Splits bytes at the given cut points, the way TCP may deliver them. */
async function* inPieces(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.byteLength + 1)))].sort((a, b) => a - b);
  let start = 0;
  for (const point of [...points, bytes.byteLength]) {
    if (point > start) yield bytes.subarray(start, point);
    start = Math.max(start, point);
  }
}

async function all<T>(source: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) items.push(item);
  return items;
}

const payload = fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }).filter((text) => !/[\r\n]/.test(text));

describe("readSseEvents", () => {
  it("yields the same events however the bytes are split (multi-byte characters included)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(payload, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 12 }), async (datas, cuts) => {
        const text = datas.map((data, index) => `event: e${index}\ndata: ${data}\n\n`).join(": keep-alive comment\n\n");
        const events = await all(readSseEvents(inPieces(new TextEncoder().encode(text), cuts)));
        expect(events.map((event) => [event.event, event.data])).toEqual(datas.map((data, index) => [`e${index}`, data]));
      }),
      { numRuns: 60 },
    );
  });

  it("delivers a last event that lacks its terminating blank line", async () => {
    const events = await all(readSseEvents(inPieces(new TextEncoder().encode('data: {"a":1}\n\ndata: {"b":2}'), [])));
    expect(events.map((event) => event.data)).toEqual(['{"a":1}', '{"b":2}']);
  });

  it("joins multi-line data fields with newlines, as the SSE spec says", async () => {
    const events = await all(readSseEvents(inPieces(new TextEncoder().encode("data: one\ndata: two\n\n"), [])));
    expect(events.map((event) => event.data)).toEqual(["one\ntwo"]);
  });
});

describe("readNdjsonLines", () => {
  it("yields the same lines however the bytes are split, skipping blank lines and CRs", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          payload.map((text) => text.trim()).filter((text) => text !== ""),
          { minLength: 1, maxLength: 6 },
        ),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (lines, cuts) => {
          const text = `${lines.join("\r\n\n")}\n`;
          expect(await all(readNdjsonLines(inPieces(new TextEncoder().encode(text), cuts)))).toEqual(lines);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("readBodyText", () => {
  it("decodes UTF-8 split inside a character", async () => {
    const bytes = new TextEncoder().encode("Köln 👋");
    expect(await readBodyText(inPieces(bytes, [2, 7, 8]))).toBe("Köln 👋");
  });

  it("stops at maxBytes", async () => {
    expect(await readBodyText(inPieces(new TextEncoder().encode("abcdefgh"), [3]), 5)).toBe("abcde");
  });
});
