/** Public surface of the provider layer (re-exported from the package root by the coordinator). */
export { createProvider, createProviderRegistry, ProviderRegistry, UnknownProviderError, PROVIDER_APIS } from "./registry.js";
export type { SharedProviderOptions } from "./registry.js";
export type { ProviderSettings } from "./shared/provider-settings.js";
export { HttpProvider } from "./http-provider.js";
export type { ProviderQuirks, ProviderEndpoint, OutgoingRequest, RequestSigner } from "./shared/provider-quirks.js";
export {
  createCappedFetch,
  shouldStopSdkRetry,
  DEFAULT_SDK_RETRY_MAX_WAIT_SECONDS,
  type CappedFetchOptions,
  type FetchFunction,
} from "./shared/capped-fetch.js";
export { getSharedAgent, postJson, CONNECT_TIMEOUT_MS, DEFAULT_PROVIDER_TIMEOUT_SECONDS } from "./shared/http-client.js";
export { readSseEvents, type SseEvent } from "./shared/sse.js";
export { readNdjsonLines } from "./shared/ndjson.js";
export { readBodyText, decodeTextStream } from "./shared/read-body.js";
export {
  failureFromHttpResponse,
  failureFromNetworkError,
  failureFromStreamError,
  streamEndedEarlyFailure,
  deadlineFailure,
  abortReasonOf,
  redactSecrets,
  type WireErrorDetails,
} from "./shared/upstream-failure.js";
export { openAiChatRequestSchema, openAiChatChunkSchema, openAiChatCompletionSchema } from "../wire/openai-chat/schemas.js";
export { responsesRequestSchema, responsesResponseSchema, responsesStreamEventSchema } from "../wire/openai-responses/schemas.js";
export { anthropicMessagesRequestSchema, anthropicMessageSchema, anthropicStreamEventSchema } from "../wire/anthropic-messages/schemas.js";
export { googleGenerateContentRequestSchema, googleGenerateContentResponseSchema } from "../wire/google-generative-ai/schemas.js";
export { ollamaChatRequestSchema, ollamaChatResponseSchema } from "../wire/ollama/schemas.js";
