import { describe } from "vitest";
import { row, testClassificationRows, testRuleCoverage } from "../__fixtures__/classification-table.js";
import { MISREAD_ROWS } from "../__fixtures__/misread-families.js";
import { AUTH_RULES } from "./auth.js";

const rows = [
  row(
    "R-EC-5: auth · Groq Invalid API Key body",
    { provider: "groq", message: '{"error":{"message":"Invalid API Key","type":"invalid_request_error","code":"invalid_api_key"}}' },
    "auth",
    "auth/invalid-api-key",
  ),
  row(
    "R-EC-5: auth · Anthropic invalid x-api-key",
    { provider: "anthropic", message: "invalid x-api-key" },
    "auth",
    "auth/invalid-api-key",
  ),
  row(
    "R-EC-5: auth · Gemini 400 API_KEY_INVALID (400 defers to the message class)",
    {
      provider: "google",
      status: 400,
      message:
        '{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}',
    },
    "auth",
    "auth/invalid-api-key",
  ),
  row(
    "R-EC-5: auth · xAI 400 incorrect API key",
    { provider: "xai", status: 400, message: "Incorrect API key provided: xa***Zk. You can obtain an API key from https://console.x.ai." },
    "auth",
    "auth/incorrect-api-key",
  ),
  row(
    "R-EC-5: auth · Gemini API key expired",
    { provider: "google", message: "API key expired. Please renew the API key." },
    "auth",
    "auth/api-key-not-valid",
  ),
  row("R-EC-5: auth · invalid access token", { provider: "github-copilot", message: "Invalid access token" }, "auth", "auth/invalid-token"),
  row("R-EC-5: auth · Ollama cloud unauthorized", { provider: "ollama", message: "unauthorized" }, "auth", "auth/unauthorized"),
  row(
    "R-EC-5: auth · forbidden without a status",
    { provider: "openai-compatible", message: "Forbidden: request blocked by gateway policy" },
    "auth",
    "auth/forbidden",
  ),
  row(
    "R-EC-5: auth · Anthropic authentication_error type",
    {
      provider: "anthropic",
      message: '{"type":"error","error":{"type":"authentication_error","message":"OAuth authentication is currently not supported."}}',
    },
    "auth",
    "auth/authentication",
  ),
  row(
    "R-EC-5: auth · Anthropic permission_error type",
    {
      provider: "anthropic",
      message:
        '{"type":"error","error":{"type":"permission_error","message":"Your API key does not have permission to use the specified resource."}}',
    },
    "auth",
    "auth/permission-error",
  ),
  row(
    "R-EC-5: auth · Anthropic OAuth token has expired",
    { provider: "anthropic", message: "OAuth token has expired. Please obtain a new token or refresh your existing token." },
    "auth",
    "auth/token-expired",
  ),
  row(
    "R-EC-5: auth · AWS ExpiredTokenException",
    { provider: "bedrock", message: "ExpiredTokenException: The security token included in the request is expired" },
    "auth",
    "auth/token-expired",
  ),
  row(
    "R-EC-5: auth · OpenRouter no auth credentials found",
    { provider: "openrouter", message: '{"error":{"message":"No auth credentials found"}}' },
    "auth",
    "auth/no-api-key",
  ),
  row(
    "R-EC-5: auth · OpenAI you didn't provide an API key",
    {
      provider: "openai",
      message:
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password.",
    },
    "auth",
    "auth/no-api-key",
  ),
  row(
    "R-EC-5: auth · Bedrock AccessDeniedException",
    { provider: "bedrock", message: "AccessDeniedException: You don't have access to the model with the specified model ID." },
    "auth",
    "auth/aws-access-denied",
  ),
  row(
    "R-EC-5: auth · Google UNAUTHENTICATED",
    { provider: "google", message: "UNAUTHENTICATED: missing credentials" },
    "auth",
    "auth/unauthenticated",
  ),
  row(
    "R-EC-5: auth · no credentials found for profile",
    { provider: "anthropic", message: "No credentials found for profile anthropic:default." },
    "auth",
    "auth/no-api-key",
  ),
  row(
    "R-EC-5: auth · no API key found for provider",
    { provider: "openai", message: 'No API key found for provider "openai".' },
    "auth",
    "auth/no-api-key",
  ),
  row(
    "R-EC-5: auth · API key is missing",
    { provider: "mistral", message: "API key is missing from the request" },
    "auth",
    "auth/no-api-key",
  ),
  row(
    "R-EC-5: auth · access denied",
    { provider: "azure", message: "Access denied due to invalid subscription key or wrong API endpoint." },
    "auth",
    "auth/access-denied",
  ),
  row(
    "R-EC-5: auth · insufficient permissions / missing scopes",
    { provider: "openai", message: "You have insufficient permissions for this operation. Missing scopes: api.model.read" },
    "auth",
    "auth/access-denied",
  ),
  row(
    "R-EC-5: auth · could not validate credentials",
    { provider: "vllm", message: "Could not validate credentials" },
    "auth",
    "auth/access-denied",
  ),
  row(
    "R-EC-5: auth · OAuth token refresh failed",
    { provider: "openai-codex", message: "OAuth token refresh failed for openai-codex; re-authenticate" },
    "auth",
    "auth/access-denied",
  ),
  row(
    "R-EC-5: auth · Chinese provider authentication failed",
    { provider: "qwen", message: "认证失败，请检查您的 API Key" },
    "auth",
    "auth/cjk-auth",
  ),
];

describe("auth family", () => {
  testClassificationRows(rows);
  testRuleCoverage(
    "R-EC-5: every auth pattern decides at least one row",
    [...rows, ...MISREAD_ROWS],
    AUTH_RULES.map((rule) => rule.id),
  );
});
