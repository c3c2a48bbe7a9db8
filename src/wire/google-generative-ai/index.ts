/**
 * The Gemini `generateContent` wire format: Detour's `google-generative-ai` provider writes requests and
 * reads answers and streams with it. One finish-reason table, one usage mapping (R-GW-6, R-GW-7).
 */
export * from "./schemas.js";
export { encodeGoogleRequest, toGoogleRequest } from "./encode-request.js";
export { fromGoogleResponse, googleUsage, rawFinishReasonOf, type GoogleIds } from "./decode-response.js";
export { GoogleStreamTranslator } from "./decode-stream.js";
export { GOOGLE_FINISH_REASONS, mapGoogleFinishReason } from "./finish-reasons.js";
export { describeGoogleError, describeGoogleErrorObject } from "./read-error.js";
export { googleGenerativeAiWire } from "./format.js";
