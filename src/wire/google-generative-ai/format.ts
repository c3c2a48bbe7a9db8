/**
 * The Gemini `generateContent` wire format as one `WireFormat` (wire/wire-format.ts). Detour's provider writes
 * requests and reads answers with it; its server codecs (request decode, answer, stream and error render)
 * are what the mock provider answers with. The gateway does not speak it to clients: no same-wire lane.
 */
import type { WireFormat } from "../wire-format.js";
import { parseWireJson, validateWire } from "../shared/wire-json.js";
import { parseGoogleRequest } from "./decode-request.js";
import { fromGoogleResponse, googleUsage, rawFinishReasonOf } from "./decode-response.js";
import { encodeGoogleRequest } from "./encode-request.js";
import { renderGoogleResponse, renderGoogleUsage } from "./encode-response.js";
import { createGoogleStreamEncoder } from "./encode-stream.js";
import { renderGoogleError } from "./errors.js";
import { CANONICAL_TO_GOOGLE_FINISH_REASON, GOOGLE_FINISH_REASONS } from "./finish-reasons.js";
import { describeGoogleError, describeGoogleErrorObject } from "./read-error.js";
import { googleErrorObjectSchema, googleGenerateContentResponseSchema, googleUsageSchema } from "./schemas.js";
import { createGoogleStreamDecoder } from "./stream-decoder.js";

/** Google Generative AI (`models/{model}:generateContent`), config `api: "google-generative-ai"`. */
export const googleGenerativeAiWire: WireFormat = {
  id: "google-generative-ai",
  aliases: [],
  finish: { toCanonical: GOOGLE_FINISH_REASONS, fromCanonical: CANONICAL_TO_GOOGLE_FINISH_REASON },
  usage: {
    read(raw) {
      if (raw === undefined || raw === null) return undefined;
      const usage = validateWire(raw, googleUsageSchema);
      return usage.ok ? googleUsage(usage.value) : undefined;
    },
    render: renderGoogleUsage,
  },
  errors: {
    read: describeGoogleError,
    readStreamError(raw) {
      const error = validateWire(raw, googleErrorObjectSchema);
      return error.ok ? describeGoogleErrorObject(error.value) : { message: JSON.stringify(raw) };
    },
    render: renderGoogleError,
  },
  request: {
    encode: (request) => encodeGoogleRequest(request),
    // The model is in the URL, and streaming is a different method: the body says neither.
    decode(body, route) {
      if (!route?.model) return { ok: false, issues: [{ path: "(url)", message: "Model name is missing from the request path." }] };
      const parsed = parseGoogleRequest(body);
      if (!parsed.ok) return parsed;
      // A stream carries usage on its chunks always.
      return { ok: true, value: { request: parsed.request, model: route.model, stream: route.stream === true, includeUsage: true } };
    },
  },
  response: {
    decode(text, fallback) {
      const parsed = parseWireJson(text, googleGenerateContentResponseSchema);
      if (!parsed.ok) return { ok: false, problem: parsed.problem };
      const response = fromGoogleResponse(parsed.value, fallback);
      const rawFinishReason = rawFinishReasonOf(parsed.value);
      return { ok: true, response, ...(rawFinishReason !== undefined ? { rawFinishReason } : {}) };
    },
    render: (response) => renderGoogleResponse(response),
  },
  stream: { framing: "sse", decoder: createGoogleStreamDecoder, encoder: (options) => createGoogleStreamEncoder(options) },
};
