/**
 * Real-world provider error texts, as providers document them and as SDKs, relays and runtimes pass them
 * on, each with the reason the seed system gives it (SPEC §3). Grouped by provider; several per provider.
 * Statuses are mostly left out on purpose: many adapters and relays hand over only the text.
 */
import type { FailoverReason } from "../../reasons.js";
import type { FailureInput } from "../../types.js";

export interface CorpusEntry {
  readonly provider: string;
  readonly input: Omit<FailureInput, "provider">;
  readonly reason: FailoverReason;
}

const e = (
  provider: string,
  reason: FailoverReason,
  message: string,
  extra: Omit<FailureInput, "provider" | "message"> = {},
): CorpusEntry => ({
  provider,
  reason,
  input: { message, ...extra },
});

export const PROVIDER_CORPUS: readonly CorpusEntry[] = [
  // OpenAI (and the openai SDKs: `429 …` prefix in Node, `Error code: 429 - {…}` in Python)
  e(
    "openai",
    "rate_limit",
    "429 Rate limit reached for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Used 29000, Requested 1500. Please try again in 1.2s.",
  ),
  e(
    "openai",
    "billing",
    "Error code: 429 - {'error': {'message': 'You exceeded your current quota, please check your plan and billing details.', 'type': 'insufficient_quota', 'param': None, 'code': 'insufficient_quota'}}",
  ),
  e(
    "openai",
    "auth",
    "401 Incorrect API key provided: sk-proj-****abcd. You can find your API key at https://platform.openai.com/account/api-keys.",
  ),
  e("openai", "model_not_found", "The model `gpt-5-turbo` does not exist or you do not have access to it."),
  e(
    "openai",
    "model_not_found",
    "404 The model `gpt-4-32k` has been deprecated, learn more here: https://platform.openai.com/docs/deprecations",
  ),
  e(
    "openai",
    "server_error",
    '{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}',
  ),
  e("openai", "timeout", "Request timed out."),
  e("openai", "timeout", "Connection error."),
  e(
    "openai",
    "overloaded",
    "Error code: 503 - {'error': {'message': 'The engine is currently overloaded, please try again later', 'type': 'server_error'}}",
  ),
  e(
    "openai",
    "context_overflow",
    "400 This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
  ),
  e("openai", "format", "400 Invalid 'messages[2].tool_calls[0].id': string too long. Expected a string with maximum length 40."),
  e("openai", "auth", "403 Project `proj_abc` does not have access to model `o3`"),
  // OpenAI Codex / ChatGPT subscription windows
  e(
    "openai-codex",
    "rate_limit",
    "You've hit your usage limit. Upgrade to Pro (https://openai.com/chatgpt/pricing), visit https://chatgpt.com/codex/settings/usage to purchase more credits or try again at Jul 5th, 2026 8:19 PM.",
  ),
  e(
    "openai-codex",
    "rate_limit",
    '429 {"error":{"type":"usage_limit_reached","message":"The usage limit has been reached","plan_type":"plus","resets_in_seconds":5400}}',
  ),
  e("openai-codex", "rate_limit", "Your weekly limit resets at 2026-07-09T00:00:00Z. Upgrade for higher limits."),
  // Anthropic
  e("anthropic", "overloaded", '529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'),
  e("anthropic", "overloaded", "Error code: 529 - {'type': 'error', 'error': {'type': 'overloaded_error', 'message': 'Overloaded'}}"),
  e(
    "anthropic",
    "rate_limit",
    '429 {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed your organization\'s rate limit of 80,000 output tokens per minute."}}',
  ),
  e(
    "anthropic",
    "billing",
    '400 {"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."}}',
  ),
  e(
    "anthropic",
    "auth_permanent",
    '400 {"type":"error","error":{"type":"invalid_request_error","message":"This organization has been disabled."}}',
  ),
  e(
    "anthropic",
    "auth_permanent",
    '403 {"type":"error","error":{"type":"permission_error","message":"OAuth authentication is currently not allowed for this organization."}}',
  ),
  e("anthropic", "auth_permanent", "OAuth authentication is currently not allowed for this organization."),
  e("anthropic", "rate_limit", "You have reached your specified API usage limits. You will regain access on 2026-08-01 at 00:00 UTC."),
  e(
    "anthropic",
    "context_overflow",
    '413 {"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}',
  ),
  e("anthropic", "context_overflow", "413 Request Entity Too Large"),
  e("anthropic", "timeout", '500 {"type":"error","error":{"type":"api_error","message":"Internal server error"}}'),
  e("anthropic", "rate_limit", "Claude AI usage limit reached|1767225600"),
  e("anthropic", "rate_limit", "5-hour limit reached ∙ resets 3pm"),
  // Google Gemini / Vertex
  e(
    "google",
    "rate_limit",
    '{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}',
  ),
  e("google", "auth", "Google Generative AI API error (400): API key not valid. Please pass a valid API key. [code=INVALID_ARGUMENT]"),
  e("google", "overloaded", '{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}'),
  e("google", "overloaded", "503 Service Unavailable"),
  e(
    "google",
    "billing",
    '{"error":{"code":403,"message":"This API method requires billing to be enabled. Please enable billing on project #123 by visiting https://console.developers.google.com/billing/enable?project=123 then retry.","status":"PERMISSION_DENIED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"BILLING_DISABLED"}]}}',
  ),
  e("google-vertex", "timeout", "got status 504 Gateway Timeout: deadline exceeded"),
  // Vertex AI: per-region, per-base-model quotas, for Gemini and for Claude (rawPredict) alike.
  e(
    "vertex",
    "rate_limit",
    '{"error":{"code":429,"message":"Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model with base model: anthropic-claude-sonnet-4-6. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai.","status":"RESOURCE_EXHAUSTED"}}',
    { status: 429 },
  ),
  e(
    "vertex",
    "rate_limit",
    '{"error":{"code":429,"message":"Online prediction request quota exceeded for gemini-2.5-pro. Please try again later with backoff.","status":"RESOURCE_EXHAUSTED"}}',
    { status: 429 },
  ),
  e("vertex", "overloaded", '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', { status: 529 }),
  e(
    "vertex",
    "auth",
    '{"error":{"code":401,"message":"Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.","status":"UNAUTHENTICATED"}}',
    { status: 401 },
  ),
  // AWS Bedrock
  e("bedrock", "rate_limit", "ThrottlingException: Too many tokens, please wait before trying again."),
  e("bedrock", "rate_limit", "ServiceQuotaExceededException: You have exceeded the service quota for on-demand tokens"),
  e("bedrock", "context_overflow", "ValidationException: Input is too long for requested model."),
  e("bedrock", "model_not_found", "ValidationException: The provided model identifier is invalid."),
  e("bedrock", "overloaded", "ModelNotReadyException: Model is not ready for inference. Wait and try your request again."),
  e(
    "bedrock",
    "model_not_found",
    "ResourceNotFoundException: This model version has reached the end of its life. Please refer to the AWS documentation for more details.",
  ),
  // Azure OpenAI
  e(
    "azure",
    "rate_limit",
    "Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-08-01-preview have exceeded token rate limit of your current AIServices S0 pricing tier. Please retry after 20 seconds.",
  ),
  e(
    "azure",
    "model_not_found",
    '404 {"error":{"code":"DeploymentNotFound","message":"The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again."}}',
  ),
  e(
    "azure",
    "content_filter",
    "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. content_filter",
  ),
  e(
    "azure-openai",
    "rate_limit",
    '{"error":{"code":"429","message":"Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded call rate limit of your current OpenAI S0 pricing tier. Please retry after 2 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit."}}',
    { status: 429, headers: { "retry-after": "2", "retry-after-ms": "1500" } },
  ),
  e(
    "azure-openai",
    "content_filter",
    '{"error":{"message":"The response was filtered due to the prompt triggering Azure OpenAI\'s content management policy. Please modify your prompt and retry.","type":null,"param":"prompt","code":"content_filter","status":400,"innererror":{"code":"ResponsibleAIPolicyViolation","content_filter_result":{"violence":{"filtered":true,"severity":"medium"}}}}}',
    { status: 400 },
  ),
  e(
    "azure-openai",
    "auth",
    '{"error":{"code":"401","message":"Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource."}}',
    { status: 401 },
  ),
  // OpenRouter
  e("openrouter", "billing", '402 {"error":{"message":"Insufficient credits. Add more using https://openrouter.ai/credits","code":402}}'),
  e("openrouter", "billing", "403 Key limit exceeded (total limit). Manage it using https://openrouter.ai/settings/keys"),
  e("openrouter", "model_not_found", '{"error":{"message":"No endpoints found for deepseek/deepseek-r1:free.","code":404}}'),
  e("openrouter", "rate_limit", '{"error":{"message":"Rate limit exceeded: free-models-per-min.","code":429}}'),
  e("openrouter", "timeout", "Provider returned error"),
  // Groq
  e(
    "groq",
    "rate_limit",
    "413 Request too large for model `llama-3.3-70b-versatile` in organization `org_01` service tier `on_demand` on tokens per minute (TPM): Limit 12000, Requested 19384, please reduce your message size and try again.",
  ),
  e(
    "groq",
    "model_not_found",
    "400 The model `llama3-70b-8192` has been decommissioned and is no longer supported. Please refer to https://console.groq.com/docs/deprecations for a recommendation on which model to use instead.",
  ),
  e(
    "groq",
    "model_not_found",
    '{"error":{"message":"The model `mixtral-8x7b-32768` is deactivated","type":"invalid_request_error","code":"model_is_deactivated"}}',
  ),
  e("groq", "overloaded", "498 Flex Tier Capacity Exceeded: the flex tier is at capacity, try again later."),
  // Mistral
  e("mistral", "rate_limit", '429 {"message":"Requests rate limit exceeded"}'),
  e("mistral", "auth", '401 {"message":"Unauthorized","request_id":"abc"}'),
  e(
    "mistral",
    "model_not_found",
    '400 {"object":"error","message":"Invalid model: mistral-large-2099","type":"invalid_model","param":null,"code":"1500"}',
  ),
  // DeepSeek
  e("deepseek", "billing", "402 Insufficient Balance"),
  e(
    "deepseek",
    "billing",
    '{"error":{"message":"Insufficient Balance","type":"unknown_error","param":null,"code":"invalid_request_error"}}',
  ),
  e("deepseek", "overloaded", "503 Server Overloaded: The server is overloaded due to high traffic."),
  e(
    "deepseek",
    "model_not_found",
    '{"error":{"message":"Model Not Exist","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}',
  ),
  // xAI
  e("xai", "billing", "403 You have run out of credits or need a Grok subscription. Please purchase credits at https://console.x.ai."),
  e(
    "xai",
    "billing",
    "Your team 16f2151a has either used all available credits or reached its monthly spending limit. To continue making API requests, please purchase more credits or raise your spending limit.",
  ),
  e("xai", "model_not_found", "The model grok-9 does not exist or your team does not have access to it."),
  // Together, Fireworks, Cerebras
  e(
    "together",
    "billing",
    '402 {"message":"Credit limit exceeded. Please add a payment method or purchase credits.","type_":"credit_limit"}',
  ),
  e(
    "together",
    "model_not_found",
    "Unable to access model meta-llama/Llama-99. Please visit https://api.together.ai/models to view the list of supported models.",
  ),
  e("fireworks", "rate_limit", "concurrency limit has been reached for your account"),
  e(
    "fireworks",
    "model_not_found",
    '404 {"error":{"object":"error","type":"invalid_request_error","message":"Model not found, inaccessible, and/or not deployed"}}',
  ),
  e("cerebras", "rate_limit", "Tokens per day limit exceeded - too many tokens processed."),
  e("cerebras", "model_not_found", "Model llama-9 does not exist or you do not have access to it."),
  // Z.ai (GLM), Moonshot (Kimi), Qwen (DashScope), MiniMax
  e(
    "zai",
    "rate_limit",
    '429 {"error":{"code":"1308","message":"Usage limit reached for 5 hour. Your limit will reset at 2026-08-31 13:53:48"}}',
  ),
  e(
    "zai",
    "rate_limit",
    '{"error":{"code":"1310","message":"Weekly/Monthly Limit Exhausted. Your limit will reset at 2026-09-01 00:00:00"}}',
  ),
  e("zai", "billing", '{"error":{"code":"1113","message":"Insufficient balance or no resource package. Please recharge."}}'),
  e("zai", "billing", '{"error":{"code":"1311","message":"The model you requested is not available in your current plan"}}'),
  e("zai", "overloaded", "[1305][该模型当前访问量过大，请您稍后再试]"),
  e(
    "moonshot",
    "billing",
    '429 {"error":{"message":"Your account ak-123 is suspended, please check your plan and billing details","type":"exceeded_current_quota_error"}}',
  ),
  e(
    "moonshot",
    "rate_limit",
    '429 {"error":{"message":"Your account ak-123 request reached organization max concurrency: 50, please try again after 1 seconds","type":"rate_limit_reached_error"}}',
  ),
  e("kimi", "billing", "Your account balance is insufficient, please recharge before continuing."),
  e(
    "qwen",
    "billing",
    '{"code":"Arrearage","message":"Access denied, please make sure your account is in good standing.","request_id":"abc"}',
  ),
  e("qwen", "rate_limit", '{"code":"Throttling.AllocationQuota","message":"Allocated quota exceeded, please increase your quota limit."}'),
  e("qwen", "model_not_found", '{"code":"InvalidParameter","message":"Model not exist."}'),
  e("minimax", "rate_limit", "402 Payment Required: weekly usage limit exhausted, resets Monday. Upgrade your plan for more."),
  // Ollama, vLLM, llama.cpp, LM Studio
  e("ollama", "model_not_found", 'model "llama9" not found, try pulling it first'),
  e("ollama", "timeout", "request to http://127.0.0.1:11434/api/chat failed, reason: connect ECONNREFUSED 127.0.0.1:11434"),
  e("ollama", "rate_limit", "429 you've reached your weekly usage limit, please upgrade to continue"),
  e("ollama", "context_overflow", "ollama error: context length exceeded"),
  e(
    "vllm",
    "model_not_found",
    '{"object":"error","message":"The model `qwen3-72b` does not exist.","type":"NotFoundError","param":null,"code":404}',
  ),
  e(
    "vllm",
    "context_overflow",
    "This model's maximum context length is 32768 tokens. However, you requested 40000 tokens (38000 in the messages, 2000 in the completion).",
  ),
  e("llamacpp", "context_overflow", "400 request (66202 tokens) exceeds the available context size (65536 tokens), try increasing it"),
  // Transport failures (any provider)
  e("anthropic", "timeout", "getaddrinfo ENOTFOUND api.anthropic.com"),
  e("openai", "timeout", "request to https://api.openai.com/v1/chat/completions failed, reason: getaddrinfo ENOTFOUND api.openai.com"),
  e("openai-compatible", "timeout", "Request ended without sending any chunks"),
  e("openai-compatible", "timeout", "stream ended without sending any chunk"),
  e("openai", "timeout", "This operation was aborted"),
  e("openai", "timeout", "upstream connect error or disconnect/reset before headers. reset reason: connection termination"),
  e(
    "google",
    "timeout",
    "502 <!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>",
  ),
  e("openai-compatible", "overloaded", "status 503 from upstream relay"),
  e("openai-compatible", "timeout", "HTTP 500: Internal Server Error"),
  e("qwen", "timeout", "请求超时，请稍后重试"),
  // Relays and other gateways (LiteLLM, OpenClaw, CLIProxyAPI, one-api)
  e(
    "litellm",
    "rate_limit",
    "No deployments available for selected model, Try again in 60 seconds. Passed model=gpt-4o. pre-call-checks=False, cooldown_list=['abc']",
  ),
  e("relay", "rate_limit", "429 All credentials for model gemini-3-pro are cooling down"),
  e("relay", "rate_limit", "all credentials for model claude-opus-4 are cooling down via provider claude"),
  e("openclaw", "rate_limit", "No available auth profile for openai-codex (all in cooldown or unavailable)."),
  e("openclaw", "auth", "No credentials found for profile anthropic:default."),
  e("openclaw", "auth", 'No API key found for provider "openai". Auth store: ~/.openclaw/agents/main/agent/auth-profiles.json'),
  e("litellm", "billing", "Budget has been exceeded! Current cost: 10.02, Max budget: 10.0"),
  e("relay", "billing", "402 Payment Required: credits exhausted, please top up your account"),
  e("relay", "billing", "Your quota has been exhausted, please recharge to continue."),
  e("relay", "billing", "余额不足，请充值后再试"),
  e("relay", "billing", "Insufficient account balance"),
  e("relay", "billing", "balance too low to complete this request"),
  e("relay", "billing", "You are out of credits. Visit your dashboard to buy more."),
  e("relay", "rate_limit", "Too many requests: concurrency limit reached, retry after 2m 13s"),
  // Numbers that are not statuses
  e(
    "openai",
    "rate_limit",
    "Rate limit reached for gpt-4o-2024-08-06 in organization org-1 on requests per min (RPM): Limit 500, Used 500, Requested 1.",
  ),
  e("openai", "unclassified", "request id req-4291 failed"),
];
