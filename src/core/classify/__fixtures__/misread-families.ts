/**
 * Families of real provider texts the classifier used to misread, each row with where its text comes from.
 * A family is a kind of wording (a status stated only in text, subscription "extra usage", spend limits,
 * provider-specific credential words, context overflow in other words, CLI sessions, transient texts
 * without a status, a bare "invalid request format"); the rows vary provider, status and wrapping so a
 * rule is fixed for the family, not for one sentence.
 */
import type { FailoverReason } from "../../reasons.js";
import type { FailureInput } from "../../types.js";
import { row, type ClassificationRow } from "./classification-table.js";

export interface SourcedRow extends ClassificationRow {
  /** The family of wording this row belongs to. */
  readonly family: MisreadFamily;
  /** Where the text was seen: the provider's documentation, an SDK or CLI, a relay. */
  readonly source: string;
}

export type MisreadFamily =
  | "status-in-text"
  | "extra-usage"
  | "spend-limit"
  | "credentials"
  | "context-overflow"
  | "cli-session"
  | "transient-text"
  | "request-format";

const sourced = (
  family: MisreadFamily,
  source: string,
  title: string,
  input: FailureInput,
  reason: FailoverReason,
  rule: string,
): SourcedRow => ({
  ...row(title, input, reason, rule),
  family,
  source,
});

const nginxPage = (title: string): string =>
  `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>`;

