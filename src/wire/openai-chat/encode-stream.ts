/**
 * Canonical stream events → OpenAI SSE frames. Pure: the encoder only returns strings; the route writes
 * them. Frames: a role delta first, content / tool_call deltas (with `index`), the finish chunk, a usage
 * chunk when `stream_options.include_usage` was set, then `data: [DONE]`. An error event becomes an error
 * chunk with no `[DONE]` after it (R-ST-2), and so does a `finish` whose reason is `error`.
 */
import type { CanonicalStreamEvent } from "../../ports/canonical.js";
import { describeStreamError } from "../shared/stream-error.js";
import { encodeWholeStream, endingEncoder, type CanonicalStreamEncoder } from "../shared/stream-encoder.js";
import { openAIStreamErrorFrame, type OpenAIErrorInput } from "./errors.js";
import { CANONICAL_TO_OPENAI_FINISH_REASON } from "./finish-reasons.js";
import { renderOpenAIUsage } from "./usage.js";

export interface OpenAIStreamOptions {
  includeUsage: boolean;
  /** Used until a `message-start` event names them. */
  id?: string;
  model?: string;
  /** Unix seconds for `created`: the caller's clock, never read here. */
  createdSeconds: number;
  /** The answer's `system_fingerprint`, on every chunk when known (the upstream's answer had one). */
  systemFingerprint?: string;
  /** Turns an `error` event's payload into the error chunk's fields. */
  describeError?: (error: unknown) => OpenAIErrorInput;
}

export type OpenAIStreamEncoder = CanonicalStreamEncoder;

export const OPENAI_DONE_FRAME = "data: [DONE]\n\n";

function defaultDescribeError(error: unknown): OpenAIErrorInput {
  const { message, status, code } = describeStreamError(error);
  return { message, status: status ?? 502, ...(code === undefined ? {} : { code }) };
}

export function createOpenAIStreamEncoder(options: OpenAIStreamOptions): OpenAIStreamEncoder {
  let id = options.id ?? "chatcmpl-detour";
  let model = options.model ?? "";
  const created = options.createdSeconds;
  const describeError = options.describeError ?? defaultDescribeError;
  let roleSent = false;
  const ended = { finished: false };

  const fingerprint = options.systemFingerprint;
  const frame = (payload: Record<string, unknown>) =>
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, ...(fingerprint === undefined ? {} : { system_fingerprint: fingerprint }), ...payload })}\n\n`;
  const fingerprintJson = fingerprint === undefined ? "" : `,"system_fingerprint":${JSON.stringify(fingerprint)}`;
  // A text delta is most of a stream's frames: its JSON is written from a prefix made once per id and model,
  // byte for byte what `frame` would give (key order included), without building and stringifying the chunk.
  let textPrefix: string | undefined;
  const textFrame = (text: string, logprobs: unknown) => {
    const logprobsJson = logprobs === null ? "null" : JSON.stringify(logprobs);
    if (typeof id !== "string" || typeof model !== "string" || logprobsJson === undefined)
      return deltaFrame({ content: text }, null, logprobs);
    textPrefix ??= `data: {"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${JSON.stringify(created)},"model":${JSON.stringify(model)}${fingerprintJson},"choices":[{"index":0,"delta":{`;
    const role = roleSent ? "" : '"role":"assistant",';
    roleSent = true;
    return `${textPrefix}${role}"content":${JSON.stringify(text)}},"logprobs":${logprobsJson},"finish_reason":null}]}\n\n`;
  };
  const deltaFrame = (delta: Record<string, unknown>, finishReason: string | null = null, logprobs: unknown = null) => {
    const withRole = roleSent ? delta : { role: "assistant", ...delta };
    roleSent = true;
    return frame({ choices: [{ index: 0, delta: withRole, logprobs, finish_reason: finishReason }] });
  };
  const fail = (error: OpenAIErrorInput) => {
    ended.finished = true;
    return [openAIStreamErrorFrame(error)];
  };

  return endingEncoder(ended, (event) => {
    switch (event.type) {
      case "message-start":
        id = event.id;
        model = event.model;
        textPrefix = undefined;
        return roleSent ? [] : [textFrame("", null)];
      case "text-delta":
        return [textFrame(event.text, event.logprobs ?? null)];
      case "thinking-delta":
        // Chat completions has no reasoning content; the blocks stay with the wire that made them.
        return [];
      case "tool-call-delta":
        return [
          deltaFrame({
            tool_calls: [
              {
                index: event.index,
                ...(event.id === undefined ? {} : { id: event.id, type: "function" }),
                function: {
                  ...(event.name === undefined ? {} : { name: event.name }),
                  arguments: event.argumentsDelta ?? "",
                },
              },
            ],
          }),
        ];
      case "finish": {
        if (event.reason === "error") {
          return fail({ message: "The upstream model stopped with an error.", status: 502 });
        }
        ended.finished = true;
        const frames = [deltaFrame({}, CANONICAL_TO_OPENAI_FINISH_REASON[event.reason])];
        if (options.includeUsage && event.usage) frames.push(frame({ choices: [], usage: renderOpenAIUsage(event.usage) }));
        frames.push(OPENAI_DONE_FRAME);
        return frames;
      }
      case "error":
        return fail(describeError(event.error));
    }
  });
}

/** All frames for a complete event sequence. */
export function encodeOpenAIStream(events: Iterable<CanonicalStreamEvent>, options: OpenAIStreamOptions): string[] {
  return encodeWholeStream(createOpenAIStreamEncoder(options), events);
}
