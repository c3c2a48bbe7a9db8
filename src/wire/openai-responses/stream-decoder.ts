/** An OpenAI Responses SSE stream read into canonical events, one event at a time (WireFormat `stream.decoder`). */
import type { StreamDecoderOptions, WireStreamDecoder } from "../wire-format.js";
import { withBodyResets } from "../shared/body-reset-hints.js";
import { parseWireJson } from "../shared/wire-json.js";
import { ResponsesStreamTranslator } from "./decode-stream.js";
import { responsesStreamEventSchema } from "./schemas.js";

export function createResponsesStreamDecoder(options: StreamDecoderOptions): WireStreamDecoder {
  const translator = new ResponsesStreamTranslator({ model: options.model, createId: options.createResponseId, dropped: options.dropped });
  return {
    take(raw, sink) {
      const data = raw.trim();
      const parsed = parseWireJson(data, responsesStreamEventSchema);
      if (!parsed.ok) {
        sink.malformed(data, parsed.problem);
        return false;
      }
      const step = translator.accept(parsed.value);
      for (const event of step.events) sink.event(event);
      // R-EC-6: a reset the `error` event states is read like a header's.
      if (step.failure) sink.error(withBodyResets(step.failure, parsed.value));
      // `response.completed` is the last event.
      return step.complete;
    },
    end: (sink) => sink.cut(),
  };
}