export const MISREAD_ROWS: readonly SourcedRow[] = [
  // Statuses carried only in text: 410 and 499 are transient unless the text names something precise.
  sourced(
    "status-in-text",
    "fetch wrappers printing `HTTP ${status} ${statusText}`",
    "R-EC-3: timeout · HTTP 410 Gone stated only in text",
    { provider: "openai-compatible", message: "HTTP 410 Gone" },
    "timeout",
    "status/410-499",
  ),
  sourced(
    "status-in-text",
    "nginx 499 (NGX_HTTP_CLIENT_CLOSED_REQUEST) as a relay logs it",
    "R-EC-3: timeout · 499 Client Closed Request stated only in text",
    { provider: "openrouter", message: "499 Client Closed Request" },
    "timeout",
    "status/410-499",
  ),
  sourced(
    "status-in-text",
    "an adapter passing the bare status of an empty 410",
    "R-EC-3: timeout · bare 410 status without a body",
    { provider: "ollama", status: 410 },
    "timeout",
    "status/410-499",
  ),
  sourced(
    "status-in-text",
    "an adapter passing the bare status of an empty 499",
    "R-EC-3: timeout · bare 499 status without a body",
    { provider: "vllm", status: 499, message: "" },
    "timeout",
    "status/410-499",
  ),
  sourced(
    "status-in-text",
    "Python SDK wrapper `Error code: 410 - …`",
    "R-EC-3: timeout · Error code: 410 with a Gone body",
    { provider: "together", message: "Error code: 410 - {'error': {'message': 'Gone'}}" },
    "timeout",
    "status/410-499",
  ),
  sourced(
    "status-in-text",
    "undici relays: `request failed with status 499`",
    "R-EC-3: timeout · request failed with status 499",
    { provider: "litellm", message: "upstream request failed with status 499" },
    "timeout",
    "status/410-499",
  ),
  sourced(
    "status-in-text",
    "nginx in front of a self-hosted runtime",
    "R-EC-5: timeout · nginx 499 HTML page stated in text",
    { provider: "vllm", message: `499 ${nginxPage("499 Client Closed Request")}` },
    "timeout",
    "timeout/html-error-page",
  ),
  sourced(
    "status-in-text",
    "nginx 410 page with the status field",
    "R-EC-5: timeout · nginx 410 Gone HTML page with its status",
    { provider: "ollama", status: 410, message: nginxPage("410 Gone") },
    "timeout",
    "timeout/html-error-page",
  ),
  sourced(
    "status-in-text",
    "OpenAI deprecations: a retired model answering 410",
    "R-EC-3: model_not_found · 410 naming a retired model keeps the precise reason",
    { provider: "openai", status: 410, message: "The model `text-davinci-003` has been deprecated" },
    "model_not_found",
    "model_not_found/model-retired",
  ),

  // Subscription "extra usage" wording (Anthropic consumer plans): billing unless a reset is stated.
  sourced(
    "extra-usage",
    "Claude Code / Anthropic OAuth 400 body",
    "R-EC-5: billing · out of extra usage, add more at claude.ai",
    { provider: "anthropic", message: "You're out of extra usage. Add more at claude.ai/settings/usage and keep going." },
    "billing",
    "billing/extra-usage",
  ),
  sourced(
    "extra-usage",
    "Anthropic long-context (1M) requests on a subscription",
    "R-EC-5: billing · extra usage is required for long context requests",
    { provider: "anthropic", message: "Extra usage is required for long context requests." },
    "billing",
    "billing/extra-usage",
  ),
  sourced(
    "extra-usage",
    "Anthropic invalid_request_error envelope (400)",
    "R-EC-5: billing · 400 envelope out of extra usage",
    {
      provider: "anthropic",
      status: 400,
      message:
        '{"type":"error","error":{"type":"invalid_request_error","message":"You\'re out of extra usage. Add more at claude.ai/settings/usage and keep going."}}',
    },
    "billing",
    "billing/extra-usage",
  ),
  sourced(
    "extra-usage",
    "Anthropic 429 for a subscription without overage",
    "R-EC-3: billing · 429 extra usage is required",
    { provider: "anthropic", status: 429, message: "Extra usage is required for long context requests." },
    "billing",
    "status/429-billing",
  ),
  sourced(
    "extra-usage",
    "Claude Code settings text",
    "R-EC-5: billing · extra usage is disabled",
    { provider: "anthropic", message: "Extra usage is disabled. Turn on extra usage at claude.ai/settings/usage to keep going." },
    "billing",
    "billing/extra-usage",
  ),
  sourced(
    "extra-usage",
    "Claude Code, apostrophe as typeset",
    "R-EC-5: billing · curly apostrophe out of extra usage",
    { provider: "anthropic", message: "You’re out of extra usage" },
    "billing",
    "billing/extra-usage",
  ),
  sourced(
    "extra-usage",
    "Claude Code status line `· resets 4pm`",
    "R-EC-5: rate_limit · out of extra usage that states its reset is a window",
    { provider: "anthropic", message: "You're out of extra usage · resets 4pm (Europe/Berlin)" },
    "rate_limit",
    "rate_limit/limit-resets",
  ),

  // Spend limits: a workspace cap reopens (window); an upgrade-only usage limit and key budgets are billing.
  sourced(
    "spend-limit",
    "Anthropic workspace spend limit (402)",
    "R-EC-3: rate_limit · 402 Workspace spend limit reached",
    { provider: "anthropic", status: 402, message: "Workspace spend limit reached." },
    "rate_limit",
    "status/402-usage-window",
  ),
  sourced(
    "spend-limit",
    "Anthropic workspace spend limit without a status",
    "R-EC-5: rate_limit · Workspace spend limit reached without a status",
    { provider: "anthropic", message: "Workspace spend limit reached." },
    "rate_limit",
    "rate_limit/workspace-spend-limit",
  ),
  sourced(
    "spend-limit",
    "Anthropic organisation spend limit body",
    "R-EC-3: rate_limit · 402 organization spend limit hit",
    {
      provider: "anthropic",
      status: 402,
      message:
        '{"type":"error","error":{"type":"billing_error","message":"Your organization\'s spend limit has been hit for this month."}}',
    },
    "rate_limit",
    "status/402-usage-window",
  ),
  sourced(
    "spend-limit",
    "relay plans (402)",
    "R-EC-3: billing · 402 usage limit reached, upgrade your plan",
    { provider: "openai-compatible", status: 402, message: "Your usage limit has been reached. Please upgrade your plan." },
    "billing",
    "status/402",
  ),
  sourced(
    "spend-limit",
    "relay plans without a status",
    "R-EC-5: billing · usage limit reached, upgrade your plan, no status",
    { provider: "openai-compatible", message: "Your usage limit has been reached. Please upgrade your plan." },
    "billing",
    "billing/upgrade-only-usage-limit",
  ),
  sourced(
    "spend-limit",
    "relay plans offering an upgrade and a reset",
    "R-EC-3: rate_limit · 402 usage limit that also resets is a window",
    {
      provider: "openai-compatible",
      status: 402,
      message: "Your usage limit has been reached. Upgrade your plan or wait until it resets tomorrow.",
    },
    "rate_limit",
    "status/402-usage-window",
  ),
  sourced(
    "spend-limit",
    "OpenRouter per-key budget",
    "R-EC-5: billing · OpenRouter API key budget limit exceeded",
    { provider: "openrouter", message: "API key budget limit exceeded" },
    "billing",
    "billing/spending-limit",
  ),
  sourced(
    "spend-limit",
    "OpenRouter per-key budget (403 envelope)",
    "R-EC-3: billing · 403 OpenRouter API key budget limit exceeded",
    { provider: "openrouter", status: 403, message: '{"error":{"message":"API key budget limit exceeded","code":403}}' },
    "billing",
    "status/401-403-billing",
  ),
  sourced(
    "spend-limit",
    "LiteLLM proxy virtual keys",
    "R-EC-5: billing · LiteLLM budget has been exceeded",
    { provider: "litellm", message: "Budget has been exceeded! Current cost: 10.02, Max budget: 10.0" },
    "billing",
    "billing/spending-limit",
  ),

  // Credentials in provider-specific words.
  sourced(
    "credentials",
    "OpenAI Codex OAuth (pi-ai, codex CLI ports)",
    "R-EC-5: auth · Codex failed to extract accountId from token",
    { provider: "openai-codex", message: "Failed to extract accountId from token" },
    "auth",
    "auth/codex-account-id",
  ),
  sourced(
    "credentials",
    "OpenAI Codex OAuth (Python ports)",
    "R-EC-5: auth · Codex no account ID in token",
    { provider: "openai-codex", message: "ValueError: No account ID in token" },
    "auth",
    "auth/codex-account-id",
  ),
  sourced(
    "credentials",
    "Z.ai error 1113 body",
    "R-EC-5: auth · Z.ai 1113 invalid api endpoint or credentials",
    { provider: "zai", message: '{"code":1113,"message":"invalid api endpoint or credentials"}' },
    "auth",
    "auth/invalid-endpoint-or-credentials",
  ),
  sourced(
    "credentials",
    "Z.ai error 1113 body, spaced",
    "R-EC-5: auth · Z.ai 1113 with spaces",
    { provider: "zai", message: '{"code": 1113, "message": "invalid api endpoint or credentials"}' },
    "auth",
    "auth/invalid-endpoint-or-credentials",
  ),
  sourced(
    "credentials",
    "Z.ai documented auth codes (1000–1004)",
    "R-EC-5: auth · Z.ai code 1002 alone",
    { provider: "zai", message: '{"error":{"code":"1002","message":"Authorization Token非法"}}' },
    "auth",
    "auth/zai-credential-code",
  ),
  sourced(
    "credentials",
    "Z.ai 1113 with an empty message",
    "R-EC-5: auth · Z.ai code 1113 alone",
    { provider: "zai", message: '{"error":{"code":"1113","message":"error"}}' },
    "auth",
    "auth/zai-credential-code",
  ),
  sourced(
    "credentials",
    "Z.ai code for another provider means nothing",
    "R-EC-5: unclassified · code 1113 from a provider that is not Z.ai",
    { provider: "openai-compatible", message: '{"error":{"code":"1113","message":"error"}}' },
    "unclassified",
    "fallback/unclassified",
  ),
  sourced(
    "credentials",
    "OpenAI-compatible relays: bare code with 401",
    "R-EC-3: auth_permanent · 401 bare api_key_revoked",
    { provider: "openai-compatible", status: 401, message: "api_key_revoked" },
    "auth_permanent",
    "status/401-403-revoked",
  ),
  sourced(
    "credentials",
    "bare code without a status",
    "R-EC-5: auth_permanent · bare api_key_revoked without a status",
    { provider: "openai-compatible", message: "api_key_revoked" },
    "auth_permanent",
    "auth_permanent/revoked-code",
  ),
  sourced(
    "credentials",
    "error envelope code field",
    "R-EC-3: auth_permanent · 401 envelope code api_key_deleted",
    { provider: "openai-compatible", status: 401, message: '{"error":{"message":"Unauthorized","code":"api_key_deleted"}}' },
    "auth_permanent",
    "status/401-403-revoked",
  ),

  // Context overflow in other words and languages.
  sourced(
    "context-overflow",
    "Qwen / DashScope Chinese texts",
    "R-EC-5: context_overflow · 上下文超出限制",
    { provider: "qwen", message: "上下文超出限制" },
    "context_overflow",
    "context_overflow/cjk-context",
  ),
  sourced(
    "context-overflow",
    "Chinese relays",
    "R-EC-5: context_overflow · 上下文长度超过模型最大长度",
    { provider: "deepseek", message: "请求失败：上下文长度超过模型最大长度" },
    "context_overflow",
    "context_overflow/cjk-context",
  ),
  sourced(
    "context-overflow",
    "Chinese relays, 400 envelope",
    "R-EC-5: context_overflow · 400 输入长度超过限制",
    { provider: "qwen", status: 400, message: '{"error":{"message":"输入长度超过模型上下文限制","code":"invalid_parameter"}}' },
    "context_overflow",
    "context_overflow/cjk-context",
  ),
  sourced(
    "context-overflow",
    "Moonshot Kimi 400",
    "R-EC-5: context_overflow · Moonshot exceeded model token limit",
    { provider: "moonshot", status: 400, message: "Invalid request: Your request exceeded model token limit: 262144 (requested: 301877)" },
    "context_overflow",
    "context_overflow/model-token-limit",
  ),
  sourced(
    "context-overflow",
    "Cohere v2 chat",
    "R-EC-5: context_overflow · Cohere total tokens exceeds the model's maximum limit",
    { provider: "cohere", message: "too many tokens: total tokens exceeds the model's maximum limit of 4096" },
    "context_overflow",
    "context_overflow/model-token-limit",
  ),
  sourced(
    "context-overflow",
    "agent runtimes naming the reason",
    "R-EC-5: context_overflow · Context overflow: prefix",
    { provider: "openai", message: "Context overflow: prompt of 212000 tokens does not fit gpt-4.1" },
    "context_overflow",
    "context_overflow/context-overflow-named",
  ),
  sourced(
    "context-overflow",
    "relays passing a reason code",
    "R-EC-5: context_overflow · context_overflow code in a body",
    { provider: "litellm", message: '{"error":{"message":"too long","type":"context_overflow"}}' },
    "context_overflow",
    "context_overflow/context-overflow-named",
  ),
  sourced(
    "context-overflow",
    "TPM guard",
    "R-EC-5: rate_limit · a TPM text that names the model token limit stays a rate limit",
    { provider: "moonshot", message: "exceeded model token limit for this minute (TPM 128000)" },
    "rate_limit",
    "rate_limit/per-minute-quota",
  ),

  // Sessions of CLI back ends.
  sourced(
    "cli-session",
    "Claude Code `--resume` of an unknown session",
    "R-EC-5: session_expired · No conversation found with session ID",
    { provider: "claude-cli", message: "No conversation found with session ID: 4f1c2a9e-7b1d-4c55-9f3e-2d8a6b0c1e77" },
    "session_expired",
    "session_expired/no-conversation-found",
  ),
  sourced(
    "cli-session",
    "Claude Code, stderr prefixed",
    "R-EC-5: session_expired · Error: No conversation found with session ID",
    { provider: "claude-cli", message: "Error: No conversation found with session ID 8c1e0b2a" },
    "session_expired",
    "session_expired/no-conversation-found",
  ),
  sourced(
    "cli-session",
    "Gemini CLI / ACP agents",
    "R-EC-5: session_expired · no session found for id",
    { provider: "gemini-cli", message: "No session found for id 7f3e9a" },
    "session_expired",
    "session_expired/no-conversation-found",
  ),
  sourced(
    "cli-session",
    "Codex CLI resume",
    "R-EC-5: session_expired · thread id not found",
    { provider: "codex-cli", message: "thread 0199a3b2-5c1d-7e80 not found" },
    "session_expired",
    "session_expired/no-conversation-found",
  ),
  sourced(
    "cli-session",
    "ACP session/load",
    "R-EC-5: session_expired · session id does not exist",
    { provider: "acp", message: "Session sess_01JABCD does not exist" },
    "session_expired",
    "session_expired/no-conversation-found",
  ),
  sourced(
    "cli-session",
    "Claude Code JSON result",
    "R-EC-5: session_expired · JSON result with no conversation found",
    {
      provider: "claude-cli",
      message:
        '{"type":"result","subtype":"error_during_execution","is_error":true,"result":"No conversation found with session ID: 11aa"}',
    },
    "session_expired",
    "session_expired/no-conversation-found",
  ),

  // Transient texts without a status.
  sourced(
    "transient-text",
    "OpenRouter relayed finish reason",
    "R-EC-5: timeout · Provider finish_reason: network_error",
    { provider: "openrouter", message: "Provider finish_reason: network_error" },
    "timeout",
    "timeout/finish-reason-error",
  ),
  sourced(
    "transient-text",
    "OpenRouter relayed finish reason (error)",
    "R-EC-5: timeout · finish_reason: error in a chunk",
    { provider: "openrouter", message: 'Stream ended with "finish_reason": "error"' },
    "timeout",
    "timeout/finish-reason-error",
  ),
  sourced(
    "transient-text",
    "OpenAI Codex responses stream",
    "R-EC-5: timeout · Codex bare Request failed",
    { provider: "openai-codex", message: "Request failed" },
    "timeout",
    "timeout/bare-request-failed",
  ),
  sourced(
    "transient-text",
    "OpenAI Codex responses stream",
    "R-EC-5: timeout · Codex Request failed after repeated internal retries",
    { provider: "openai-codex", message: "Request failed after repeated internal retries." },
    "timeout",
    "timeout/request-failed-after-retries",
  ),
  sourced(
    "transient-text",
    "SDK retry wrappers",
    "R-EC-5: timeout · request failed after 3 attempts",
    { provider: "openai", message: "Request failed after 3 attempts" },
    "timeout",
    "timeout/request-failed-after-retries",
  ),
  sourced(
    "transient-text",
    "a 400 that only says Request failed",
    "R-EC-3: format · 400 Request failed is not transient",
    { provider: "openai-codex", status: 400, message: "Request failed" },
    "format",
    "status/400-422",
  ),
  sourced(
    "transient-text",
    "Anthropic api_error envelope",
    "R-EC-5: timeout · Anthropic api_error unexpected error while processing the response",
    {
      provider: "anthropic",
      message: '{"type":"error","error":{"type":"api_error","message":"An unexpected error occurred while processing the response"}}',
    },
    "timeout",
    "timeout/transient-api-error",
  ),
  sourced(
    "transient-text",
    "Anthropic SSE error event",
    "R-EC-5: timeout · Anthropic stream error event api_error",
    {
      provider: "anthropic",
      message: 'event: error\ndata: {"type":"error","error":{"type":"api_error","message":"An unexpected error has occurred"}}',
    },
    "timeout",
    "timeout/transient-api-error",
  ),
  sourced(
    "transient-text",
    "@google/generative-ai thrown error text",
    "R-EC-5: timeout · Google INTERNAL … code:500 without a body",
    { provider: "google", message: "[GoogleGenerativeAI Error]: INTERNAL: An internal error has occurred. code:500" },
    "timeout",
    "timeout/internal-code-5xx",
  ),
  sourced(
    "transient-text",
    "google-genai Python ServerError text",
    "R-EC-5: timeout · Google 'Internal error encountered' code 503 text",
    { provider: "google", message: "Internal error encountered. (code: 503)" },
    "timeout",
    "timeout/internal-code-5xx",
  ),
  sourced(
    "transient-text",
    "Gemini structured body stays server_error",
    "R-EC-5: server_error · Google structured INTERNAL body is not downgraded",
    { provider: "google", message: '{"error":{"code":500,"message":"An internal error has occurred.","status":"INTERNAL"}}' },
    "server_error",
    "status/5xx-structured",
  ),

  // A bare "invalid request format".
  sourced(
    "request-format",
    "OpenAI-compatible servers (no status)",
    "R-EC-5: format · bare invalid request format",
    { provider: "openai-compatible", message: "invalid request format" },
    "format",
    "format/invalid-request-format",
  ),
  sourced(
    "request-format",
    "relays with a detail",
    "R-EC-5: format · Invalid request format: messages must be an array",
    { provider: "litellm", message: "Invalid request format: messages must be an array" },
    "format",
    "format/invalid-request-format",
  ),
  sourced(
    "request-format",
    "error prefix",
    "R-EC-5: format · Error: invalid request format",
    { provider: "ollama", message: "Error: invalid request format" },
    "format",
    "format/invalid-request-format",
  ),
  sourced(
    "request-format",
    "code-like text",
    "R-EC-5: format · INVALID_REQUEST_FORMAT code text",
    { provider: "openai-compatible", message: "INVALID_REQUEST_FORMAT" },
    "format",
    "format/invalid-request-format",
  ),
  sourced(
    "request-format",
    "Cloudflare Workers AI",
    "R-EC-5: format · invalid request body",
    { provider: "cloudflare", message: "AiError: Invalid request body" },
    "format",
    "format/invalid-request-format",
  ),
  sourced(
    "request-format",
    "with a 400",
    "R-EC-3: format · 400 invalid request format",
    { provider: "vllm", status: 400, message: "invalid request format" },
    "format",
    "format/invalid-request-format",
  ),
];
