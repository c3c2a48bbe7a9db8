/**
 * The Gemini `generateContent` wire format: Detour's `google-generative-ai` provider writes requests and
 * reads answers and streams with it; the mock provider reads requests and writes answers with it. One finish-reason table, one usage mapping (R-GW-6, R-GW-7).
 */
export * from "./schemas.js";
export { encodeGoogleRequest, toGoogleRequest } from "./encode-request.js";
export { fromGoogleResponse, googleUsage, rawFinishReasonOf, type GoogleIds } from "./decode-response.js";
export { GoogleStreamTranslator } from "./decode-stream.js";
export { CANONICAL_TO_GOOGLE_FINISH_REASON, GOOGLE_FINISH_REASONS, mapGoogleFinishReason } from "./finish-reasons.js";
export { parseGoogleRequest } from "./decode-request.js";
export { renderGoogleResponse, renderGoogleUsage } from "./encode-response.js";
export { createGoogleStreamEncoder } from "./encode-stream.js";
export { renderGoogleError } from "./errors.js";
export { describeGoogleError, describeGoogleErrorObject } from "./read-error.js";
export { googleGenerativeAiWire } from "./format.js";
