import { PassThrough } from "node:stream";
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { SseWriter } from "./sse-writer.js";

/** A response double: records each write; `full` makes write() report a full buffer until drained. */
function response(full = false) {
  const writes: string[] = [];
  const stream = new PassThrough();
  const raw = Object.assign(stream, {
    writeHead: () => raw,
    write: (chunk: string) => {
      writes.push(chunk);
      return !full;
    },
  });
  return { raw: raw as unknown as ServerResponse, writes, drain: () => stream.emit("drain") };
}

describe("SseWriter.writeFrames", () => {
  it("writes an event's frames as one write and returns no promise while the client keeps up", () => {
    const { raw, writes } = response();
    const writer = new SseWriter(raw);
    expect(writer.writeFrames(["data: a\n\n", "data: b\n\n", "data: [DONE]\n\n"])).toBeUndefined();
    expect(writer.writeFrames([])).toBeUndefined();
    expect(writes).toEqual(["data: a\n\ndata: b\n\ndata: [DONE]\n\n"]);
  });

  it("returns a promise that settles on drain when the client is behind (backpressure)", async () => {
    const { raw, drain } = response(true);
    const behind = new SseWriter(raw).writeFrames(["data: a\n\n"]);
    expect(behind).toBeInstanceOf(Promise);
    let settled = false;
    void behind?.then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    drain();
    await behind;
    expect(settled).toBe(true);
  });

  it("writes nothing to a client that went away", () => {
    const { raw, writes } = response();
    raw.destroy();
    expect(new SseWriter(raw).writeFrames(["data: a\n\n"])).toBeUndefined();
    expect(writes).toEqual([]);
  });
});
