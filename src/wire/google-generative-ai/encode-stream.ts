/**
 * Canonical stream events → Gemini `streamGenerateContent?alt=sse` frames: the server side of the format
 * (the mock provider streams with it). One chunk per text or thought delta; a function call goes out whole
 * in one chunk, as Gemini sends it, once its arguments are complete; the last chunk carries the finish reason
 * and the usage, and there is no terminator. An error ends the stream with an error chunk (R-ST-2).
 */
import { describeStreamError } from "../shared/stream-error.js";
import { endingEncoder, type CanonicalStreamEncoder } from "../shared/stream-encoder.js";
import { PendingToolCalls, type WholeToolCall } from "../shared/pending-tool-calls.js";
import { toolArgumentsObject } from "../shared/tool-arguments.js";
import type { StreamEncoderOptions } from "../wire-format.js";
import { googleChunk, googleThoughtPart, renderGoogleUsage } from "./encode-response.js";
import { renderGoogleError } from "./errors.js";
import { CANONICAL_TO_GOOGLE_FINISH_REASON } from "./finish-reasons.js";

/** Google's streams end their lines with CRLF. */
const FRAME_END = "\r\n\r\n";

function frame(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}${FRAME_END}`;
}

export function createGoogleStreamEncoder(options: StreamEncoderOptions): CanonicalStreamEncoder {
  let id = "";
  let model = options.model;
  const ended = { finished: false };
  const calls = new PendingToolCalls();

  const chunk = (parts: unknown[], finishReason?: string) => googleChunk(id, model, parts, finishReason);
  const callFrame = (call: WholeToolCall) =>
    frame(chunk([{ functionCall: { name: call.name, args: toolArgumentsObject(call.arguments) } }]));
  const fail = (error: unknown) => {
    ended.finished = true;
    const { message, status, code } = describeStreamError(error);
    return [frame(renderGoogleError({ message, status: status ?? 500, ...(code !== undefined ? { code } : {}) }))];
  };

  return endingEncoder(ended, (event) => {
    switch (event.type) {
      case "message-start":
        id = event.id;
        model = event.model;
        return [];
      case "text-delta":
        return [frame(chunk([{ text: event.text }]))];
      case "thinking-delta":
        if (event.text === undefined && event.signature === undefined) return [];
        return [
          frame(
            chunk([
              googleThoughtPart({ text: event.text ?? "", ...(event.signature !== undefined ? { signature: event.signature } : {}) }),
            ]),
          ),
        ];
      case "tool-call-delta": {
        const call = calls.accept(event);
        return call ? [callFrame(call)] : [];
      }
      case "finish": {
        const unsent = calls.flush().map(callFrame);
        if (event.reason === "error") return [...unsent, ...fail({ message: "The model stopped with an error.", status: 502 })];
        ended.finished = true;
        const last = chunk([{ text: "" }], CANONICAL_TO_GOOGLE_FINISH_REASON[event.reason]);
        return [...unsent, frame(event.usage ? { ...last, usageMetadata: renderGoogleUsage(event.usage) } : last)];
      }
      case "error":
        return fail(event.error);
    }
  });
}
