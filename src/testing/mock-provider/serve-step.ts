/**
 * Answers one request according to one step: healthy JSON or stream, an error status, or a transport
 * fault (reset, silence, slow first token, cut, stall, malformed chunk, missing terminator, in-band error).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ERROR_PRESET_TABLE, presetForStatus, type ResolvedMockError } from "./error-presets.js";
import type { MockReply } from "./reply.js";
import type { MockErrorPreset, MockStep } from "./scenario-schema.js";
import { untilAborted, type TimerSet } from "./timer-set.js";
import type { MockWire, ReplyContext, StreamFrames } from "./wire/mock-wire.js";

export interface StepContext {
  request: IncomingMessage;
  response: ServerResponse;
  wire: MockWire;
  stream: boolean;
  reply: MockReply;
  replyContext: ReplyContext;
  /** Aborts when the client goes away or the server closes. */
  signal: AbortSignal;
  timers: TimerSet;
  /** Pause between stream tokens. */
  tokenDelayMs: number;
  /** Extra response headers (request id, fault label). */
  headers: Record<string, string>;
}

function write(response: ServerResponse, chunk: string, encoding: BufferEncoding = "utf8"): Promise<void> {
  return new Promise((resolve) => {
    if (response.destroyed) return resolve();
    response.write(chunk, encoding, () => resolve());
  });
}

