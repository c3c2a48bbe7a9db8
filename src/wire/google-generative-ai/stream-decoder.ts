/** A Gemini `streamGenerateContent` stream read into canonical events, one chunk at a time (WireFormat `stream.decoder`). */
import type { StreamDecodeSink, StreamDecoderOptions, WireStreamDecoder } from "../wire-format.js";
import { parseJsonText, validateWire } from "../shared/wire-json.js";
import { GoogleStreamTranslator } from "./decode-stream.js";
import { describeGoogleErrorObject } from "./read-error.js";
import { googleErrorObjectSchema, googleGenerateContentResponseSchema } from "./schemas.js";

export function createGoogleStreamDecoder(options: StreamDecoderOptions): WireStreamDecoder {
  const translator = new GoogleStreamTranslator(options);
  /** One chunk's events: an error chunk ends the stream, a malformed one is skipped and counted. */
  const takeValue = (value: unknown, raw: () => string, sink: StreamDecodeSink): void => {
    if (typeof value === "object" && value !== null && "error" in value) {
      const error = validateWire((value as { error: unknown }).error, googleErrorObjectSchema);
      sink.error(error.ok ? describeGoogleErrorObject(error.value) : { message: raw() });
    }
    const chunk = validateWire(value, googleGenerateContentResponseSchema);
    if (!chunk.ok) {
      sink.malformed(raw(), chunk.problem);
      return;
    }
    for (const event of translator.accept(chunk.value)) sink.event(event);
    if (translator.failedWith !== undefined) sink.failed(translator.failedWith);
  };
  const end = (sink: StreamDecodeSink): void => {
    // Gemini streams have no end marker: the body ending after a finish reason is the end (R-ST-2).
    const finish = translator.finishAtEnd();
    if (!finish) return sink.cut();
    for (const event of finish) sink.event(event);
  };
  return {
    take(data, sink) {
      const json = parseJsonText(data);
      if (!json.ok) sink.malformed(data, json.problem);
      else takeValue(json.value, () => data, sink);
      return false;
    },
    end,
    // R-GW-10: without `alt=sse` Gemini sends the stream's chunks as one JSON array; a single answer object is
    // the same chunk read whole.
    whole(text, sink) {
      const json = parseJsonText(text);
      if (!json.ok) return { problem: json.problem };
      for (const value of Array.isArray(json.value) ? (json.value as unknown[]) : [json.value])
        takeValue(value, () => JSON.stringify(value), sink);
      end(sink);
      return undefined;
    },
  };
}
