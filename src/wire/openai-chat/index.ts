/**
 * The OpenAI Chat Completions wire format, both directions: Detour's provider writes requests and reads
 * answers with it, the gateway's OpenAI dialect reads requests and writes answers, and the mock provider
 * serves it. One finish-reason table, one usage mapping (R-GW-6, R-GW-7).
 */
export * from "./schemas.js";
export {
  openAIChatRequestSchema,
  openAIMessageSchema,
  OPENAI_MAPPED_FIELDS,
  type OpenAIChatRequest,
  type OpenAIMessage,
} from "./request-schema.js";
export { parseOpenAIChatRequest, toCanonicalFromOpenAI, type OpenAIParseResult } from "./decode-request.js";
export {
  encodeOpenAiRequest,
  maxTokensFieldFor,
  toOpenAiMessages,
  type MaxTokensField,
  type OpenAiEncodeOptions,
} from "./encode-request.js";
export { decodeOpenAiResponse } from "./decode-response.js";
export { OpenAiStreamTranslator, type OpenAiStreamStep } from "./decode-stream.js";
export { renderOpenAIChatCompletion, type OpenAIRenderOptions } from "./encode-response.js";
export { renderOpenAIUsage, usageFromOpenAi } from "./usage.js";
export {
  OPENAI_DONE_FRAME,
  createOpenAIStreamEncoder,
  encodeOpenAIStream,
  type OpenAIStreamEncoder,
  type OpenAIStreamOptions,
} from "./encode-stream.js";
export {
  OPENAI_ERROR_TYPE_BY_STATUS,
  openAIErrorTypeForStatus,
  openAIStreamErrorFrame,
  renderOpenAIError,
  renderOpenAIValidationError,
  type OpenAIErrorBody,
  type OpenAIErrorInput,
} from "./errors.js";
export {
  CANONICAL_TO_OPENAI_FINISH_REASON,
  OPENAI_FINISH_REASONS,
  OPENAI_TO_CANONICAL_FINISH_REASON,
  mapOpenAiFinishReason,
  type OpenAIFinishReason,
} from "./finish-reasons.js";
export { describeOpenAiError, describeOpenAiErrorObject, describeOpenAiStreamError } from "./read-error.js";
export { openAIChatLane } from "./lane.js";
export { openAIChatWire } from "./format.js";
