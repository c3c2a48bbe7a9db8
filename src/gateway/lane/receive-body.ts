/**
 * The lane's JSON body parser (SPEC R-GW-6): fastify's raw-body reading — the same body limit, the
 * same length check, the same errors (413, 400) — without its final join: a large body stays the chunks it
 * arrived in (BodyBytes), so a 1 MB request allocates no second 1 MB Buffer. A small body is joined into its
 * own copy, as fastify does, and is scanned in place. Keeping the chunks is safe: Node's HTTP parser hands each
 * body read over as its own copy (not a view of the socket's read buffer), and a stream does not reuse a chunk
 * it has pushed; the gateway adds no preParsing stream in between.
 */
import { errorCodes, type FastifyRequest } from "fastify";
import { BodyBytes } from "../../wire/shared/body-bytes.js";

/** Below this a body is joined into one Buffer (cheap, and scanned without a scratch copy). */
export const JOIN_BELOW_BYTES = 64 * 1024;

type Done = (error: Error | null, body?: BodyBytes) => void;

interface PayloadStream extends NodeJS.ReadableStream {
  /** Set by a decoding preParsing stream: the bytes received before decoding. */
  receivedEncodedLength?: number;
}

export function receiveBodyBytes(request: FastifyRequest, payload: PayloadStream, done: Done): void {
  const limit = request.routeOptions.bodyLimit as number;
  const contentLength = Number(request.headers["content-length"]);
  if (contentLength > limit) {
    done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  const stop = () => {
    payload.removeListener("data", onData);
    payload.removeListener("end", onEnd);
    payload.removeListener("error", onEnd);
  };
  function onData(chunk: Buffer | string): void {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    received += bytes.length;
    // The decoded length must not exceed the limit either (a "zip bomb").
    if (received > limit || (payload.receivedEncodedLength ?? 0) > limit) {
      stop();
      done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    chunks.push(bytes);
  }
  function onEnd(error?: Error & { statusCode?: number }): void {
    stop();
    if (error != null) {
      if (!(typeof error.statusCode === "number" && error.statusCode >= 400)) error.statusCode = 400;
      done(error);
      return;
    }
    if (!Number.isNaN(contentLength) && (payload.receivedEncodedLength || received) !== contentLength) {
      done(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      return;
    }
    done(null, received < JOIN_BELOW_BYTES ? BodyBytes.of(Buffer.concat(chunks, received)) : new BodyBytes(chunks, received));
  }
  payload.on("data", onData);
  payload.on("end", onEnd);
  payload.on("error", onEnd);
  payload.resume();
}
