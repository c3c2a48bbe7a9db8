/**
 * The OpenAI Responses wire format (`POST /v1/responses`), both directions: Detour's `openai-responses`
 * provider writes requests and reads answers with it, the gateway's Responses dialect reads requests and
 * writes answers, the same-wire lane scans its streams, and the mock provider serves it. Error bodies are
 * OpenAI's (`wire/openai-chat/errors.ts`). One status table, one usage mapping (R-GW-6, R-GW-7).
 */
export * from "./schemas.js";
export {
  parseResponsesRequest,
  toCanonicalFromResponses,
  RESPONSES_FORMAT,
  type ResponsesDecoded,
  type ResponsesParseResult,
} from "./decode-request.js";
export { encodeResponsesRequest, type ResponsesEncodeOptions, type ResponsesWireRequest } from "./encode-request.js";
export { decodeResponsesResponse, contentOfOutput } from "./decode-response.js";
export { ResponsesStreamTranslator, type ResponsesStreamStep } from "./decode-stream.js";
export { renderResponsesResponse, responseEnvelope, type ResponsesRenderOptions } from "./encode-response.js";
export {
  createResponsesStreamEncoder,
  encodeResponsesStream,
  responsesSseEvent,
  type ResponsesStreamEncoder,
  type ResponsesStreamOptions,
} from "./encode-stream.js";
export { CANONICAL_TO_RESPONSES_STATUS, RESPONSES_FINISH_REASONS, finishReasonFromResponses } from "./status.js";
export { renderResponsesUsage, usageFromResponses } from "./usage.js";
export { statefulFieldOf } from "./state.js";
export { ResponsesStreamScanner, type ResponsesScannerOptions } from "./stream-scanner.js";
export { describeResponsesError, describeResponsesStreamError } from "./read-error.js";
export { openAIResponsesLane } from "./lane.js";
export { openAIResponsesWire } from "./format.js";
