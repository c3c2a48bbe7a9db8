/**
 * The Ollama `/api/chat` wire format: Detour's `ollama` provider writes requests and reads answers and
 * NDJSON streams with it. One finish-reason table, one usage mapping (R-GW-6, R-GW-7).
 */
export * from "./schemas.js";
export { encodeOllamaRequest, toOllamaRequest } from "./encode-request.js";
export { fromOllamaResponse, usageOf, finishOf, toolCallsOf, type OllamaIds } from "./decode-response.js";
export { OllamaStreamTranslator } from "./decode-stream.js";
export { OLLAMA_FINISH_REASONS, mapOllamaFinishReason } from "./finish-reasons.js";
export { describeOllamaError } from "./read-error.js";
export { ollamaWire } from "./format.js";
