/**
 * Reads Bedrock's streamed answers: the AWS event-stream binary framing (length-prefixed, CRC-checked
 * messages with typed headers), decoded by smithy's codec. Frames may arrive split across or packed
 * into network chunks, so bytes are buffered until a whole message is there.
 */
import { EventStreamCodec } from "@smithy/core/event-streams";

export type BedrockStreamFrame =
  /** `eventType` is `chunk` for InvokeModelWithResponseStream, or a Converse event (`contentBlockDelta`, …). */
  | { kind: "event"; eventType: string; payload: unknown }
  /** A failure sent inside a 200 stream, e.g. `throttlingException` or `modelStreamErrorException`. */
  | { kind: "exception"; exceptionType: string; message: string };

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

function parseJson(bytes: Uint8Array): unknown {
  const text = utf8Decoder.decode(bytes);
  return text.length === 0 ? {} : (JSON.parse(text) as unknown);
}

export class BedrockEventStreamDecoder {
  private readonly codec = new EventStreamCodec(
    (bytes: Uint8Array) => utf8Decoder.decode(bytes),
    (text: string) => utf8Encoder.encode(text),
  );
  private buffered: Uint8Array = new Uint8Array(0);

  /** Takes the next bytes of the response body; returns every frame they complete, in order. */
  push(chunk: Uint8Array): BedrockStreamFrame[] {
    const joined = new Uint8Array(this.buffered.byteLength + chunk.byteLength);
    joined.set(this.buffered, 0);
    joined.set(chunk, this.buffered.byteLength);
    const frames: BedrockStreamFrame[] = [];
    let offset = 0;
    while (joined.byteLength - offset >= 4) {
      const total = new DataView(joined.buffer, joined.byteOffset + offset, 4).getUint32(0, false);
      if (joined.byteLength - offset < total) break;
      // The codec checks both CRCs and throws on a damaged frame; that is a broken stream, not a frame to skip.
      const message = this.codec.decode(joined.subarray(offset, offset + total));
      frames.push(toFrame(message.headers, message.body));
      offset += total;
    }
    this.buffered = joined.slice(offset);
    return frames;
  }

  /** Bytes left over once the body has ended: a cut-off frame, which a caller reports as a broken stream. */
  get pendingBytes(): number {
    return this.buffered.byteLength;
  }
}

type Headers = Record<string, { type: string; value: unknown }>;

function headerText(headers: Headers, name: string): string | undefined {
  const header = headers[name];
  return header && typeof header.value === "string" ? header.value : undefined;
}

function toFrame(headers: Headers, body: Uint8Array): BedrockStreamFrame {
  const messageType = headerText(headers, ":message-type") ?? "event";
  if (messageType === "exception") {
    const payload = parseJson(body) as { message?: unknown; Message?: unknown };
    const message = payload.message ?? payload.Message;
    return {
      kind: "exception",
      exceptionType: headerText(headers, ":exception-type") ?? "unknownException",
      message: typeof message === "string" ? message : "",
    };
  }
  if (messageType === "error") {
    return {
      kind: "exception",
      exceptionType: headerText(headers, ":error-code") ?? "unknownError",
      message: headerText(headers, ":error-message") ?? "",
    };
  }
  return { kind: "event", eventType: headerText(headers, ":event-type") ?? "", payload: parseJson(body) };
}

/**
 * An InvokeModelWithResponseStream `chunk` carries one Anthropic stream event, base64-encoded in `bytes`;
 * returns it as the server-sent event an Anthropic client reads (`event: <type>` + `data: <json>`).
 */
export function anthropicSseFromBedrockChunk(payload: unknown): string {
  const bytes = (payload as { bytes?: unknown } | null)?.bytes;
  if (typeof bytes !== "string") throw new TypeError("a Bedrock chunk without bytes");
  const json = Buffer.from(bytes, "base64").toString("utf8");
  const type = (JSON.parse(json) as { type?: unknown }).type;
  return `event: ${typeof type === "string" ? type : "message"}\ndata: ${json}\n\n`;
}
