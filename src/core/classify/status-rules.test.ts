import { describe } from "vitest";
import { row, testClassificationRows, testRuleCoverage } from "./__fixtures__/classification-table.js";
import { MISREAD_ROWS } from "./__fixtures__/misread-families.js";
import { STATUS_RULES } from "./status-rules.js";

const html = (title: string): string =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>nginx</center></body></html>`;

const rows = [
  // 402
  row(
    "R-EC-3: 402 daily limit reached, resets tomorrow → rate_limit",
    { provider: "zai", status: 402, message: "daily limit reached, resets tomorrow" },
    "rate_limit",
    "status/402-usage-window",
  ),
  row(
    "R-EC-3: 402 weekly usage limit exhausted → rate_limit",
    { provider: "kimi", status: 402, message: "weekly usage limit exhausted" },
    "rate_limit",
    "status/402-usage-window",
  ),
  row(
    "R-EC-3: 402 organization spending limit exceeded → rate_limit",
    { provider: "anthropic", status: 402, message: "organization spending limit exceeded" },
    "rate_limit",
    "status/402-usage-window",
  ),
  row(
    "R-EC-3: 402 workspace spending limit exceeded → rate_limit",
    { provider: "anthropic", status: 402, message: "Workspace spending limit exceeded" },
    "rate_limit",
    "status/402-usage-window",
  ),
  row(
    "R-EC-3: 402 'try again' window → rate_limit",
    { provider: "minimax", status: 402, message: "Plan quota used up; try again in 3 hours" },
    "rate_limit",
    "status/402-usage-window",
  ),
  row(
    "R-EC-3: 402 OpenRouter requires more credits → billing",
    {
      provider: "openrouter",
      status: 402,
      message:
        '{"error":{"message":"This request requires more credits, or fewer max_tokens. You requested up to 65536 tokens, but can only afford 12345.","code":402}}',
    },
    "billing",
    "status/402",
  ),
  row(
    "R-EC-3: 402 DeepSeek Insufficient Balance → billing",
    { provider: "deepseek", status: 402, message: "Insufficient Balance" },
    "billing",
    "status/402",
  ),
  row("R-EC-3: 402 with an empty body → billing", { provider: "openrouter", status: 402 }, "billing", "status/402"),
  row(
    "R-EC-3: 402 Payment Required weekly usage limit offering an upgrade → rate_limit",
    {
      provider: "minimax",
      status: 402,
      message: "Payment Required: weekly usage limit exhausted, resets Monday. Upgrade or purchase more credits.",
    },
    "rate_limit",
    "status/402-usage-window",
  ),
  row(
    "R-EC-3: 402 insufficient balance that says 'try again' stays billing",
    { provider: "deepseek", status: 402, message: "Insufficient Balance. Please top up and try again." },
    "billing",
    "status/402",
  ),
  // 429
  row(
    "R-EC-3: 429 OpenAI insufficient_quota (billing text with 429) → billing",
    {
      provider: "openai",
      status: 429,
      message:
        '{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}',
    },
    "billing",
    "status/429-billing",
  ),
  row(
    "R-EC-3: 429 xAI used all available credits → billing",
    {
      provider: "xai",
      status: 429,
      message:
        '429 "Your team 16f2151a-40f4-4a80-8ad0-cae00c27e8dd has either used all available credits or reached its monthly spending limit. To continue making API requests, please purchase more credits or raise your spending limit."',
    },
    "billing",
    "status/429-billing",
  ),
  row(
    "R-EC-3: 429 OpenAI requests per min → rate_limit",
    {
      provider: "openai",
      status: 429,
      message:
        '{"error":{"message":"Rate limit reached for gpt-4o in organization org-abc123 on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 120ms.","type":"requests","param":null,"code":"rate_limit_exceeded"}}',
    },
    "rate_limit",
    "status/429",
  ),
  row(
    "R-EC-3: 429 Gemini RESOURCE_EXHAUSTED with 'plan and billing details' → rate_limit",
    {
      provider: "google",
      status: 429,
      message:
        '{"error":{"code":429,"message":"You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.","status":"RESOURCE_EXHAUSTED"}}',
    },
    "rate_limit",
    "status/429",
  ),
  row(
    "R-EC-3: 429 OpenRouter free-models-per-day ('Add 10 credits' is not billing) → rate_limit",
    {
      provider: "openrouter",
      status: 429,
      message:
        '{"error":{"message":"Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day","code":429}}',
    },
    "rate_limit",
    "status/429",
  ),
  row(
    "R-EC-3: 429 Groq with a billing URL is still a rate limit",
    {
      provider: "groq",
      status: 429,
      message:
        "Rate limit reached for model `llama-3.1-8b-instant` on tokens per minute (TPM). Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing",
    },
    "rate_limit",
    "status/429",
  ),
  row(
    "R-EC-3: 429 Anthropic rate_limit_error → rate_limit",
    {
      provider: "anthropic",
      status: 429,
      message:
        '{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization of 50,000 input tokens per minute."}}',
    },
    "rate_limit",
    "status/429",
  ),
  row(
    "R-EC-3: 429 Bedrock ModelNotReadyException: the status beats the overloaded text",
    { provider: "bedrock", status: 429, message: "ModelNotReadyException: Model is not ready for inference." },
    "rate_limit",
    "status/429",
  ),
  row(
    "R-EC-3: 429 Ollama cloud weekly usage limit → rate_limit",
    { provider: "ollama", status: 429, message: "you've reached your weekly usage limit, please upgrade" },
    "rate_limit",
    "status/429",
  ),
  row(
    "R-EC-3: 429 status as a string is still 429",
    { provider: "openai", status: "429" as unknown as number, message: "Too Many Requests" },
    "rate_limit",
    "status/429",
  ),
  row(
    "R-EC-3: 429 usage window that offers to purchase credits → rate_limit, not billing",
    {
      provider: "openai-codex",
      status: 429,
      message: "You've hit your usage limit. Purchase more credits or try again at Jul 5th, 2026 8:19 PM.",
    },
    "rate_limit",
    "status/429",
  ),
  // 401 / 403
  row(
    "R-EC-3: 401 with rate-limit text is auth (status beats message)",
    { provider: "openai", status: 401, message: "rate limit exceeded for this key" },
    "auth",
    "status/401-403",
  ),
  row(
    "R-EC-3: 401 Anthropic invalid x-api-key → auth",
    {
      provider: "anthropic",
      status: 401,
      message: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}',
    },
    "auth",
    "status/401-403",
  ),
  row(
    "R-EC-3: 401 OpenAI incorrect API key → auth",
    {
      provider: "openai",
      status: 401,
      message:
        "Incorrect API key provided: sk-proj-********************abcd. You can find your API key at https://platform.openai.com/account/api-keys.",
    },
    "auth",
    "status/401-403",
  ),
  row(
    "R-EC-3: 403 Anthropic permission_error → auth",
    {
      provider: "anthropic",
      status: 403,
      message:
        '{"type":"error","error":{"type":"permission_error","message":"Your API key does not have permission to use the specified resource."}}',
    },
    "auth",
    "status/401-403",
  ),
  row(
    "R-EC-3: 403 Bedrock AccessDeniedException → auth",
    {
      provider: "bedrock",
      status: 403,
      errorType: "AccessDeniedException",
      message: "You don't have access to the model with the specified model ID.",
    },
    "auth",
    "status/401-403",
  ),
  row(
    "R-EC-3: 401 API key revoked → auth_permanent",
    { provider: "openai", status: 401, message: "The API key you provided has been revoked." },
    "auth_permanent",
    "status/401-403-revoked",
  ),
  row(
    "R-EC-3: 403 deactivated workspace → auth_permanent",
    { provider: "anthropic", status: 403, message: "This request is not allowed: deactivated workspace" },
    "auth_permanent",
    "status/401-403-revoked",
  ),
  row(
    "R-EC-3: 403 Google consumer suspended → auth_permanent",
    {
      provider: "google",
      status: 403,
      message:
        '{"error":{"code":403,"message":"Permission denied: Consumer \'api_key:AIzaSyA1b2C3d4E5f6G7h8I9j0KLMNOPQRSTUVW\' has been suspended.","status":"PERMISSION_DENIED"}}',
    },
    "auth_permanent",
    "status/401-403-revoked",
  ),
  row(
    "R-EC-3: 403 OpenRouter Key limit exceeded → billing",
    {
      provider: "openrouter",
      status: 403,
      message: '{"error":{"message":"Key limit exceeded (total limit). Manage it using https://openrouter.ai/settings/keys","code":403}}',
    },
    "billing",
    "status/401-403-billing",
  ),
  row(
    "R-EC-3: 403 Key limit exceeded from another provider → auth",
    { provider: "together", status: 403, message: "Key limit exceeded" },
    "auth",
    "status/401-403",
  ),
  row(
    "R-EC-3: 403 xAI run out of credits → billing",
    {
      provider: "xai",
      status: 403,
      message: '{"code":"permission-denied","error":"You have run out of credits or need a Grok subscription."}',
    },
    "billing",
    "status/401-403-billing",
  ),
  row(
    "R-EC-3: 401 Anthropic credit balance too low → billing",
    { provider: "anthropic", status: 401, message: "Your credit balance is too low to access the Anthropic API." },
    "billing",
    "status/401-403-billing",
  ),
  // 408
  row(
    "R-EC-3: 408 Request Timeout → timeout",
    { provider: "openrouter", status: 408, message: "Request Timeout" },
    "timeout",
    "status/408",
  ),
  row(
    "R-EC-3: 408 with an HTML page → timeout",
    { provider: "openai", status: 408, message: html("408 Request Time-out") },
    "timeout",
    "status/408",
  ),
  // 404
  row(
    "R-EC-3: 404 Anthropic not_found_error → model_not_found",
    {
      provider: "anthropic",
      status: 404,
      message: '{"type":"error","error":{"type":"not_found_error","message":"model: claude-3-5-sonnet-2024"}}',
    },
    "model_not_found",
    "status/404",
  ),
  row(
    "R-EC-3: 404 OpenRouter no endpoints found that support tool use → model_not_found",
    { provider: "openrouter", status: 404, message: "No endpoints found that support tool use." },
    "model_not_found",
    "status/404",
  ),
  row("R-EC-3: 404 with an empty body → model_not_found", { provider: "ollama", status: 404 }, "model_not_found", "status/404"),
  row(
    "R-EC-3: 404 with auth text → auth",
    { provider: "azure", status: 404, message: "Unauthorized: invalid subscription key for this deployment" },
    "auth",
    "status/404-auth",
  ),
  row(
    "R-EC-3: 404 with billing text → billing",
    { provider: "openrouter", status: 404, message: "Insufficient credits for this model" },
    "billing",
    "status/404-billing",
  ),
  row(
    "R-EC-3: 404 with revoked-key text → auth_permanent",
    { provider: "openai", status: 404, message: "API key deleted" },
    "auth_permanent",
    "status/404-auth-permanent",
  ),
  row(
    "R-EC-3: 404 with context overflow text → context_overflow",
    { provider: "ollama", status: 404, message: "context length exceeded" },
    "context_overflow",
    "context_overflow/context-length-exceeded",
  ),
  // 529 / 503
  row(
    "R-EC-3: 529 Anthropic overloaded_error → overloaded",
    { provider: "anthropic", status: 529, message: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' },
    "overloaded",
    "status/529",
  ),
  row(
    "R-EC-3: 503 Gemini UNAVAILABLE overloaded → overloaded",
    {
      provider: "google",
      status: 503,
      message: '{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}',
    },
    "overloaded",
    "status/503",
  ),
  row(
    "R-EC-3: 503 Groq Service Unavailable → overloaded",
    { provider: "groq", status: 503, message: "Service Unavailable" },
    "overloaded",
    "status/503",
  ),
  row(
    "R-EC-3: 503 HTML page → overloaded",
    { provider: "openai", status: 503, message: html("503 Service Temporarily Unavailable") },
    "overloaded",
    "status/503",
  ),
  // 5xx
  row(
    "R-EC-3: 500 OpenAI structured server_error → server_error",
    {
      provider: "openai",
      status: 500,
      message:
        '{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}',
    },
    "server_error",
    "status/5xx-structured",
  ),
  row(
    "R-EC-3: 500 Gemini INTERNAL → server_error",
    { provider: "google", status: 500, message: '{"error":{"code":500,"message":"An internal error has occurred.","status":"INTERNAL"}}' },
    "server_error",
    "status/5xx-structured",
  ),
  row(
    "R-EC-3: 502 structured upstream_error → server_error",
    { provider: "openrouter", status: 502, message: '{"error":{"message":"Upstream failed","type":"upstream_error"}}' },
    "server_error",
    "status/5xx-structured",
  ),
  row(
    "R-EC-3: 500 HTML error page → timeout",
    { provider: "openai", status: 500, message: html("500 Internal Server Error") },
    "timeout",
    "status/5xx",
  ),
  row(
    "R-EC-3: 502 nginx Bad Gateway page → timeout",
    { provider: "ollama", status: 502, message: html("502 Bad Gateway") },
    "timeout",
    "status/5xx",
  ),
  row(
    "R-EC-3: 504 Gateway Timeout → timeout",
    { provider: "openrouter", status: 504, message: "Gateway Timeout" },
    "timeout",
    "status/5xx",
  ),
  row(
    "R-EC-3: 500 Anthropic api_error Internal server error → timeout",
    { provider: "anthropic", status: 500, message: '{"type":"error","error":{"type":"api_error","message":"Internal server error"}}' },
    "timeout",
    "status/5xx",
  ),
  row(
    "R-EC-3: 500 Ollama out of memory → timeout",
    { provider: "ollama", status: 500, message: '{"error":"model requires more system memory (5.3 GiB) than is available (4.4 GiB)"}' },
    "timeout",
    "status/5xx",
  ),
  row(
    "R-EC-3: 500 OpenRouter 'Provider returned error' (code 500 in body) → timeout",
    { provider: "openrouter", message: '{"error":{"message":"Provider returned error","code":500}}' },
    "timeout",
    "status/5xx",
  ),
  row(
    "R-EC-3: 500 with rate-limit text: the status beats the message",
    { provider: "vllm", status: 500, message: "rate limit middleware crashed" },
    "timeout",
    "status/5xx",
  ),
  // 400 / 422
  row("R-EC-3: empty 400 → unclassified", { provider: "openai", status: 400, message: "" }, "unclassified", "status/400-422-empty"),
  row(
    "R-EC-3: 400 status code (no body) → unclassified",
    { provider: "openai", message: "400 status code (no body)" },
    "unclassified",
    "status/400-422-empty",
  ),
  row("R-EC-3: empty 422 → unclassified", { provider: "mistral", status: 422 }, "unclassified", "status/400-422-empty"),
  row(
    "R-EC-3: 400 Gemini FAILED_PRECONDITION location → format",
    {
      provider: "google",
      status: 400,
      message: '{"error":{"code":400,"message":"User location is not supported for the API use.","status":"FAILED_PRECONDITION"}}',
    },
    "format",
    "status/400-422",
  ),
  row(
    "R-EC-3: 422 Mistral validation body → format",
    {
      provider: "mistral",
      status: 422,
      message:
        '{"object":"error","message":{"detail":[{"type":"missing","loc":["body","messages"],"msg":"Field required"}]},"type":"invalid_request_message_error"}',
    },
    "format",
    "status/400-422",
  ),
  row(
    "R-EC-3: 400 with rate-limit text → the message class",
    { provider: "openai-compatible", status: 400, message: "Too many requests from this IP" },
    "rate_limit",
    "rate_limit/too-many-requests",
  ),
  row(
    "R-EC-3: 400 Bedrock on-demand throughput not supported → format",
    {
      provider: "bedrock",
      status: 400,
      errorType: "ValidationException",
      message:
        "Invocation of model ID anthropic.claude-sonnet-4-20250514-v1:0 with on-demand throughput isn’t supported. Retry your request with the ID or ARN of an inference profile that contains this model.",
    },
    "format",
    "status/400-422",
  ),
];

describe("R-EC-3 status rules", () => {
  testClassificationRows(rows);
  testRuleCoverage(
    "R-EC-3: every status row decides at least one test row",
    [...rows, ...MISREAD_ROWS],
    STATUS_RULES.map((rule) => rule.id),
  );
});
