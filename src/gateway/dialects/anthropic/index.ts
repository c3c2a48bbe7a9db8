/** The Anthropic messages dialect of the gateway: parse, render, SSE frames, errors, stop reasons. */
export {
  anthropicMessagesRequestSchema,
  type AnthropicMessage,
  type AnthropicMessagesRequest,
} from "./anthropic-request-schema.js";
export {
  parseAnthropicMessagesRequest,
  toCanonicalFromAnthropic,
  type AnthropicParseResult,
} from "./parse-anthropic-request.js";
export { renderAnthropicMessage, toolInputFromArguments } from "./render-anthropic-response.js";
export {
  createAnthropicStreamEncoder,
  encodeAnthropicStream,
  type AnthropicStreamEncoder,
  type AnthropicStreamOptions,
} from "./anthropic-sse.js";
export {
  ANTHROPIC_ERROR_TYPE_BY_STATUS,
  anthropicErrorTypeForStatus,
  anthropicStreamErrorFrame,
  renderAnthropicError,
  renderAnthropicValidationError,
  type AnthropicErrorBody,
  type AnthropicErrorInput,
} from "./anthropic-errors.js";
export {
  ANTHROPIC_TO_CANONICAL_STOP_REASON,
  CANONICAL_TO_ANTHROPIC_STOP_REASON,
  type AnthropicStopReason,
} from "./anthropic-stop-reasons.js";
