/** An Anthropic Messages SSE stream read into canonical events, one event at a time (WireFormat `stream.decoder`). */
import type { StreamDecoderOptions, WireStreamDecoder } from "../wire-format.js";
import { parseJsonText } from "../shared/wire-json.js";
import { AnthropicStreamTranslator } from "./decode-stream.js";
import { describeAnthropicStreamError } from "./read-error.js";
import { ANTHROPIC_STREAM_EVENT_TYPES } from "./schemas.js";
import { readAnthropicStreamEvent } from "./stream-event.js";

export function createAnthropicStreamDecoder(options: StreamDecoderOptions): WireStreamDecoder {
  const translator = new AnthropicStreamTranslator({ dropped: options.dropped });
  return {
    take(data, sink) {
      const json = parseJsonText(data);
      if (!json.ok) {
        sink.malformed(data, json.problem);
        return false;
      }
      const type = typeof json.value === "object" && json.value !== null ? (json.value as { type?: unknown }).type : undefined;
      // Anthropic documents that new event types may appear; they are skipped, not counted as malformed.
      if (typeof type === "string" && !ANTHROPIC_STREAM_EVENT_TYPES.has(type)) return false;
      const event = readAnthropicStreamEvent(json.value);
      if (!event.ok) {
        sink.malformed(data, event.problem);
        return false;
      }
      const value = event.value;
      if (value.type === "error") return sink.error(describeAnthropicStreamError(value.error));
      return translator.take(value, (canonical) => sink.event(canonical));
    },
    end(sink) {
      const finish = translator.finishAtEnd();
      if (!finish) return sink.cut();
      for (const event of finish) sink.event(event);
    },
  };
}
