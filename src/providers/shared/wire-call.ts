/**
 * The request/response skeleton every provider shares: send one POST, turn non-2xx answers into
 * `UpstreamFailure` with the provider's own error mapper, enforce the per-attempt deadline, and report
 * malformed stream chunks. Exactly one HTTP request per call (no retries, R-RA-1).
 */
import type { MalformedChunk, ProviderCallContext } from "../../ports/provider.js";
import { credentialSecret } from "./credentials.js";
import type { UpstreamFailure } from "../../ports/provider.js";
import { DEFAULT_PROVIDER_TIMEOUT_SECONDS, postJson, type ResponseHeaders, type UpstreamResponse } from "./http-client.js";
import type { ProviderSettings } from "./provider-settings.js";
import type { RequestSigner } from "./pass-through-call.js";
import { readBodyText } from "./read-body.js";
import {
  deadlineFailure,
  failureFromHttpResponse,
  failureFromNetworkError,
  failureFromStreamError,
  previewText,
  type WireErrorDetails,
} from "./upstream-failure.js";

/** Error bodies beyond this are cut: the classifier needs the start, not a 5 MB HTML page. */
const ERROR_BODY_LIMIT_BYTES = 64 * 1024;

export interface WireCall {
  settings: ProviderSettings;
  context: ProviderCallContext;
  url: string;
  /** Auth and dialect headers; `settings.headers` are added underneath. */
  headers: Readonly<Record<string, string>>;
  body: unknown;
  /** The wire format's error reader. */
  describeError: (bodyText: string, headers?: ResponseHeaders) => WireErrorDetails;
  /** Signs the request over its final bytes (a cloud's SigV4, a token fetched per call). */
  sign?: RequestSigner;
}

export function timeoutMsOf(settings: ProviderSettings): number {
  const seconds = settings.timeoutSeconds;
  return (seconds !== undefined && seconds > 0 ? seconds : DEFAULT_PROVIDER_TIMEOUT_SECONDS) * 1000;
}

function secretsOf(call: WireCall): (string | undefined)[] {
  return [credentialSecret(call.context.credential)];
}

async function send(call: WireCall, signal: AbortSignal): Promise<UpstreamResponse> {
  const headers = { ...(call.settings.headers ?? {}), ...call.headers };
  const upstream = {
    provider: call.settings.id,
    url: call.url,
    headers,
    body: call.body,
    signal,
    timeoutMs: timeoutMsOf(call.settings),
    dispatcher: call.settings.dispatcher,
  };
  let response: UpstreamResponse;
  if (call.sign) {
    const signed = await call.sign(
      { url: call.url, headers: { "content-type": "application/json", ...headers }, body: Buffer.from(JSON.stringify(call.body)) },
      signal,
    );
    response = await postJson({ ...upstream, url: signed.url, headers: signed.headers, bodyBytes: signed.body });
    if (response.status === 401) signed.tokenRefused?.();
  } else {
    response = await postJson(upstream);
  }
  call.context.onUpstreamHeaders?.(response.status, response.headers);
  if (response.status >= 200 && response.status < 300) return response;
  const bodyText = await readBodyText(response.body, ERROR_BODY_LIMIT_BYTES);
  throw failureFromHttpResponse({
    provider: call.settings.id,
    status: response.status,
    headers: response.headers,
    details: call.describeError(bodyText, response.headers),
    secrets: secretsOf(call),
  });
}

/** The abort reason of a passed deadline; allocated once (see `completeWireCall`). */
const DEADLINE_PASSED = new DOMException("The provider's timeoutSeconds passed.", "AbortError");

/**
 * A non-streamed call bounded by the provider's `timeoutSeconds` as a whole (R-CF-3). Returns the
 * 2xx body text; the caller parses it.
 */
export async function completeWireCall(call: WireCall): Promise<{ text: string; response: UpstreamResponse }> {
  const timeoutMs = timeoutMsOf(call.settings);
  const caller = call.context.signal;
  // One controller for both the caller's abort and the deadline, linked by hand: AbortSignal.any() costs a
  // derived signal with weak references per call, which showed up on every gateway request.
  const controller = new AbortController();
  let deadlinePassed = false;
  const timer = setTimeout(() => {
    deadlinePassed = true;
    controller.abort(DEADLINE_PASSED);
  }, timeoutMs);
  const onCallerAbort = () => controller.abort(caller.reason);
  if (caller.aborted) onCallerAbort();
  else caller.addEventListener("abort", onCallerAbort, { once: true });
  try {
    const response = await send(call, controller.signal);
    return { text: await readWholeBody(response.body), response };
  } catch (error) {
    if (!caller.aborted && deadlinePassed) throw deadlineFailure(call.settings.id, timeoutMs);
    throw failureFromNetworkError(error, { provider: call.settings.id, signal: caller });
  } finally {
    clearTimeout(timer);
    caller.removeEventListener("abort", onCallerAbort);
  }
}

/** undici's own `text()` collects the body in one go, far cheaper than iterating it chunk by chunk. */
function readWholeBody(body: UpstreamResponse["body"]): Promise<string> {
  return typeof body.text === "function" ? body.text() : readBodyText(body);
}

/**
 * Opens a streamed call. The stream's own watchdogs (TTFT, stall) live above the provider (R-ST-1);
 * here only undici's headers/body timeouts apply, as a backstop.
 */
export async function openWireStream(call: WireCall): Promise<UpstreamResponse> {
  try {
    return await send(call, call.context.signal);
  } catch (error) {
    throw failureFromNetworkError(error, { provider: call.settings.id, signal: call.context.signal });
  }
}

/**
 * R-GW-10: the whole body of a streamed call the upstream answered with its complete JSON answer instead of a
 * stream (`answersWithJson`). Read in one go; a transport failure while reading is classified as any other.
 */
export async function readJsonAnswer(call: WireCall, response: UpstreamResponse): Promise<string> {
  try {
    return await readWholeBody(response.body);
  } catch (error) {
    throw failureFromNetworkError(error, { provider: call.settings.id, signal: call.context.signal });
  }
}

/** Tells both the call's and the provider's listener about a skipped chunk (R-ST-2). */
export function reportMalformedChunk(call: WireCall, raw: string, problem: string): void {
  const chunk: MalformedChunk = {
    provider: call.settings.id,
    model: call.context.model,
    preview: previewText(raw, 200),
    problem,
  };
  call.context.onMalformedChunk?.(chunk);
  call.settings.onMalformedChunk?.(chunk);
}

/** An error event inside an open stream, with the call's secrets redacted from its text. */
export function streamErrorFailure(call: WireCall, details: WireErrorDetails, headers?: ResponseHeaders): UpstreamFailure {
  return failureFromStreamError({ provider: call.settings.id, details, headers, secrets: secretsOf(call) });
}
