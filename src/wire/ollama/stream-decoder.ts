/** An Ollama NDJSON stream read into canonical events, one line at a time (WireFormat `stream.decoder`). */
import type { StreamDecodeSink, StreamDecoderOptions, WireStreamDecoder } from "../wire-format.js";
import { parseJsonText, validateWire } from "../shared/wire-json.js";
import { OllamaStreamTranslator } from "./decode-stream.js";
import { ollamaChatResponseSchema, ollamaErrorBodySchema } from "./schemas.js";

export function createOllamaStreamDecoder(options: StreamDecoderOptions): WireStreamDecoder {
  const translator = new OllamaStreamTranslator(options);
  return {
    take(line: string, sink: StreamDecodeSink): boolean {
      const json = parseJsonText(line);
      if (!json.ok) {
        sink.malformed(line, json.problem);
        return false;
      }
      const error = validateWire(json.value, ollamaErrorBodySchema);
      if (error.ok) sink.error({ message: error.value.error });
      const chunk = validateWire(json.value, ollamaChatResponseSchema);
      if (!chunk.ok) {
        sink.malformed(line, chunk.problem);
        return false;
      }
      const step = translator.accept(chunk.value);
      for (const event of step.events) sink.event(event);
      return step.complete;
    },
    // Ollama's last line carries `done: true`; without it the answer was cut short.
    end: (sink) => sink.cut(),
  };
}
