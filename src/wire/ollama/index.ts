/**
 * The Ollama `/api/chat` wire format: Detour's `ollama` provider writes requests and reads answers and
 * NDJSON streams with it; the mock provider reads requests and writes answers with it. One finish-reason table, one usage mapping (R-GW-6, R-GW-7).
 */
export * from "./schemas.js";
export { encodeOllamaRequest, toOllamaRequest } from "./encode-request.js";
export { fromOllamaResponse, usageOf, finishOf, toolCallsOf, type OllamaIds } from "./decode-response.js";
export { OllamaStreamTranslator } from "./decode-stream.js";
export { CANONICAL_TO_OLLAMA_FINISH_REASON, OLLAMA_FINISH_REASONS, mapOllamaFinishReason } from "./finish-reasons.js";
export { parseOllamaRequest } from "./decode-request.js";
export { renderOllamaResponse, renderOllamaUsage } from "./encode-response.js";
export { createOllamaStreamEncoder } from "./encode-stream.js";
export { renderOllamaError } from "./errors.js";
export { describeOllamaError } from "./read-error.js";
export { ollamaWire } from "./format.js";