/** Destroys the connection mid-body (callers await their writes first, so the N tokens did reach the client). */
function cutConnection(context: StepContext): void {
  const socket = context.response.socket ?? context.request.socket;
  socket.destroy();
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const isJson = typeof body !== "string" || /^\s*[[{]/.test(body);
  response.writeHead(status, {
    "content-type": isJson ? "application/json" : "text/plain; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

export function resolveError(
  preset: MockErrorPreset,
  model: string,
  overrides: { status?: number; message?: string; retryAfterSeconds?: number } = {},
): ResolvedMockError {
  return {
    preset,
    row: ERROR_PRESET_TABLE[preset],
    status: overrides.status ?? ERROR_PRESET_TABLE[preset].status,
    model,
    ...(overrides.message === undefined ? {} : { message: overrides.message }),
    ...(overrides.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: overrides.retryAfterSeconds }),
  };
}

function sendError(context: StepContext, error: ResolvedMockError, extraHeaders: Record<string, string> = {}): void {
  const retryHeaders =
    error.retryAfterSeconds === undefined
      ? {}
      : { "retry-after": String(Math.ceil(error.retryAfterSeconds)), ...context.wire.errorHeaders(error) };
  sendJson(context.response, error.status, context.wire.errorBody(error), {
    ...context.headers,
    ...context.wire.errorTypeHeaders?.(error),
    ...retryHeaders,
    ...extraHeaders,
  });
}

interface StreamPlan {
  firstTokenDelayMs?: number;
  /** Index into content frames at which the transport fault happens. */
  stopAfter?: number;
  stopHow?: "cut" | "stall" | "error";
  error?: ResolvedMockError;
  malformedAfter?: number;
  omitDone?: boolean;
}

async function serveStream(context: StepContext, plan: StreamPlan): Promise<void> {
  const frames: StreamFrames = context.wire.streamFrames(context.reply, context.replyContext);
  const { signal } = context;
  const response = context.response;
  const encoding = context.wire.frameEncoding ?? "utf8";
  response.writeHead(200, {
    "content-type": context.wire.streamContentType,
    "cache-control": "no-cache",
    connection: "keep-alive",
    ...context.headers,
  });
  response.flushHeaders();
  for (const frame of frames.lead) await write(response, frame, encoding);
  if (plan.firstTokenDelayMs !== undefined && !(await context.timers.delay(plan.firstTokenDelayMs, signal))) return;

  for (let index = 0; index <= frames.content.length; index += 1) {
    if (signal.aborted) return;
    if (plan.malformedAfter === index) await write(response, context.wire.malformedFrame(), encoding);
    if (plan.stopAfter === index) {
      if (plan.stopHow === "cut") return cutConnection(context);
      if (plan.stopHow === "stall") return untilAborted(signal);
      if (plan.stopHow === "error" && plan.error) {
        await write(response, context.wire.streamErrorFrame(plan.error), encoding);
        response.end();
        return;
      }
    }
    const frame = frames.content[index];
    if (frame === undefined) break;
    if (index > 0 && context.tokenDelayMs > 0 && !(await context.timers.delay(context.tokenDelayMs, signal))) return;
    await write(response, frame, encoding);
  }
  for (const frame of frames.finish) await write(response, frame, encoding);
  if (!plan.omitDone) for (const frame of frames.done) await write(response, frame, encoding);
  response.end();
}

/** Non-streamed equivalents of stream faults: half a body then a cut or a stall, or invalid JSON. */
async function servePartialJson(context: StepContext, how: "cut" | "stall" | "malformed"): Promise<void> {
  const text = JSON.stringify(context.wire.renderJson(context.reply, context.replyContext));
  const half = text.slice(0, Math.floor(text.length / 2));
  if (how === "malformed") return sendJson(context.response, 200, half, { ...context.headers, "content-type": "application/json" });
  context.response.writeHead(200, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...context.headers,
  });
  await write(context.response, half);
  if (how === "cut") return cutConnection(context);
  return untilAborted(context.signal);
}

function serveHealthy(context: StepContext, plan: StreamPlan = {}): Promise<void> {
  if (context.stream) return serveStream(context, plan);
  sendJson(context.response, 200, context.wire.renderJson(context.reply, context.replyContext), context.headers);
  return Promise.resolve();
}

/** The reply with `tokens` text tokens (its own words repeated), for a long generation. */
function lengthened(reply: MockReply, tokens: number | undefined): MockReply {
  if (tokens === undefined || reply.textTokens.length === 0) return reply;
  const words = reply.textTokens;
  const textTokens = Array.from({ length: tokens }, (_, index) => {
    const word = words[index % words.length] as string;
    // Each repetition after the first starts with a space, so the text stays readable.
    return index > 0 && index % words.length === 0 && !/^\s/.test(word) ? ` ${word}` : word;
  });
  return { ...reply, textTokens, usage: { ...reply.usage, outputTokens: tokens } };
}

/**
 * R-ST-6: a steady generation. Streamed, one token every `tokenDelayMs`; non-streamed, the whole answer once
 * the generation is done — as a real provider holds a non-streamed body until its last token.
 */
async function serveSlowGeneration(context: StepContext, tokenDelayMs: number, tokens: number | undefined): Promise<void> {
  const paced: StepContext = { ...context, reply: lengthened(context.reply, tokens), tokenDelayMs };
  if (context.stream) return serveStream(paced, {});
  const generationMs = tokenDelayMs * Math.max(1, contentCount(paced));
  if (!(await context.timers.delay(generationMs, context.signal))) return;
  return serveHealthy(paced);
}

function contentCount(context: StepContext): number {
  return context.wire.streamFrames(context.reply, context.replyContext).content.length;
}

export async function serveStep(context: StepContext, step: MockStep): Promise<void> {
  const model = context.replyContext.model;
  switch (step.fault) {
    case "ok":
      return serveHealthy(context);
    case "status": {
      const headers = { ...context.headers, ...step.headers };
      if (step.body !== undefined) return sendJson(context.response, step.status, step.body, headers);
      return sendError(context, resolveError(presetForStatus(step.status), model, { status: step.status }), step.headers);
    }
    case "reset": {
      // A TCP RST before any byte of the response, like a proxy or load balancer dropping the call.
      const socket = context.request.socket;
      if (typeof socket.resetAndDestroy === "function") socket.resetAndDestroy();
      else socket.destroy();
      return;
    }
    case "silence":
      return untilAborted(context.signal);
    case "slow-first-token":
      if (context.stream) return serveStream(context, { firstTokenDelayMs: step.delayMs });
      if (!(await context.timers.delay(step.delayMs, context.signal))) return;
      return serveHealthy(context);
    case "slow-generation":
      return serveSlowGeneration(context, step.tokenDelayMs, step.tokens);
    case "stream-unsupported":
      if (!context.stream) return serveHealthy(context);
      return sendError(
        context,
        resolveError("server-error", model, {
          status: 400,
          message: "Unsupported value: 'stream' does not support true with this model. Only the default (false) value is supported.",
        }),
      );
    case "ignores-stream":
      // As some OpenAI-compatible servers do: `stream` is not read, the answer is always the JSON body.
      return serveHealthy({ ...context, stream: false });
    case "stream-cut":
      if (!context.stream) return servePartialJson(context, "cut");
      return serveStream(context, { stopAfter: Math.min(step.afterTokens, contentCount(context)), stopHow: "cut" });
    case "stall":
      if (!context.stream) return servePartialJson(context, "stall");
      return serveStream(context, { stopAfter: Math.min(step.afterTokens, contentCount(context)), stopHow: "stall" });
    case "malformed-chunk":
      if (!context.stream) return servePartialJson(context, "malformed");
      return serveStream(context, { malformedAfter: Math.min(step.afterTokens ?? 1, contentCount(context)) });
    case "missing-done":
      return serveHealthy(context, { omitDone: true });
    case "stream-error": {
      const error = resolveError(step.error ?? "overloaded", model, step.message === undefined ? {} : { message: step.message });
      if (!context.stream) return sendError(context, error);
      return serveStream(context, {
        stopAfter: Math.min(step.afterTokens ?? 0, contentCount(context)),
        stopHow: "error",
        error,
      });
    }
    default: {
      const error = resolveError(step.fault, model, {
        ...(step.status === undefined ? {} : { status: step.status }),
        ...(step.message === undefined ? {} : { message: step.message }),
        ...(step.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: step.retryAfterSeconds }),
      });
      return sendError(context, error, step.headers);
    }
  }
}
