/**
 * The raw upstream call of the same-wire lane (SPEC R-GW-6): the client's body bytes (with only `model`
 * replaced) go out as they are, and the answer comes back as bytes — no JSON round trip. Exactly one HTTP
 * request per call (R-RA-1). Non-2xx answers become `UpstreamFailure` with the provider's own error mapper,
 * so an upstream 400 is classified `format` like on the canonical path. undici's header and body timeouts
 * are the attempt's transport watchdog: no timer of our own.
 */
import type { Readable } from "node:stream";
import type { Dispatcher } from "undici";
import { request } from "./undici-core.js";
import type { ProviderCallContext } from "../../ports/provider.js";
import { getSharedAgent, type ResponseHeaders } from "./http-client.js";
import { readBodyText } from "./read-body.js";
import type { UpstreamBody } from "../../wire/shared/body-bytes.js";
import { abortReasonOf, failureFromHttpResponse, failureFromNetworkError, type WireErrorDetails } from "./upstream-failure.js";

const ERROR_BODY_LIMIT_BYTES = 64 * 1024;

/** Where and how one provider is called on the lane; built per attempt by the provider's pass-through helper. */
export interface PassThroughTarget {
  provider: string;
  url: string;
  /** Auth, version and configured headers; never logged. */
  headers: Readonly<Record<string, string>>;
  /** Bounds the wait for headers and each gap between body chunks. */
  timeoutMs: number;
  dispatcher?: Dispatcher;
  describeError: (bodyText: string, headers?: ResponseHeaders) => WireErrorDetails;
  /** Secrets to redact from error texts. */
  secrets: readonly (string | undefined)[];
  /** Signs the request over its final bytes (a cloud's SigV4, a token fetched per call). */
  sign?: RequestSigner;
}

/** A request as it goes out, once its body is bytes: what a signing step reads and extends. */
export interface OutgoingRequest {
  url: string;
  headers: Readonly<Record<string, string>>;
  body: Buffer;
  /**
   * Set by a signer that put a kept access token on the request: called when the upstream answers 401, so the
   * token is forgotten and the next call fetches a new one instead of failing with the same token until it expires.
   */
  tokenRefused?: () => void;
}

export type RequestSigner = (request: OutgoingRequest, signal: AbortSignal) => Promise<OutgoingRequest>;

export type { UpstreamBody, UpstreamChunks } from "../../wire/shared/body-bytes.js";

export interface PassThroughResponse {
  status: number;
  headers: ResponseHeaders;
  body: Dispatcher.ResponseData["body"];
}

/**
 * What undici is given: a Buffer as it is (written in one go); chunks as an array (undici writes each in turn)
 * with their total as `content-length`, which undici then sends instead of chunked encoding. A configured
 * length header of any spelling gives way to the real one.
 */
function undiciBody(headers: Readonly<Record<string, string>>, body: UpstreamBody): { headers: Record<string, string>; body: Buffer } {
  if (Buffer.isBuffer(body)) return { headers: headers as Record<string, string>, body };
  const withLength: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    if (name.toLowerCase() !== "content-length") withLength[name] = headers[name] as string;
  }
  withLength["content-length"] = String(body.byteLength);
  // undici's documented body types include an iterable (docs/api/Dispatcher.md); its .d.ts does not yet.
  return { headers: withLength, body: body.chunks as unknown as Buffer };
}

/**
 * Sends the bytes and resolves with a 2xx response whose body is still unread. Reports every response's
 * status and headers to `onUpstreamHeaders` (rate-limit readers) before reading its body.
 */
export async function openPassThrough(
  target: PassThroughTarget,
  body: UpstreamBody,
  context: Pick<ProviderCallContext, "signal" | "onUpstreamHeaders">,
): Promise<PassThroughResponse> {
  const signal = context.signal;
  if (signal.aborted) throw abortReasonOf(signal);
  let response: Dispatcher.ResponseData;
  let url = target.url;
  let sent = undiciBody(target.headers, body);
  let tokenRefused: (() => void) | undefined;
  try {
    if (target.sign) {
      const signed = await target.sign(
        { url, headers: sent.headers, body: Buffer.isBuffer(body) ? body : Buffer.concat(body.chunks) },
        signal,
      );
      url = signed.url;
      tokenRefused = signed.tokenRefused;
      sent = { headers: { ...signed.headers, "content-length": String(signed.body.byteLength) }, body: signed.body };
    }
    response = await request(url, {
      method: "POST",
      dispatcher: target.dispatcher ?? getSharedAgent(),
      headers: sent.headers,
      body: sent.body,
      signal,
      headersTimeout: target.timeoutMs,
      bodyTimeout: target.timeoutMs,
    });
  } catch (error) {
    throw failureFromNetworkError(error, { provider: target.provider, signal });
  }
  context.onUpstreamHeaders?.(response.statusCode, response.headers);
  if (response.statusCode >= 200 && response.statusCode < 300) {
    return { status: response.statusCode, headers: response.headers, body: response.body };
  }
  if (response.statusCode === 401) tokenRefused?.();
  let bodyText: string;
  try {
    bodyText = await readBodyText(response.body, ERROR_BODY_LIMIT_BYTES);
  } catch (error) {
    throw failureFromNetworkError(error, { provider: target.provider, signal });
  } finally {
    // A cut error body must not keep the socket: undici reuses it only once the body is consumed or destroyed.
    if (!response.body.destroyed) response.body.destroy();
  }
  throw failureFromHttpResponse({
    provider: target.provider,
    status: response.statusCode,
    headers: response.headers,
    details: target.describeError(bodyText, response.headers),
    secrets: target.secrets,
  });
}

