import { describe, expect, it } from "vitest";
import { AwsEventStreamDecoder, AwsEventStreamPieces, awsEventMessage, awsExceptionMessage, awsFramePiece } from "./aws-event-stream.js";

/** CRC-32 (IEEE), written here so the frames below are built independently of the library under test. */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** One AWS event-stream message: prelude (total, headers length, CRC), string headers, payload, message CRC. */
function frame(headers: Record<string, string>, payload: string): Uint8Array {
  const headerParts: number[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const nameBytes = Buffer.from(name, "utf8");
    const valueBytes = Buffer.from(value, "utf8");
    headerParts.push(nameBytes.length, ...nameBytes, 7, valueBytes.length >> 8, valueBytes.length & 0xff, ...valueBytes);
  }
  const body = Buffer.from(payload, "utf8");
  const total = 12 + headerParts.length + body.length + 4;
  const out = Buffer.alloc(total);
  out.writeUInt32BE(total, 0);
  out.writeUInt32BE(headerParts.length, 4);
  out.writeUInt32BE(crc32(out.subarray(0, 8)), 8);
  Buffer.from(headerParts).copy(out, 12);
  body.copy(out, 12 + headerParts.length);
  out.writeUInt32BE(crc32(out.subarray(0, total - 4)), total - 4);
  return new Uint8Array(out);
}

const anthropicEvent = { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "héllo" } };
const chunkFrame = frame(
  { ":event-type": "chunk", ":content-type": "application/json", ":message-type": "event" },
  JSON.stringify({ bytes: Buffer.from(JSON.stringify(anthropicEvent)).toString("base64"), p: "abcdef" }),
);
const throttleFrame = frame(
  { ":exception-type": "throttlingException", ":content-type": "application/json", ":message-type": "exception" },
  JSON.stringify({ message: "Too many requests, please wait before trying again." }),
);

describe("Bedrock event-stream decoding", () => {
  it("R-GW-12 a chunk frame becomes the union member the AWS SDKs read, carrying the Anthropic event", () => {
    const frames = new AwsEventStreamDecoder().push(chunkFrame);
    expect(frames).toHaveLength(1);
    const [first] = frames;
    expect(first).toMatchObject({ kind: "event", eventType: "chunk" });
    const piece = JSON.parse(awsFramePiece(first!)) as { chunk: { bytes: string } };
    expect(JSON.parse(Buffer.from(piece.chunk.bytes, "base64").toString("utf8"))).toEqual(anthropicEvent);
  });

  it("R-GW-12 messages the encoder writes are the bytes this test builds by hand, and read back the same", () => {
    const payload = { contentBlockIndex: 0, delta: { text: "hi" } };
    const encoded = awsEventMessage("contentBlockDelta", payload);
    const built = frame(
      { ":event-type": "contentBlockDelta", ":content-type": "application/json", ":message-type": "event" },
      JSON.stringify(payload),
    );
    expect(Buffer.from(encoded).equals(Buffer.from(built))).toBe(true);
    expect(new AwsEventStreamDecoder().push(awsExceptionMessage("throttlingException", "slow down"))).toEqual([
      { kind: "exception", exceptionType: "throttlingException", message: "slow down" },
    ]);
  });

  it("R-GW-12 the framing hands each message on as one piece, and a damaged one as a problem, not a throw", () => {
    const pieces: string[] = [];
    const problems: string[] = [];
    const framing = new AwsEventStreamPieces(
      (piece) => pieces.push(piece),
      (problem) => problems.push(problem),
    );
    const damaged = chunkFrame.slice();
    damaged[damaged.byteLength - 10] = (damaged[damaged.byteLength - 10] ?? 0) ^ 0xff;
    framing.feed(throttleFrame.subarray(0, 7));
    framing.feed(new Uint8Array([...throttleFrame.subarray(7), ...damaged]));
    framing.feed(chunkFrame);
    expect(pieces.map((piece) => JSON.parse(piece) as unknown)).toEqual([
      { throttlingException: { message: "Too many requests, please wait before trying again." } },
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/damaged AWS event-stream message/);
  });

  it("R-GW-12 frames split at every byte boundary and packed together decode the same, in order", () => {
    const wire = new Uint8Array([...chunkFrame, ...throttleFrame]);
    for (let cut = 0; cut <= wire.byteLength; cut++) {
      const decoder = new AwsEventStreamDecoder();
      const frames = [...decoder.push(wire.subarray(0, cut)), ...decoder.push(wire.subarray(cut))];
      expect(frames.map((f) => f.kind)).toEqual(["event", "exception"]);
      expect(decoder.pendingBytes).toBe(0);
    }
  });

  it("R-GW-12 an in-stream throttlingException is surfaced with its type and message", () => {
    expect(new AwsEventStreamDecoder().push(throttleFrame)).toEqual([
      { kind: "exception", exceptionType: "throttlingException", message: "Too many requests, please wait before trying again." },
    ]);
  });

  it("R-GW-12 a Converse stream event carries its own event type and JSON payload", () => {
    const converse = frame(
      { ":event-type": "contentBlockDelta", ":content-type": "application/json", ":message-type": "event" },
      JSON.stringify({ contentBlockIndex: 0, delta: { text: "hi" } }),
    );
    expect(new AwsEventStreamDecoder().push(converse)).toEqual([
      { kind: "event", eventType: "contentBlockDelta", payload: { contentBlockIndex: 0, delta: { text: "hi" } } },
    ]);
  });

  it("R-GW-12 a damaged frame is refused and a cut-off frame stays pending", () => {
    const damaged = chunkFrame.slice();
    const at = damaged.byteLength - 10;
    damaged[at] = (damaged[at] ?? 0) ^ 0xff;
    expect(() => new AwsEventStreamDecoder().push(damaged)).toThrow(/checksum/i);
    const decoder = new AwsEventStreamDecoder();
    expect(decoder.push(chunkFrame.subarray(0, 20))).toEqual([]);
    expect(decoder.pendingBytes).toBe(20);
  });
});
