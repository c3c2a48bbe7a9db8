/**
 * The AWS event-stream binary framing (length-prefixed, CRC-checked messages with typed headers) that Bedrock
 * streams in, decoded and encoded by smithy's codec. It is a framing like server-sent events or NDJSON: the
 * reader turns each message into one framed piece of text for a format's stream decoder — the message as the
 * AWS SDKs model a stream's union, `{"<event or exception type>": payload}` — so the decoders need not know
 * bytes. Frames may arrive split across or packed into network chunks; bytes are buffered until a whole
 * message is there.
 */
import { EventStreamCodec } from "@smithy/core/event-streams";

export type AwsEventStreamFrame =
  /** `eventType` is `chunk` for InvokeModelWithResponseStream, or a Converse event (`contentBlockDelta`, …). */
  | { kind: "event"; eventType: string; payload: unknown }
  /** A failure sent inside a 200 stream, e.g. `throttlingException` or `modelStreamErrorException`. */
  | { kind: "exception"; exceptionType: string; message: string };

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

function newCodec(): EventStreamCodec {
  return new EventStreamCodec(
    (bytes: Uint8Array) => utf8Decoder.decode(bytes),
    (text: string) => utf8Encoder.encode(text),
  );
}

function parseJson(bytes: Uint8Array): unknown {
  const text = utf8Decoder.decode(bytes);
  return text.length === 0 ? {} : (JSON.parse(text) as unknown);
}

/** A message whose checksums do not match; `frames` are the whole ones read before it. */
export class DamagedAwsMessageError extends Error {
  constructor(
    cause: unknown,
    readonly frames: readonly AwsEventStreamFrame[],
  ) {
    super(`a damaged AWS event-stream message: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

export class AwsEventStreamDecoder {
  private readonly codec = newCodec();
  private buffered: Uint8Array = new Uint8Array(0);

  /** Takes the next bytes of the response body; returns every frame they complete, in order. */
  push(chunk: Uint8Array): AwsEventStreamFrame[] {
    const joined = new Uint8Array(this.buffered.byteLength + chunk.byteLength);
    joined.set(this.buffered, 0);
    joined.set(chunk, this.buffered.byteLength);
    const frames: AwsEventStreamFrame[] = [];
    let offset = 0;
    while (joined.byteLength - offset >= 4) {
      const total = new DataView(joined.buffer, joined.byteOffset + offset, 4).getUint32(0, false);
      if (joined.byteLength - offset < total) break;
      let message;
      try {
        message = this.codec.decode(joined.subarray(offset, offset + total));
      } catch (error) {
        // The codec checks both CRCs: a damaged message is a broken stream, not a frame to skip. The frames
        // before it in this read were whole and are handed on with the error.
        this.buffered = new Uint8Array(0);
        throw new DamagedAwsMessageError(error, frames);
      }
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

function toFrame(headers: Headers, body: Uint8Array): AwsEventStreamFrame {
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
 * A frame as the framed piece a stream decoder reads: the member of the stream's union it is, as the AWS SDKs
 * write it — `{"contentBlockDelta":{…}}`, `{"chunk":{"bytes":"…"}}`, `{"throttlingException":{"message":"…"}}`.
 */
export function awsFramePiece(frame: AwsEventStreamFrame): string {
  return frame.kind === "event"
    ? JSON.stringify({ [frame.eventType]: frame.payload })
    : JSON.stringify({ [frame.exceptionType]: { message: frame.message } });
}

/**
 * The framing of a body read piece by piece (the provider's stream reading): each whole message becomes one
 * piece (`awsFramePiece`). A damaged message is reported to `onDamaged` and the rest of the body dropped: its
 * lengths can no longer be trusted, so the decoder's end decides whether the answer was complete.
 */
export class AwsEventStreamPieces {
  readonly #decoder = new AwsEventStreamDecoder();
  #broken = false;

  constructor(
    private readonly onPiece: (piece: string) => void,
    private readonly onDamaged: (problem: string) => void,
  ) {}

  feed(chunk: Uint8Array): void {
    if (this.#broken) return;
    let frames: readonly AwsEventStreamFrame[];
    let damage: string | undefined;
    try {
      frames = this.#decoder.push(chunk);
    } catch (error) {
      if (!(error instanceof DamagedAwsMessageError)) throw error;
      frames = error.frames;
      damage = error.message;
      this.#broken = true;
    }
    for (const frame of frames) this.onPiece(awsFramePiece(frame));
    if (damage !== undefined) this.onDamaged(damage);
  }
}

/** One AWS event-stream message, for servers (the mock provider) that speak the framing. */
export function encodeAwsEventStreamMessage(headers: Readonly<Record<string, string>>, payload: unknown): Uint8Array {
  const tagged: Record<string, { type: "string"; value: string }> = {};
  for (const [name, value] of Object.entries(headers)) tagged[name] = { type: "string", value };
  return newCodec().encode({ headers: tagged, body: utf8Encoder.encode(JSON.stringify(payload)) });
}

/** A stream event message (`:message-type: event`) of the given type. */
export function awsEventMessage(eventType: string, payload: unknown): Uint8Array {
  return encodeAwsEventStreamMessage({ ":event-type": eventType, ":content-type": "application/json", ":message-type": "event" }, payload);
}

/** An in-stream failure (`:message-type: exception`) of the given type, e.g. `throttlingException`. */
export function awsExceptionMessage(exceptionType: string, message: string): Uint8Array {
  return encodeAwsEventStreamMessage(
    { ":exception-type": exceptionType, ":content-type": "application/json", ":message-type": "exception" },
    { message },
  );
}
