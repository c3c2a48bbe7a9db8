/**
 * A Bedrock stream read into canonical events (WireFormat `stream.decoder`). The pieces are AWS event-stream
 * messages as `{"<type>": payload}`; a Claude stream (InvokeModelWithResponseStream) sends `chunk` messages
 * carrying Anthropic's events, read by Anthropic's own decoder, and any other model's ConverseStream sends
 * Converse events. Which one it is shows in the first event; an exception message ends either with its error.
 */
import { createAnthropicStreamDecoder } from "../anthropic-messages/stream-decoder.js";
import { parseJsonText } from "../shared/wire-json.js";
import type { StreamDecoderOptions, WireStreamDecoder } from "../wire-format.js";
import { anthropicEventOfChunk } from "./anthropic-on-bedrock.js";
import { describeBedrockStreamException } from "./errors.js";
import { ConverseStreamTranslator } from "./converse-stream.js";

export function createBedrockStreamDecoder(options: StreamDecoderOptions): WireStreamDecoder {
  let anthropic: WireStreamDecoder | undefined;
  let converse: ConverseStreamTranslator | undefined;
  return {
    take(data, sink) {
      const json = parseJsonText(data);
      const entry = json.ok && typeof json.value === "object" && json.value !== null ? Object.entries(json.value)[0] : undefined;
      if (!entry) {
        sink.malformed(data, json.ok ? "not an AWS event-stream message" : json.problem);
        return false;
      }
      const [type, payload] = entry;
      if (/exception$/i.test(type)) return sink.error(describeBedrockStreamException(type, payload));
      if (type === "chunk" && !converse) {
        const event = anthropicEventOfChunk(payload);
        if (event === undefined) {
          sink.malformed(data, "a chunk without bytes");
          return false;
        }
        anthropic ??= createAnthropicStreamDecoder(options);
        return anthropic.take(event, sink);
      }
      if (anthropic) {
        // Bedrock adds nothing but chunks to a Claude stream; another event there is not the format's.
        sink.malformed(data, `a ${type} event in an InvokeModel stream`);
        return false;
      }
      converse ??= new ConverseStreamTranslator(options);
      return converse.take(type, payload, data, sink);
    },
    end(sink) {
      if (anthropic) return anthropic.end(sink);
      if (converse) return converse.end(sink);
      return sink.cut();
    },
  };
}
