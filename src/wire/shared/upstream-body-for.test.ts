/**
 * The upstream body of a large client body: the same bytes as the small-body form, but as views of
 * the client's own bytes around the edits, so a 1 MB request does not get a second 1 MB copy.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import type { UpstreamBody } from "./body-bytes.js";
import { upstreamBodyFor, VIEWS_FROM_BYTES } from "./lane-body.js";
import { scanChatBody } from "./scan-chat-body.js";

/** What goes on the wire, joined. */
function upstreamBodyBytes(body: UpstreamBody): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.concat(body.chunks as Buffer[], body.byteLength);
}

function scanned(text: string) {
  const result = scanChatBody(Buffer.from(text));
  if (!result.ok) throw new Error(result.problem);
  return result.body;
}

/** The edited bytes as the small-body form builds them: one joined copy. */
function expectedBytes(text: string, model: string, ensureUsage: boolean, forceStream: boolean): string {
  // A small body with the same head is edited the same way; its tail is the large body's tail.
  const tail = text.slice(text.indexOf('"messages"'));
  const small = text.slice(0, text.indexOf('"messages"')) + '"messages":[]}';
  const edited = (upstreamBodyFor(scanned(small), model, ensureUsage, forceStream) as Buffer).toString();
  return edited.slice(0, edited.indexOf('"messages"')) + tail;
}

const longContent = (length: number) =>
  'a \\"b\\" é '
    .repeat(Math.ceil(length / 10))
    .slice(0, length)
    .replace(/\\$/, "");

describe("upstreamBodyFor on a large body (views, not a copy)", () => {
  it("R-GW-6: from VIEWS_FROM_BYTES on, the rest of the client's bytes goes out as a view of them, behind one joined head", () => {
    const text = `{"model":"openai/x","stream":false,"messages":[{"role":"user","content":"${longContent(VIEWS_FROM_BYTES)}"}]}`;
    const body = scanned(text);
    const upstream = upstreamBodyFor(body, "x", true, true);
    if (Buffer.isBuffer(upstream)) throw new Error("a large body is sent as views");
    expect(upstream.chunks).toHaveLength(2);
    const [head, rest] = upstream.chunks as [Buffer, Buffer];
    // No copy of the rest: the view shares the client's memory.
    expect(rest.buffer).toBe(body.bytes.chunks[0]?.buffer);
    expect(head.length).toBeLessThan(100);
    expect(upstream.byteLength).toBe(head.length + rest.length);
    expect(upstreamBodyBytes(upstream).toString()).toBe(expectedBytes(text, "x", true, true));
    expect(JSON.parse(upstreamBodyBytes(upstream).toString())).toMatchObject({
      model: "x",
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("R-GW-6: below VIEWS_FROM_BYTES the body stays one Buffer (written in one go)", () => {
    const text = `{"model":"openai/x","messages":[{"role":"user","content":"${longContent(VIEWS_FROM_BYTES / 2)}"}]}`;
    expect(Buffer.isBuffer(upstreamBodyFor(scanned(text), "x", false))).toBe(true);
  });

  it("R-GW-6: edits far apart (stream_options at the end) keep a view between them", () => {
    const text = `{"model":"openai/x","messages":[{"role":"user","content":"${longContent(VIEWS_FROM_BYTES)}"}],"stream":true,"stream_options":{"other":1}}`;
    const upstream = upstreamBodyFor(scanned(text), "y", true);
    if (Buffer.isBuffer(upstream)) throw new Error("a large body is sent as views");
    expect(upstream.chunks.length).toBe(3);
    const sent = upstreamBodyBytes(upstream).toString();
    expect(sent).toBe(text.replace('"openai/x"', '"y"').replace('{"other":1}', '{"other":1,"include_usage":true}'));
  });

  test.prop([
    fc.constantFrom(VIEWS_FROM_BYTES - 100, VIEWS_FROM_BYTES + 10, 3 * VIEWS_FROM_BYTES),
    fc.boolean(),
    fc.boolean(),
    fc.constantFrom("x", 'gpt-"quoted"', "é"),
    fc.constantFrom("", '"stream":false,', '"stream":true,', '"stream_options":null,'),
  ])(
    "R-GW-6, R-ST-6: views or not, the bytes are the client's with only the lane's edits",
    (length, ensureUsage, forceStream, model, extra) => {
      const text = `{"model":"openai/x",${extra}"messages":[{"role":"user","content":"${longContent(length)}"}]}`;
      const sent = upstreamBodyBytes(upstreamBodyFor(scanned(text), model, ensureUsage, forceStream)).toString();
      expect(sent).toBe(expectedBytes(text, model, ensureUsage, forceStream));
      const json = JSON.parse(sent) as Record<string, unknown>;
      expect(json.model).toBe(model);
      if (forceStream) expect(json.stream).toBe(true);
    },
  );
});
