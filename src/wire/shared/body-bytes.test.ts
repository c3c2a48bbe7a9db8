/**
 * BodyBytes: a body kept as the chunks it arrived in reads exactly like the joined bytes, wherever the
 * chunk boundaries fall — inside a UTF-8 character, an escape, a key the scan looks for.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { BodyBytes } from "./body-bytes.js";
import { lastMessageOf, scanChatBody, streamOptionsOf } from "./scan-chat-body.js";

/** `bytes` cut at the given offsets (sorted, deduplicated, clamped). */
function cut(bytes: Buffer, offsets: number[]): BodyBytes {
  const points = [...new Set(offsets.map((offset) => Math.min(offset, bytes.length)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  // Own copies, as the socket's reads are: nothing shares the joined buffer.
  for (const point of [...points, bytes.length]) {
    chunks.push(Buffer.from(bytes.subarray(from, point)));
    from = point;
  }
  return new BodyBytes(chunks, bytes.length);
}

function expectOk(result: ReturnType<typeof scanChatBody>) {
  if (!result.ok) throw new Error(result.problem);
  return result.body;
}

const text = fc.string({ unit: fc.constantFrom("a", "/", '"', "\\", "é", "中", "😀", "image", "\n"), maxLength: 60 });
const cutPoints = (length: number) => fc.array(fc.nat({ max: length }), { maxLength: 8 });

describe("BodyBytes (a body as its chunks)", () => {
  test.prop([
    text
      .chain((value) => fc.tuple(fc.constant(Buffer.from(value)), cutPoints(Buffer.byteLength(value)), fc.nat(), fc.nat()))
      .map(([bytes, points, a, b]) => ({ bytes, points, a, b })),
  ])("R-GW-6: views, slices, text, searches equal those of the joined bytes", ({ bytes, points, a, b }) => {
    const body = cut(bytes, points);
    const start = bytes.length === 0 ? 0 : a % (bytes.length + 1);
    const end = start + (bytes.length === 0 ? 0 : b % (bytes.length - start + 1));
    expect(Buffer.concat(body.views(start, end)).equals(bytes.subarray(start, end))).toBe(true);
    expect(body.slice(start, end).equals(bytes.subarray(start, end))).toBe(true);
    expect(body.utf8()).toBe(bytes.toString("utf8"));
    expect(body.utf8(start, end)).toBe(Buffer.from(bytes.subarray(start, end)).toString("utf8"));
    expect(body.indexOf(0x2f, start)).toBe(bytes.indexOf(0x2f, start));
    expect(body.includes("image")).toBe(bytes.includes("image"));
    expect(body.includes('"/')).toBe(bytes.includes('"/'));
    expect(body.withContiguous((joined) => joined.equals(bytes))).toBe(true);
  });

  test.prop([
    fc
      .record({
        model: fc.string(),
        stream: fc.oneof(fc.boolean(), fc.constant(null)),
        stream_options: fc.option(fc.dictionary(fc.string(), fc.jsonValue()), { nil: undefined }),
        messages: fc.array(
          fc.record({
            role: fc.constantFrom("user", "assistant"),
            content: fc.string({ unit: fc.constantFrom("a", '"', "\\", "é", "😀", "/") }),
          }),
        ),
        extra: fc.jsonValue(),
      })
      .chain((value) => {
        const bytes = Buffer.from(JSON.stringify(value));
        return fc.tuple(fc.constant(bytes), cutPoints(bytes.length));
      }),
  ])("R-GW-6: the scan of the chunks finds what the scan of the joined bytes finds", ([bytes, points]) => {
    const { bytes: _joinedBytes, ...joined } = expectOk(scanChatBody(bytes));
    const chunked = expectOk(scanChatBody(cut(bytes, points)));
    const { bytes: chunkedBytes, ...found } = chunked;
    expect(found).toEqual(joined);
    expect(chunkedBytes.length).toBe(bytes.length);
    expect(lastMessageOf(chunked)).toEqual((JSON.parse(bytes.toString()) as { messages: unknown[] }).messages.at(-1));
    expect(streamOptionsOf(chunked)).toEqual((JSON.parse(bytes.toString()) as { stream_options?: unknown }).stream_options);
  });

  it('R-FB-8: a word split across three chunks is still found (a missed "image" would skip the exact facts)', () => {
    const body = new BodyBytes([Buffer.from("xxim"), Buffer.from("a"), Buffer.from("gexx")], 9);
    expect(body.includes("image")).toBe(true);
    expect(
      new BodyBytes([Buffer.from("i"), Buffer.from("m"), Buffer.from("a"), Buffer.from("g"), Buffer.from("e")], 5).includes("image"),
    ).toBe(true);
    expect(new BodyBytes([Buffer.from("xxim"), Buffer.from("a"), Buffer.from("g")], 6).includes("image")).toBe(false);
  });

  it("R-GW-6: the scratch copy is reused, and the scan keeps nothing of it", () => {
    const first = cut(Buffer.from('{"model":"a","messages":[{"role":"user","content":"first"}],"stream_options":{"x":1}}'), [5, 30]);
    const second = cut(Buffer.from('{"model":"b","messages":[{"role":"user","content":"other text"}],"stream_options":{"y":22}}'), [7, 40]);
    const scannedFirst = scanChatBody(first);
    const seen: Buffer[] = [];
    first.withContiguous((bytes) => seen.push(bytes));
    second.withContiguous((bytes) => seen.push(bytes));
    expect(seen[0]?.buffer).toBe(seen[1]?.buffer);
    // The second body overwrote the scratch: what the first scan found still reads the first body's chunks.
    if (!scannedFirst.ok) throw new Error(scannedFirst.problem);
    expect(scannedFirst.body.model?.value).toBe("a");
    expect(lastMessageOf(scannedFirst.body)).toEqual({ role: "user", content: "first" });
    expect(streamOptionsOf(scannedFirst.body)).toEqual({ x: 1 });
  });
});
