/**
 * The Anthropic Messages wire format, both directions: Detour's provider writes requests and reads
 * answers with it, the gateway's Anthropic dialect reads requests and writes answers, and the mock
 * provider serves it. One stop-reason table, one usage mapping (R-GW-6, R-GW-7).
 */
export * from "./schemas.js";
export {
  ANTHROPIC_MAPPED_FIELDS,
  anthropicMessagesRequestSchema as anthropicClientRequestSchema,
  type AnthropicMessage as AnthropicClientMessage,
  type AnthropicMessagesRequest as AnthropicClientRequest,
} from "./request-schema.js";
export { parseAnthropicMessagesRequest, toCanonicalFromAnthropic, type AnthropicParseResult } from "./decode-request.js";
export { DEFAULT_ANTHROPIC_MAX_TOKENS, encodeAnthropicRequest } from "./encode-request.js";
export { fromAnthropicResponse } from "./decode-response.js";
export { AnthropicStreamTranslator } from "./decode-stream.js";
export { renderAnthropicMessage, thinkingBlock, toolInputFromArguments } from "./encode-response.js";
export { anthropicInputTokens, renderAnthropicUsage, usageFromAnthropic } from "./usage.js";
export {
  createAnthropicStreamEncoder,
  encodeAnthropicStream,
  type AnthropicStreamEncoder,
  type AnthropicStreamOptions,
} from "./encode-stream.js";
export {
  ANTHROPIC_ERROR_TYPE_BY_STATUS,
  anthropicErrorTypeForStatus,
  anthropicStreamErrorFrame,
  renderAnthropicError,
  renderAnthropicValidationError,
  type AnthropicErrorBody,
  type AnthropicErrorInput,
} from "./errors.js";
export {
  ANTHROPIC_FINISH_REASONS,
  ANTHROPIC_TO_CANONICAL_STOP_REASON,
  CANONICAL_TO_ANTHROPIC_STOP_REASON,
  mapAnthropicFinishReason,
  type AnthropicStopReason,
} from "./finish-reasons.js";
export {
  describeAnthropicError,
  describeAnthropicStreamError,
  describeAnthropicStreamErrorValue,
  ANTHROPIC_ERROR_TYPE_STATUS,
} from "./read-error.js";
export { anthropicMessagesLane } from "./lane.js";
export { anthropicMessagesWire } from "./format.js";
