/**
 * The Gemini `generateContent` wire format as one `WireFormat` (wire/wire-format.ts). Detour speaks it as a
 * client of providers only: no client-side decode, render, stream encoder or same-wire lane.
 */
import type { WireFormat } from "../wire-format.js";
import { parseWireJson, validateWire } from "../shared/wire-json.js";
import { fromGoogleResponse, googleUsage, rawFinishReasonOf } from "./decode-response.js";
import { encodeGoogleRequest } from "./encode-request.js";
import { GOOGLE_FINISH_REASONS } from "./finish-reasons.js";
import { describeGoogleError, describeGoogleErrorObject } from "./read-error.js";
import { googleErrorObjectSchema, googleGenerateContentResponseSchema, googleUsageSchema } from "./schemas.js";

/** Google Generative AI (`models/{model}:generateContent`), config `api: "google-generative-ai"`. */
export const googleGenerativeAiWire: WireFormat = {
  id: "google-generative-ai",
  aliases: [],
  finish: { toCanonical: GOOGLE_FINISH_REASONS },
  usage: {
    read(raw) {
      if (raw === undefined || raw === null) return undefined;
      const usage = validateWire(raw, googleUsageSchema);
      return usage.ok ? googleUsage(usage.value) : undefined;
    },
  },
  errors: {
    read: describeGoogleError,
    readStreamError(raw) {
      const error = validateWire(raw, googleErrorObjectSchema);
      return error.ok ? describeGoogleErrorObject(error.value) : { message: JSON.stringify(raw) };
    },
  },
  // The model is in the URL, and streaming is a different method: the body says neither.
  request: { encode: (request) => encodeGoogleRequest(request) },
  response: {
    decode(text, fallback) {
      const parsed = parseWireJson(text, googleGenerateContentResponseSchema);
      if (!parsed.ok) return { ok: false, problem: parsed.problem };
      const response = fromGoogleResponse(parsed.value, fallback);
      const rawFinishReason = rawFinishReasonOf(parsed.value);
      return { ok: true, response, ...(rawFinishReason !== undefined ? { rawFinishReason } : {}) };
    },
  },
  stream: {},
};
