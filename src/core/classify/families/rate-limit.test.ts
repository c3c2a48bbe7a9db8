import { describe } from "vitest";
import { row, testClassificationRows, testRuleCoverage } from "../__fixtures__/classification-table.js";
import { MISREAD_ROWS } from "../__fixtures__/misread-families.js";
import { RATE_LIMIT_RULES } from "./rate-limit.js";

const rows = [
  row(
    "R-EC-5: rate_limit · Groq rate limit reached on tokens per minute",
    {
      provider: "groq",
      message:
        "Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_01abc` service tier `on_demand` on tokens per minute (TPM): Limit 12000, Used 11000, Requested 2000. Please try again in 5s.",
    },
    "rate_limit",
    "rate_limit/rate-limit",
  ),
  row(
    "R-EC-5: rate_limit · Anthropic rate_limit_error text without a status",
    { provider: "anthropic", message: "This request would exceed the rate limit for your organization of 50,000 input tokens per minute." },
    "rate_limit",
    "rate_limit/rate-limit",
  ),
  row(
    "R-EC-5: rate_limit · OpenRouter upstream temporarily rate-limited (metadata.raw)",
    {
      provider: "openrouter",
      message:
        '{"error":{"message":"Provider returned error","metadata":{"raw":"google/gemini-2.0-flash-exp:free is temporarily rate-limited upstream. Please retry shortly, or add your own key to accumulate your rate limits: https://openrouter.ai/settings/integrations","provider_name":"Google AI Studio"}}}',
    },
    "rate_limit",
    "rate_limit/rate-limit",
  ),
  row(
    "R-EC-5: rate_limit · too many concurrent requests",
    { provider: "zai", message: "Too many concurrent requests for this model" },
    "rate_limit",
    "rate_limit/too-many-concurrent-requests",
  ),
  row(
    "R-EC-5: rate_limit · Bedrock too many requests",
    {
      provider: "bedrock",
      message: "Too many requests, please wait before trying again. You have sent too many requests. Wait before trying again.",
    },
    "rate_limit",
    "rate_limit/too-many-requests",
  ),
  row(
    "R-EC-5: rate_limit · Bedrock too many tokens (boto message)",
    {
      provider: "bedrock",
      message:
        "An error occurred (ThrottlingException) when calling the InvokeModel operation (reached max retries: 4): Too many tokens, please wait before trying again.",
    },
    "rate_limit",
    "rate_limit/too-many-tokens",
  ),
  row(
    "R-EC-5: rate_limit · ThrottlingException name in the text",
    { provider: "bedrock", message: "ThrottlingException: Rate exceeded" },
    "rate_limit",
    "rate_limit/throttling-exception",
  ),
  row(
    "R-EC-5: rate_limit · Azure request was throttled",
    { provider: "azure", message: "Requests to the ChatCompletions_Create Operation have been throttled. Retry after 6 seconds." },
    "rate_limit",
    "rate_limit/throttled",
  ),
  row(
    "R-EC-5: rate_limit · concurrency limit reached",
    { provider: "fireworks", message: "concurrency limit reached for account" },
    "rate_limit",
    "rate_limit/concurrency-limit",
  ),
  row(
    "R-EC-5: rate_limit · Cloudflare workers_ai quota limit exceeded",
    { provider: "cloudflare", message: "AiError: workers_ai: 3036: Account quota limit exceeded for this billing period" },
    "rate_limit",
    "rate_limit/workers-ai-quota",
  ),
  row(
    "R-EC-5: rate_limit · Vertex resource exhausted",
    {
      provider: "google-vertex",
      message:
        "Resource exhausted. Please try again later. Please refer to https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429 for more details.",
    },
    "rate_limit",
    "rate_limit/resource-exhausted",
  ),
  row(
    "R-EC-5: rate_limit · Vertex resource has been exhausted",
    { provider: "google-vertex", message: "Resource has been exhausted (e.g. check quota)." },
    "rate_limit",
    "rate_limit/resource-has-been-exhausted",
  ),
  row(
    "R-EC-5: rate_limit · Gemini exceeded your current quota",
    {
      provider: "google",
      message:
        "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to the quota docs.",
    },
    "rate_limit",
    "rate_limit/exceeded-current-quota",
  ),
  row(
    "R-EC-5: rate_limit · OpenAI tokens per min without a code",
    {
      provider: "openai",
      message: "Request too large for gpt-4o in organization org-abc123 on tokens per min (TPM): Limit 30000, Requested 45000.",
    },
    "rate_limit",
    "rate_limit/per-minute-quota",
  ),
  row(
    "R-EC-5: rate_limit · Google requests per minute quota metric",
    {
      provider: "google",
      message: "Quota metric 'Generate Content API requests per minute' reached its limit for consumer 'project_number:123'.",
    },
    "rate_limit",
    "rate_limit/per-minute-quota",
  ),
  row(
    "R-EC-5: rate_limit · weekly limit reached",
    { provider: "zai", message: "weekly limit reached" },
    "rate_limit",
    "rate_limit/periodic-window",
  ),
  row(
    "R-EC-5: rate_limit · monthly limit exhausted",
    { provider: "minimax", message: "Your monthly limit exhausted for this plan" },
    "rate_limit",
    "rate_limit/periodic-window",
  ),
  row(
    "R-EC-5: rate_limit · 5-hour usage limit hit",
    { provider: "kimi", message: "5-hour usage limit hit, wait for the window to reset" },
    "rate_limit",
    "rate_limit/periodic-window",
  ),
  row(
    "R-EC-5: rate_limit · Codex you've hit your usage limit (try again in days)",
    {
      provider: "openai-codex",
      message:
        "You've hit your usage limit. Upgrade to Pro (https://openai.com/chatgpt/pricing) or try again in 5 days 22 hours 11 minutes.",
    },
    "rate_limit",
    "rate_limit/hit-your-usage-limit",
  ),
  row(
    "R-EC-5: rate_limit · Codex you've hit your usage limit (try again at a date)",
    {
      provider: "openai-codex",
      message:
        "You've hit your usage limit. Upgrade to Plus to continue using Codex (https://chatgpt.com/explore/plus), or try again at Jul 5th, 2026 8:19 PM.",
    },
    "rate_limit",
    "rate_limit/hit-your-usage-limit",
  ),
  row(
    "R-EC-5: rate_limit · ChatGPT usage_limit_reached body",
    {
      provider: "openai-codex",
      message:
        '{"error":{"type":"usage_limit_reached","message":"The usage limit has been reached","plan_type":"free","resets_at":1775317531,"resets_in_seconds":602705}}',
    },
    "rate_limit",
    "rate_limit/usage-limit-reached",
  ),
  row(
    "R-EC-5: rate_limit · Claude subscription usage limit reached|epoch",
    { provider: "anthropic", message: "Claude AI usage limit reached|1760000000" },
    "rate_limit",
    "rate_limit/usage-limit-reached",
  ),
  row(
    "R-EC-5: rate_limit · Vertex online prediction quota exceeded",
    {
      provider: "google-vertex",
      message: "Online prediction request quota exceeded for gemini-1.5-pro. Please try again later with backoff.",
    },
    "rate_limit",
    "rate_limit/quota-exceeded",
  ),
  row(
    "R-EC-5: rate_limit · Fireworks concurrency limit has been reached",
    { provider: "fireworks", message: "concurrency limit has been reached for your account" },
    "rate_limit",
    "rate_limit/concurrency-limit",
  ),
  row(
    "R-EC-5: rate_limit · Bedrock ServiceQuotaExceededException",
    { provider: "bedrock", message: "ServiceQuotaExceededException: You have exceeded the service quota for on-demand tokens" },
    "rate_limit",
    "rate_limit/service-quota-exceeded",
  ),
  row(
    "R-EC-5: rate_limit · quota exhausted without billing words",
    { provider: "minimax", message: "Plan quota exhausted for this hour" },
    "rate_limit",
    "rate_limit/quota-exhausted",
  ),
  row(
    "R-EC-5: rate_limit · Moonshot reached max concurrency",
    {
      provider: "moonshot",
      message: "Your account org-1 request reached organization max concurrency: 50, please try again after 1 seconds",
    },
    "rate_limit",
    "rate_limit/max-requests-reached",
  ),
  row(
    "R-EC-5: rate_limit · Z.ai 1302 high concurrency",
    {
      provider: "zai",
      message: "High concurrency usage of this API, please reduce concurrency or contact customer service to increase limits",
    },
    "rate_limit",
    "rate_limit/max-requests-reached",
  ),
  row(
    "R-EC-5: rate_limit · Chinese provider requests too frequent",
    { provider: "qwen", message: "请求过于频繁，请稍后再试" },
    "rate_limit",
    "rate_limit/cjk-rate-limit",
  ),
];

describe("rate_limit family", () => {
  testClassificationRows(rows);
  testRuleCoverage(
    "R-EC-5: every rate_limit pattern decides at least one row",
    [...rows, ...MISREAD_ROWS],
    RATE_LIMIT_RULES.map((rule) => rule.id),
  );
});
