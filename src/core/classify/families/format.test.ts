import { describe } from "vitest";
import { row, testClassificationRows, testRuleCoverage } from "../__fixtures__/classification-table.js";
import { MISREAD_ROWS } from "../__fixtures__/misread-families.js";
import { FORMAT_RULES } from "./format.js";

const rows = [
  row(
    "R-EC-5: format · OpenAI tool_calls[0].id too long (400)",
    {
      provider: "openai",
      status: 400,
      message:
        "Invalid 'messages[3].tool_calls[0].id': string too long. Expected a string with maximum length 40, but got a string with length 64 instead.",
    },
    "format",
    "format/tool-call-id",
  ),
  row(
    "R-EC-5: format · Anthropic tool_use.id should match pattern",
    { provider: "anthropic", message: "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'" },
    "format",
    "format/tool-call-id",
  ),
  row(
    "R-EC-5: format · OpenAI tool messages must answer each tool_call_id",
    {
      provider: "openai",
      message:
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_abc123",
    },
    "format",
    "format/tool-call-id",
  ),
  row(
    "R-EC-5: format · Mistral tool call id shape",
    { provider: "mistral", message: "Tool call id was call_abc123xyz but must be a-z, A-Z, 0-9, with a length of 9." },
    "format",
    "format/tool-call-id",
  ),
  row(
    "R-EC-5: format · Anthropic tool_use ids without tool_result",
    {
      provider: "anthropic",
      message:
        "messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01ABC. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
    },
    "format",
    "format/tool-use-without-result",
  ),
  row(
    "R-EC-5: format · string should match pattern",
    { provider: "anthropic", message: "metadata.user_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'" },
    "format",
    "format/string-should-match-pattern",
  ),
  row(
    "R-EC-5: format · Anthropic does not support assistant message prefill",
    {
      provider: "anthropic",
      message: "This model does not support assistant message prefill. The conversation must end with a user message.",
    },
    "format",
    "format/no-assistant-prefill",
  ),
  row(
    "R-EC-5: format · conversation must end with a user message",
    { provider: "bedrock", message: "A conversation must end with a user message." },
    "format",
    "format/must-end-with-user-message",
  ),
  row(
    "R-EC-5: format · Gemini function call turn order",
    {
      provider: "google",
      message: "Please ensure that function call turn comes immediately after a user turn or after a function response turn.",
    },
    "format",
    "format/function-call-turn-order",
  ),
  row(
    "R-EC-5: format · OpenAI unsupported parameter max_tokens",
    {
      provider: "openai",
      message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
    },
    "format",
    "format/unsupported-parameter",
  ),
  row(
    "R-EC-5: format · Anthropic invalid_request_error body without a status",
    {
      provider: "anthropic",
      message: '{"type":"error","error":{"type":"invalid_request_error","message":"messages: text content blocks must be non-empty"}}',
    },
    "format",
    "format/invalid-request-error",
  ),
];

describe("format family", () => {
  testClassificationRows(rows);
  testRuleCoverage(
    "R-EC-5: every format pattern decides at least one row",
    [...rows, ...MISREAD_ROWS],
    FORMAT_RULES.map((rule) => rule.id),
  );
});