/** A whole 2xx body as bytes (undici collects it in one go). */
export async function readPassThroughBody(target: PassThroughTarget, response: PassThroughResponse, signal: AbortSignal): Promise<Buffer> {
  try {
    return Buffer.from(await response.body.arrayBuffer());
  } catch (error) {
    throw failureFromNetworkError(error, { provider: target.provider, signal });
  }
}

/**
 * Whether a 2xx body is a JSON object at all (first and last non-blank bytes are braces): a 200 that is not
 * one (an HTML page, a cut body) is not an answer and fails the attempt over, as on the canonical path.
 */
export function looksLikeJsonObject(body: Buffer): boolean {
  let start = 0;
  let end = body.length - 1;
  while (start <= end && (body[start] as number) <= 0x20) start += 1;
  while (end >= start && (body[end] as number) <= 0x20) end -= 1;
  return body[start] === 0x7b && body[end] === 0x7d;
}

/** Upstream response headers a client of the same wire may rely on; hop-by-hop and length headers are Node's. */
export const FORWARDED_RESPONSE_HEADERS = ["content-type", "x-request-id", "request-id", "openai-processing-ms"] as const;

/**
 * Opens the call and hands each read of its 2xx event-stream body to `onRead` as it arrives, in flowing mode:
 * no promise, iterator step or generator resumption per read — what an assembled non-streamed answer reads
 * twenty times per request (R-ST-6). `onRead` returns false once the answer is complete: the call resolves at
 * once and the rest of the body (its terminating chunk, usually in the same or the next read) drains in the
 * background, so the connection goes back to the pool (`drainCompleteBody`).
 * What `onRead` throws (an in-band failure) fails the call and destroys the body. A network failure
 * mid-body (an abort included) is classified like any other. `onResponse` sees the response before its body
 * is read; returning false, it takes the body itself (a JSON answer where a stream was asked for, R-GW-10) and
 * the call resolves without reading it.
 */
export async function pumpPassThrough(
  target: PassThroughTarget,
  body: UpstreamBody,
  context: Pick<ProviderCallContext, "signal" | "onUpstreamHeaders">,
  onResponse: (response: PassThroughResponse) => boolean | void,
  onRead: (chunk: Buffer) => boolean,
): Promise<void> {
  const response = await openPassThrough(target, body, context);
  if (onResponse(response) === false) return;
  const readable = response.body;
  await new Promise<void>((resolve, reject) => {
    const settle = (error?: unknown) => {
      readable.off("data", onData);
      readable.off("end", onEnd);
      readable.off("error", onError);
      // What follows is not read: an error from here on (undici's RequestAbortedError when the body is
      // released before its end) is expected, not a failure.
      readable.on("error", ignore);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onData = (chunk: Buffer) => {
      let more: boolean;
      try {
        more = onRead(chunk);
      } catch (error) {
        // Thrown inside the body's 'data' emit it would tear the stream down unseen: it fails this call instead.
        settle(error);
        readable.destroy();
        return;
      }
      if (more) return;
      settle();
      drainCompleteBody(readable);
    };
    const onEnd = () => settle();
    const onError = (error: unknown) => settle(failureFromNetworkError(error, { provider: target.provider, signal: context.signal }));
    readable.on("data", onData);
    readable.on("end", onEnd);
    readable.on("error", onError);
  });
}

function ignore(): void {}

/** How long a complete answer's body may take to end before its connection is given up. */
export const DRAIN_GRACE_MS = 2_000;
/** How often the bodies still draining are looked at (a body is given up at most this much after its grace). */
const DRAIN_SWEEP_MS = 250;

/**
 * Bodies draining after a complete answer, with when each is given up: one sweep timer for all of them while
 * any drains, instead of a timer armed and cleared per request (nearly every body ends within the next read).
 */
const draining = new Map<Readable, number>();
let sweeper: NodeJS.Timeout | undefined;

function sweepDraining(): void {
  const now = Date.now();
  for (const [readable, giveUpAt] of draining) {
    if (giveUpAt > now) continue;
    draining.delete(readable);
    readable.destroy();
  }
  if (draining.size === 0 && sweeper !== undefined) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

/** A drained body closed (ended or destroyed): nothing left to give up. Shared, so no closure per body. */
function forgetDrained(this: Readable): void {
  draining.delete(this);
}

/**
 * Lets the rest of a complete answer's body flow to its end, so undici reuses the connection (destroying it
 * now would close a connection whose body ends in the next bytes: one new TCP connection per request). An
 * upstream that keeps the body open past the grace loses the connection. Nobody waits for this.
 */
export function drainCompleteBody(readable: Readable): void {
  // Nothing of it is read any more: an error now (a cut after the answer, a late one of a destroyed body) is
  // not a failure.
  readable.on("error", ignore);
  if (readable.readableEnded || readable.destroyed) return;
  readable.on("data", ignore);
  readable.resume();
  draining.set(readable, Date.now() + DRAIN_GRACE_MS);
  readable.once("close", forgetDrained);
  if (sweeper === undefined) {
    sweeper = setInterval(sweepDraining, DRAIN_SWEEP_MS);
    sweeper.unref();
  }
}
