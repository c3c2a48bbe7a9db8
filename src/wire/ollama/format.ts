/**
 * The Ollama `/api/chat` wire format as one `WireFormat` (wire/wire-format.ts). Detour's provider writes
 * requests and reads answers with it; its server codecs (request decode, answer, stream and error render)
 * are what the mock provider answers with. The gateway does not speak it to clients: no same-wire lane.
 */
import type { CanonicalUsage } from "../../ports/canonical.js";
import type { WireFormat } from "../wire-format.js";
import { parseWireJson } from "../shared/wire-json.js";
import { parseOllamaRequest } from "./decode-request.js";
import { fromOllamaResponse } from "./decode-response.js";
import { encodeOllamaRequest } from "./encode-request.js";
import { renderOllamaResponse, renderOllamaUsage } from "./encode-response.js";
import { createOllamaStreamEncoder } from "./encode-stream.js";
import { renderOllamaError } from "./errors.js";
import { CANONICAL_TO_OLLAMA_FINISH_REASON, OLLAMA_FINISH_REASONS } from "./finish-reasons.js";
import { describeOllamaError } from "./read-error.js";
import { ollamaChatResponseSchema } from "./schemas.js";
import { createOllamaStreamDecoder } from "./stream-decoder.js";

/** Ollama's usage is two counts on the answer's (or the last stream line's) top level. */
function usageOfLine(raw: unknown): CanonicalUsage | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const { prompt_eval_count: input, eval_count: output } = raw as { prompt_eval_count?: unknown; eval_count?: unknown };
  if (input !== undefined && typeof input !== "number") return undefined;
  if (output !== undefined && typeof output !== "number") return undefined;
  return { inputTokens: input ?? 0, outputTokens: output ?? 0 };
}

/** Ollama chat (`POST /api/chat`), config `api: "ollama"`. */
export const ollamaWire: WireFormat = {
  id: "ollama",
  aliases: [],
  finish: { toCanonical: OLLAMA_FINISH_REASONS, fromCanonical: CANONICAL_TO_OLLAMA_FINISH_REASON },
  usage: { read: usageOfLine, render: renderOllamaUsage },
  errors: {
    read: describeOllamaError,
    // A stream line `{"error":"…"}`: the text is all there is.
    readStreamError: (raw) => ({ message: typeof raw === "string" ? raw : JSON.stringify(raw) }),
    render: renderOllamaError,
  },
  request: {
    encode: (request, options) => encodeOllamaRequest(request, options),
    decode(body) {
      const parsed = parseOllamaRequest(body);
      if (!parsed.ok) return parsed;
      // The `done` line always carries the counts.
      return { ok: true, value: { request: parsed.request, model: parsed.model, stream: parsed.stream, includeUsage: true } };
    },
  },
  response: {
    decode(text, fallback) {
      const parsed = parseWireJson(text, ollamaChatResponseSchema);
      if (!parsed.ok) return { ok: false, problem: parsed.problem };
      const response = fromOllamaResponse(parsed.value, fallback);
      return { ok: true, response, ...(parsed.value.done_reason !== undefined ? { rawFinishReason: parsed.value.done_reason } : {}) };
    },
    render: (response, options) => renderOllamaResponse(response, options),
  },
  stream: { framing: "ndjson", decoder: createOllamaStreamDecoder, encoder: (options) => createOllamaStreamEncoder(options) },
};
