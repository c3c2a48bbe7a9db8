/**
 * One row per error preset: the HTTP status and, for each wire format, the provider's real error body
 * fields (type/code names and message wording as the provider documents or sends them). `{model}` in a
 * message is replaced with the requested model.
 */
import type { MockErrorPreset, MockWireApi } from "./scenario-schema.js";

export interface ErrorPresetRow {
  status: number;
  openai: { message: string; type: string | null; code: string | null; param?: string };
  anthropic: { type: string; message: string };
  google: { status: string; message: string };
  ollama: { message: string };
}

export const ERROR_PRESET_TABLE: Readonly<Record<MockErrorPreset, ErrorPresetRow>> = {
  "rate-limit": {
    status: 429,
    openai: {
      message: "Rate limit reached for {model} in organization org-mock on requests per min (RPM): Limit 3, Used 3, Requested 1.",
      type: "requests",
      code: "rate_limit_exceeded",
    },
    anthropic: {
      type: "rate_limit_error",
      message: "This request would exceed the rate limit for your organization of 50 requests per minute.",
    },
    google: { status: "RESOURCE_EXHAUSTED", message: "Resource has been exhausted (e.g. check quota)." },
    ollama: { message: "rate limit exceeded: too many requests" },
  },
  billing: {
    status: 402,
    openai: {
      message: "You exceeded your current quota, please check your plan and billing details.",
      type: "insufficient_quota",
      code: "insufficient_quota",
    },
    anthropic: {
      type: "billing_error",
      message: "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.",
    },
    google: {
      status: "FAILED_PRECONDITION",
      message: "Insufficient credits: the billing account of this project has no balance. Add more credits to continue.",
    },
    ollama: { message: "insufficient credits: payment required" },
  },
  "revoked-key": {
    status: 401,
    openai: {
      message: "The API key has been revoked. Create a new key at https://platform.openai.com/account/api-keys.",
      type: "invalid_request_error",
      code: "invalid_api_key",
    },
    anthropic: { type: "authentication_error", message: "This API key has been revoked." },
    google: { status: "UNAUTHENTICATED", message: "API key has been revoked. Please create a new API key." },
    ollama: { message: "unauthorized: api key has been revoked" },
  },
  "invalid-key": {
    status: 401,
    openai: {
      message: "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.",
      type: "invalid_request_error",
      code: "invalid_api_key",
    },
    anthropic: { type: "authentication_error", message: "invalid x-api-key" },
    google: { status: "UNAUTHENTICATED", message: "API key not valid. Please pass a valid API key." },
    ollama: { message: "unauthorized" },
  },
  "server-error": {
    status: 500,
    openai: {
      message: "The server had an error while processing your request. Sorry about that!",
      type: "server_error",
      code: null,
    },
    anthropic: { type: "api_error", message: "Internal server error" },
    google: {
      status: "INTERNAL",
      message: "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
    },
    ollama: { message: "internal server error" },
  },
  unavailable: {
    status: 503,
    openai: { message: "The server is overloaded or not ready yet.", type: "server_error", code: null },
    anthropic: { type: "api_error", message: "Service unavailable" },
    google: { status: "UNAVAILABLE", message: "The model is overloaded. Please try again later." },
    ollama: { message: "server busy, please try again. maximum pending requests exceeded" },
  },
  overloaded: {
    status: 529,
    openai: { message: "The engine is currently overloaded, please try again later", type: "server_error", code: "overloaded" },
    anthropic: { type: "overloaded_error", message: "Overloaded" },
    google: { status: "UNAVAILABLE", message: "The model is overloaded. Please try again later." },
    ollama: { message: "server overloaded, please try again" },
  },
  "context-overflow": {
    status: 400,
    openai: {
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
      type: "invalid_request_error",
      code: "context_length_exceeded",
      param: "messages",
    },
    anthropic: { type: "invalid_request_error", message: "prompt is too long: 212000 tokens > 200000 maximum" },
    google: {
      status: "INVALID_ARGUMENT",
      message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
    },
    ollama: { message: "context length exceeded" },
  },
  "content-filter": {
    status: 400,
    openai: {
      message:
        "Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.",
      type: "invalid_request_error",
      code: "content_policy_violation",
    },
    anthropic: { type: "invalid_request_error", message: "Output blocked by content filtering policy" },
    google: {
      status: "INVALID_ARGUMENT",
      message: "The request was blocked by the content_filter: it violates the responsible AI policy.",
    },
    ollama: { message: "request blocked by content_filter" },
  },
  "model-not-found": {
    status: 404,
    openai: {
      message: "The model `{model}` does not exist or you do not have access to it.",
      type: "invalid_request_error",
      code: "model_not_found",
    },
    anthropic: { type: "not_found_error", message: "model: {model}" },
    google: {
      status: "NOT_FOUND",
      message: "models/{model} is not found for API version v1beta, or is not supported for generateContent.",
    },
    ollama: { message: 'model "{model}" not found, try pulling it first' },
  },
};

/** The preset a bare status most resembles, so a custom `status` step without body still looks real. */
export function presetForStatus(status: number): MockErrorPreset {
  if (status === 429) return "rate-limit";
  if (status === 402) return "billing";
  if (status === 401 || status === 403) return "invalid-key";
  if (status === 404) return "model-not-found";
  if (status === 503) return "unavailable";
  if (status === 529) return "overloaded";
  if (status >= 500) return "server-error";
  return "context-overflow";
}

/** A preset resolved for one request: status, message with the model filled in, retry hint. */
export interface ResolvedMockError {
  preset: MockErrorPreset;
  status: number;
  row: ErrorPresetRow;
  /** Replaces every wire's message when set. */
  message?: string;
  retryAfterSeconds?: number;
  model: string;
}

export function messageFor(error: ResolvedMockError, api: MockWireApi): string {
  // The Responses API answers errors in OpenAI's words; Bedrock relays a model's own failures in Anthropic's.
  const row = api === "openai-responses" ? "openai" : api === "bedrock" ? "anthropic" : api;
  const template = error.message ?? error.row[row].message;
  return template.replaceAll("{model}", error.model);
}
