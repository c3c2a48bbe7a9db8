import { describe } from "vitest";
import { row, testClassificationRows, testRuleCoverage } from "../__fixtures__/classification-table.js";
import { MISREAD_ROWS } from "../__fixtures__/misread-families.js";
import { CONTENT_FILTER_RULES } from "./content-filter.js";

const rows = [
  row(
    "R-EC-5: content_filter · OpenAI images content_policy_violation (Python SDK repr, not JSON)",
    {
      provider: "openai",
      message:
        "Error code: 400 - {'error': {'code': 'content_policy_violation', 'message': 'Your request was rejected as a result of our safety system.', 'type': 'invalid_request_error'}}",
    },
    "content_filter",
    "content_filter/content-policy-violation",
  ),
  row(
    "R-EC-5: content_filter · Azure OpenAI content management policy (code content_filter in repr)",
    {
      provider: "azure",
      status: 400,
      message:
        "Error code: 400 - {'error': {'message': \"The response was filtered due to the prompt triggering Azure OpenAI's content management policy.\", 'param': 'prompt', 'code': 'content_filter', 'status': 400}}",
    },
    "content_filter",
    "content_filter/content-filter",
  ),
  row(
    "R-EC-5: content_filter · Azure content_filter_results annotations alone are not a refusal",
    {
      provider: "azure",
      status: 429,
      message: '{"content_filter_results":{"hate":{"filtered":false}},"error":{"message":"Rate limit is exceeded."}}',
    },
    "rate_limit",
    "status/429",
  ),
  row(
    "R-EC-5: content_filter · Azure ResponsibleAIPolicyViolation inner error",
    { provider: "azure", message: "innererror: ResponsibleAIPolicyViolation (jailbreak detected)" },
    "content_filter",
    "content_filter/responsible-ai-policy",
  ),
  row(
    "R-EC-5: content_filter · Anthropic refusal stop reason",
    { provider: "anthropic", message: "Unhandled stop reason: refusal" },
    "content_filter",
    "content_filter/refusal-stop-reason",
  ),
  row(
    "R-EC-5: content_filter · Gemini finishReason SAFETY",
    { provider: "google", message: "Candidate finished early: finishReason: SAFETY" },
    "content_filter",
    "content_filter/refusal-stop-reason",
  ),
  row(
    "R-EC-5: content_filter · Gemini response blocked due to PROHIBITED_CONTENT",
    { provider: "google", message: "Response was blocked due to PROHIBITED_CONTENT" },
    "content_filter",
    "content_filter/blocked-for-safety",
  ),
  row(
    "R-EC-5: content_filter · OpenAI invalid_prompt flagged as potentially violating usage policy (400)",
    {
      provider: "openai",
      status: 400,
      message:
        '{"error":{"message":"Invalid prompt: your prompt was flagged as potentially violating our usage policy. Please try again with a different prompt.","type":"invalid_request_error","param":null,"code":"invalid_prompt"}}',
    },
    "content_filter",
    "content_filter/usage-policy-flag",
  ),
  row(
    "R-EC-5: content_filter · OpenRouter 403 moderation flag beats the 403 status",
    {
      provider: "openrouter",
      status: 403,
      message:
        '{"error":{"code":403,"message":"openai/gpt-4o requires moderation on OpenRouter. Your input was flagged for \\"harassment\\".","metadata":{"reasons":["harassment"],"provider_name":"OpenAI","model_slug":"openai/gpt-4o"}}}',
    },
    "content_filter",
    "content_filter/moderation-flag",
  ),
  row(
    "R-EC-5: content_filter · Bedrock guardrail_intervened stop reason",
    { provider: "bedrock", message: "Converse stopped: stopReason=guardrail_intervened" },
    "content_filter",
    "content_filter/guardrail-intervened",
  ),
];

describe("content_filter family", () => {
  testClassificationRows(rows);
  testRuleCoverage(
    "R-EC-5: every content_filter pattern decides at least one row",
    [...rows, ...MISREAD_ROWS],
    CONTENT_FILTER_RULES.map((rule) => rule.id),
  );
});
