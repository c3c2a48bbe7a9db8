import { describe } from "vitest";
import { row, testClassificationRows, testRuleCoverage } from "./__fixtures__/classification-table.js";
import { CODE_RULES } from "./code-rules.js";

const rows = [
  row(
    "R-EC-4: context_length_exceeded → context_overflow (OpenAI body, 400)",
    {
      provider: "openai",
      status: 400,
      message:
        '{"error":{"message":"This model\'s maximum context length is 128000 tokens. However, your messages resulted in 131234 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}',
    },
    "context_overflow",
    "code/context_length_exceeded",
  ),
  row(
    "R-EC-4: context_length_exceeded → context_overflow (Groq, adapter code)",
    { provider: "groq", status: 400, code: "context_length_exceeded", message: "Please reduce the length of the messages or completion." },
    "context_overflow",
    "code/context_length_exceeded",
  ),
  row(
    "R-EC-4: content_policy_violation → content_filter (OpenAI images, 400)",
    {
      provider: "openai",
      status: 400,
      message:
        '{"error":{"code":"content_policy_violation","message":"Your request was rejected as a result of our safety system.","type":"invalid_request_error"}}',
    },
    "content_filter",
    "code/content_policy_violation",
  ),
  row(
    "R-EC-4: content_filter → content_filter (Azure, 400)",
    {
      provider: "azure",
      status: 400,
      code: "content_filter",
      message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
    },
    "content_filter",
    "code/content_filter",
  ),
  row(
    "R-EC-4: ResponsibleAIPolicyViolation → content_filter",
    { provider: "azure", code: "ResponsibleAIPolicyViolation", message: "blocked" },
    "content_filter",
    "code/ResponsibleAIPolicyViolation",
  ),
  row(
    "R-EC-4: Gemini SAFETY block reason → content_filter",
    { provider: "google", code: "SAFETY", message: "" },
    "content_filter",
    "code/SAFETY",
  ),
  row(
    "R-EC-4: Gemini PROHIBITED_CONTENT → content_filter",
    { provider: "google", code: "PROHIBITED_CONTENT" },
    "content_filter",
    "code/SAFETY",
  ),
  row(
    "R-EC-4: DEACTIVATED_WORKSPACE → auth_permanent",
    { provider: "anthropic", code: "deactivated_workspace", message: "Access denied" },
    "auth_permanent",
    "code/DEACTIVATED_WORKSPACE",
  ),
  row(
    "R-EC-4: RESOURCE_EXHAUSTED → rate_limit even next to billing-ish text (Gemini body, no status)",
    { provider: "google", message: '{"error":{"message":"Insufficient quota for this project","status":"RESOURCE_EXHAUSTED"}}' },
    "rate_limit",
    "code/RESOURCE_EXHAUSTED",
  ),
  row(
    "R-EC-4: RATE_LIMITED → rate_limit",
    { provider: "openrouter", code: "RATE_LIMITED", message: "slow down" },
    "rate_limit",
    "code/RATE_LIMIT",
  ),
  row(
    "R-EC-4: rate_limit_exceeded → rate_limit (OpenAI code)",
    { provider: "openai", code: "rate_limit_exceeded", message: "Please slow down" },
    "rate_limit",
    "code/RATE_LIMIT",
  ),
  row(
    "R-EC-4: rate_limit_error type → rate_limit (Anthropic errorType)",
    { provider: "anthropic", errorType: "rate_limit_error", message: "Number of request tokens has exceeded your per-minute limit" },
    "rate_limit",
    "code/RATE_LIMIT",
  ),
  row(
    "R-EC-4: TOO_MANY_REQUESTS → rate_limit",
    { provider: "cohere", code: "TOO_MANY_REQUESTS", message: "slow down" },
    "rate_limit",
    "code/TOO_MANY_REQUESTS",
  ),
  row(
    "R-EC-4: ThrottlingException → rate_limit (Bedrock error name)",
    { provider: "bedrock", errorType: "ThrottlingException", message: "Rate exceeded" },
    "rate_limit",
    "code/THROTTL",
  ),
  row("R-EC-4: THROTTLED → rate_limit", { provider: "vertex", code: "THROTTLED" }, "rate_limit", "code/THROTTL"),
  row(
    "R-EC-4: overloaded_error → overloaded (Anthropic SSE error event, no status)",
    { provider: "anthropic", message: 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' },
    "overloaded",
    "code/OVERLOADED",
  ),
  row("R-EC-4: OVERLOADED → overloaded", { provider: "zai", code: "OVERLOADED", message: "busy" }, "overloaded", "code/OVERLOADED"),
  row(
    "R-EC-4: ETIMEDOUT → timeout",
    { provider: "openai", code: "ETIMEDOUT", message: "connect ETIMEDOUT 104.18.7.192:443" },
    "timeout",
    "code/ETIMEDOUT",
  ),
  row("R-EC-4: ESOCKETTIMEDOUT → timeout", { provider: "openai", code: "ESOCKETTIMEDOUT" }, "timeout", "code/ESOCKETTIMEDOUT"),
  row(
    "R-EC-4: ECONNRESET → timeout",
    { provider: "anthropic", code: "ECONNRESET", message: "read ECONNRESET" },
    "timeout",
    "code/ECONNRESET",
  ),
  row("R-EC-4: ECONNABORTED → timeout", { provider: "google", code: "ECONNABORTED" }, "timeout", "code/ECONNABORTED"),
  row(
    "R-EC-4: ECONNREFUSED → timeout (Ollama not running)",
    { provider: "ollama", code: "ECONNREFUSED", message: "connect ECONNREFUSED 127.0.0.1:11434" },
    "timeout",
    "code/ECONNREFUSED",
  ),
  row("R-EC-4: ENETUNREACH → timeout", { provider: "openai", code: "ENETUNREACH" }, "timeout", "code/ENETUNREACH"),
  row("R-EC-4: EHOSTUNREACH → timeout", { provider: "openai", code: "EHOSTUNREACH" }, "timeout", "code/EHOSTUNREACH"),
  row("R-EC-4: EHOSTDOWN → timeout", { provider: "openai", code: "EHOSTDOWN" }, "timeout", "code/EHOSTDOWN"),
  row("R-EC-4: ENETRESET → timeout", { provider: "openai", code: "ENETRESET" }, "timeout", "code/ENETRESET"),
  row("R-EC-4: EPIPE → timeout", { provider: "openai", code: "EPIPE", message: "write EPIPE" }, "timeout", "code/EPIPE"),
  row(
    "R-EC-4: EAI_AGAIN → timeout",
    { provider: "anthropic", code: "EAI_AGAIN", message: "getaddrinfo EAI_AGAIN api.anthropic.com" },
    "timeout",
    "code/EAI_AGAIN",
  ),
  row(
    "R-EC-4: UND_ERR_HEADERS_TIMEOUT → timeout",
    { provider: "openai", code: "UND_ERR_HEADERS_TIMEOUT", message: "Headers Timeout Error" },
    "timeout",
    "code/UND_ERR",
  ),
  row(
    "R-EC-4: UND_ERR_SOCKET → timeout",
    { provider: "openai", code: "UND_ERR_SOCKET", message: "other side closed" },
    "timeout",
    "code/UND_ERR",
  ),
  row(
    "R-EC-4: DEADLINE_EXCEEDED → timeout (Google)",
    {
      provider: "google",
      message: '{"error":{"code":504,"message":"Deadline expired before operation could complete.","status":"DEADLINE_EXCEEDED"}}',
      status: undefined,
    },
    "timeout",
    "status/5xx",
  ),
  row(
    "R-EC-4: DEADLINE_EXCEEDED code without a status → timeout",
    { provider: "google", code: "DEADLINE_EXCEEDED", message: "Deadline expired before operation could complete." },
    "timeout",
    "code/DEADLINE_EXCEEDED",
  ),
  row(
    "R-EC-7: our watchdog's TimeoutError is a timeout, not an abort",
    { provider: "openai", errorType: "TimeoutError", message: "The operation was aborted due to timeout" },
    "timeout",
    "code/TimeoutError",
  ),
  row(
    "R-EC-4: codes come after the status: ECONNRESET with 401 is auth",
    { provider: "openai", status: 401, code: "ECONNRESET" },
    "auth",
    "status/401-403",
  ),
  row(
    "R-EC-4: ENOTFOUND (DNS) → timeout",
    { provider: "anthropic", code: "ENOTFOUND", message: "getaddrinfo ENOTFOUND api.anthropic.com" },
    "timeout",
    "code/ENOTFOUND",
  ),
  row(
    "R-TT-2: EAI_NONAME (DNS, no such name) → timeout",
    { provider: "openai", code: "EAI_NONAME", message: "getaddrinfo EAI_NONAME api.example.invalid" },
    "timeout",
    "code/EAI_NONAME",
  ),
  row(
    "R-TT-2: EAI_NODATA (DNS, no address for the name) → timeout",
    { provider: "openai", code: "EAI_NODATA", message: "getaddrinfo EAI_NODATA api.example.invalid" },
    "timeout",
    "code/EAI_NODATA",
  ),
  row(
    "R-TT-2: an expired certificate → timeout (unreachable)",
    { provider: "openai", code: "CERT_HAS_EXPIRED", message: "certificate has expired" },
    "timeout",
    "code/TLS",
  ),
  row(
    "R-TT-2: a certificate for another host → timeout (unreachable)",
    { provider: "openai", code: "ERR_TLS_CERT_ALTNAME_INVALID", message: "Hostname/IP does not match certificate's altnames" },
    "timeout",
    "code/TLS",
  ),
  row(
    "R-TT-2: a self-signed certificate → timeout (unreachable)",
    { provider: "ollama", code: "DEPTH_ZERO_SELF_SIGNED_CERT", message: "self-signed certificate" },
    "timeout",
    "code/TLS",
  ),
  row(
    "R-TT-2: TLS spoken to a plain HTTP port → timeout (unreachable)",
    { provider: "openai", code: "ERR_SSL_WRONG_VERSION_NUMBER", message: "wrong version number" },
    "timeout",
    "code/TLS",
  ),
  row(
    "R-EC-4: ERR_STREAM_PREMATURE_CLOSE → timeout",
    { provider: "openai", code: "ERR_STREAM_PREMATURE_CLOSE", message: "Premature close" },
    "timeout",
    "code/ERR_STREAM_PREMATURE_CLOSE",
  ),
  // AWS Bedrock exceptions as an in-stream exception frame names them, before any status says more.
  row(
    "R-GW-12: ServiceUnavailableException → overloaded (Bedrock, in-stream)",
    { provider: "bedrock", errorType: "ServiceUnavailableException", message: "Bedrock is unable to process your request." },
    "overloaded",
    "code/ServiceUnavailableException",
  ),
  row(
    "R-GW-12: ModelNotReadyException → overloaded (Bedrock, in-stream)",
    { provider: "bedrock", errorType: "ModelNotReadyException", message: "Wait and try your request again." },
    "overloaded",
    "code/ModelNotReadyException",
  ),
  row(
    "R-GW-12: ModelTimeoutException → timeout (Bedrock, in-stream)",
    { provider: "bedrock", errorType: "ModelTimeoutException", message: "Model has timed out in processing the request." },
    "timeout",
    "code/ModelTimeoutException",
  ),
  row(
    "R-GW-12: ModelStreamErrorException → server_error (Bedrock, in-stream)",
    { provider: "bedrock", errorType: "ModelStreamErrorException", message: "The model stream had an error." },
    "server_error",
    "code/ModelStreamErrorException",
  ),
  row(
    "R-GW-12: InternalServerException → server_error (Bedrock, in-stream)",
    { provider: "bedrock", errorType: "InternalServerException", message: "Retry your request." },
    "server_error",
    "code/InternalServerException",
  ),
  row(
    "R-GW-12: ResourceNotFoundException → model_not_found (Bedrock)",
    { provider: "bedrock", errorType: "ResourceNotFoundException", message: "Could not find the requested resource." },
    "model_not_found",
    "code/ResourceNotFoundException",
  ),
  row(
    "R-GW-12: UnrecognizedClientException → auth (Bedrock)",
    { provider: "bedrock", errorType: "UnrecognizedClientException", message: "Check your key." },
    "auth",
    "code/AccessDeniedException",
  ),
];

describe("R-EC-4 code rules", () => {
  testClassificationRows(rows);
  testRuleCoverage(
    "R-EC-4: every code row decides at least one test row",
    rows,
    CODE_RULES.map((rule) => rule.id),
  );
});
