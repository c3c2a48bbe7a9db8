/** An OpenAI Chat Completions SSE stream read into canonical events, one event at a time (WireFormat `stream.decoder`). */
import type { CanonicalStreamEvent } from "../../ports/canonical.js";
import type { StreamDecodeSink, StreamDecoderOptions, WireStreamDecoder } from "../wire-format.js";
import { parseJsonText, validateWire } from "../shared/wire-json.js";
import { OpenAiStreamTranslator } from "./decode-stream.js";
import { describeOpenAiStreamError } from "./read-error.js";
import { openAiChatChunkSchema } from "./schemas.js";

function emitAll(events: readonly CanonicalStreamEvent[], sink: StreamDecodeSink): void {
  for (const event of events) sink.event(event);
}

export function createOpenAiStreamDecoder(options: StreamDecoderOptions): WireStreamDecoder {
  const translator = new OpenAiStreamTranslator({ model: options.model, createId: options.createResponseId, dropped: options.dropped });
  return {
    take(raw, sink) {
      const data = raw.trim();
      if (data === "[DONE]") {
        emitAll(translator.finishOnDone(), sink);
        return true;
      }
      const json = parseJsonText(data);
      if (!json.ok) {
        sink.malformed(data, json.problem);
        return false;
      }
      // In-band errors arrive as a chunk with an `error` member (OpenRouter, many compatible servers), read as
      // the same-wire lane reads them, so both lanes report them alike (R-ST-2).
      const value = json.value;
      if (typeof value === "object" && value !== null && "error" in value) {
        const error = (value as { error: unknown }).error;
        if (error !== null && error !== undefined) sink.error(describeOpenAiStreamError(error));
      }
      const chunk = validateWire(value, openAiChatChunkSchema);
      if (!chunk.ok) {
        sink.malformed(data, chunk.problem);
        return false;
      }
      const step = translator.accept(chunk.value);
      emitAll(step.events, sink);
      if (step.failedWith !== undefined) sink.failed(step.failedWith);
      if (!step.complete) return false;
      // Finish reason and usage are in: finalise now rather than wait for a `[DONE]` that some compatible
      // servers never send (R-ST-2). What is left of the body is not read.
      emitAll(translator.finishOnDone(), sink);
      return true;
    },
    end(sink) {
      const finish = translator.finishAtEnd();
      if (!finish) return sink.cut();
      emitAll(finish, sink);
    },
  };
}
