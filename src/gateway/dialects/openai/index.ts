/** The OpenAI chat completions dialect of the gateway: parse, render, SSE frames, errors, finish reasons. */
export { openAIChatRequestSchema, type OpenAIChatRequest, type OpenAIMessage } from "./openai-request-schema.js";
export { parseOpenAIChatRequest, toCanonicalFromOpenAI, type OpenAIParseResult } from "./parse-openai-request.js";
export { renderOpenAIChatCompletion, renderOpenAIUsage, type OpenAIRenderOptions } from "./render-openai-response.js";
export {
  OPENAI_DONE_FRAME,
  createOpenAIStreamEncoder,
  encodeOpenAIStream,
  type OpenAIStreamEncoder,
  type OpenAIStreamOptions,
} from "./openai-sse.js";
export {
  OPENAI_ERROR_TYPE_BY_STATUS,
  openAIErrorTypeForStatus,
  openAIStreamErrorFrame,
  renderOpenAIError,
  renderOpenAIValidationError,
  type OpenAIErrorBody,
  type OpenAIErrorInput,
} from "./openai-errors.js";
export {
  CANONICAL_TO_OPENAI_FINISH_REASON,
  OPENAI_TO_CANONICAL_FINISH_REASON,
  type OpenAIFinishReason,
} from "./openai-finish-reasons.js";
