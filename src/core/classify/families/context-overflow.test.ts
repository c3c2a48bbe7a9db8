import { describe } from "vitest";
import { row, testClassificationRows, testRuleCoverage } from "../__fixtures__/classification-table.js";
import { MISREAD_ROWS } from "../__fixtures__/misread-families.js";
import { CONTEXT_OVERFLOW_RULES } from "./context-overflow.js";

const rows = [
  row(
    "R-EC-5: context_overflow · Anthropic 413 request_too_large body",
    {
      provider: "anthropic",
      status: 413,
      message: '{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}',
    },
    "context_overflow",
    "context_overflow/request-too-large",
  ),
  row(
    "R-EC-5: context_overflow · Ollama context length exceeded",
    { provider: "ollama", message: "ollama error: context length exceeded" },
    "context_overflow",
    "context_overflow/context-length-exceeded",
  ),
  row(
    "R-EC-5: context_overflow · OpenRouter endpoint maximum context length (code 400 in body)",
    {
      provider: "openrouter",
      message:
        '{"error":{"message":"This endpoint\'s maximum context length is 200000 tokens. However, you requested about 245123 tokens (237000 of text input, 8123 in the output). Please reduce the length of either one, or use the \\"middle-out\\" transform to compress your prompt automatically.","code":400}}',
    },
    "context_overflow",
    "context_overflow/maximum-context-length",
  ),
  row(
    "R-EC-5: context_overflow · Mistral prompt too large for maximum context length",
    {
      provider: "mistral",
      status: 400,
      message: "Prompt contains 40500 tokens and 0 draft tokens, too large for model with 32768 maximum context length",
    },
    "context_overflow",
    "context_overflow/maximum-context-length",
  ),
  row(
    "R-EC-5: context_overflow · Anthropic prompt is too long",
    {
      provider: "anthropic",
      status: 400,
      message:
        '400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 215234 tokens > 200000 maximum"}}',
    },
    "context_overflow",
    "context_overflow/prompt-too-long",
  ),
  row(
    "R-EC-5: context_overflow · Gemini input token count exceeds the maximum",
    {
      provider: "google",
      status: 400,
      message:
        '{"error":{"code":400,"message":"The input token count (1196265) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}',
    },
    "context_overflow",
    "context_overflow/input-token-count",
  ),
  row(
    "R-EC-5: context_overflow · Vertex INVALID_ARGUMENT input exceeds the maximum number of tokens",
    { provider: "google", message: "INVALID_ARGUMENT: input exceeds the maximum number of tokens" },
    "context_overflow",
    "context_overflow/input-exceeds-max-tokens",
  ),
  row(
    "R-EC-5: context_overflow · Bedrock ValidationException input is too long for requested model",
    { provider: "bedrock", status: 400, errorType: "ValidationException", message: "Input is too long for requested model." },
    "context_overflow",
    "context_overflow/input-too-long-for-model",
  ),
  row(
    "R-EC-5: context_overflow · the input is too long for the model",
    { message: "The input is too long for the model" },
    "context_overflow",
    "context_overflow/input-too-long-for-model",
  ),
  row(
    "R-EC-5: context_overflow · OpenAI Responses input exceeds the context window",
    { provider: "openai", message: "Your input exceeds the context window of this model. Please adjust your input and try again." },
    "context_overflow",
    "context_overflow/context-window-exceeded",
  ),
  row(
    "R-EC-5: context_overflow · Anthropic model_context_window_exceeded stop reason",
    { provider: "anthropic", message: "Unhandled stop reason: model_context_window_exceeded" },
    "context_overflow",
    "context_overflow/context-window-exceeded",
  ),
  row(
    "R-EC-5: context_overflow · xAI maximum prompt length",
    { provider: "xai", status: 400, message: "This model's maximum prompt length is 131072 but the request contains 150021 tokens." },
    "context_overflow",
    "context_overflow/maximum-prompt-length",
  ),
  row(
    "R-EC-5: context_overflow · llama.cpp exceeds the available context size",
    { provider: "ollama", status: 400, message: "the request exceeds the available context size, try increasing it" },
    "context_overflow",
    "context_overflow/available-context-size",
  ),
  row(
    "R-EC-5: context_overflow · TPM guard: OpenAI 'Request too large … tokens per min (TPM)' is a rate limit",
    {
      provider: "openai",
      message:
        "Request too large for gpt-4o in organization org-abc123 on tokens per min (TPM): Limit 30000, Requested 45000. The input or output tokens must be reduced in order to run successfully.",
    },
    "rate_limit",
    "rate_limit/per-minute-quota",
  ),
  row(
    "R-EC-5: context_overflow · TPM guard: Groq 413 TPM text never becomes context_overflow",
    {
      provider: "groq",
      status: 413,
      message:
        '{"error":{"message":"Request too large for model `llama-3.3-70b-versatile` in organization `org_01abc` service tier `on_demand` on tokens per minute (TPM): Limit 12000, Requested 25000, please reduce your message size and try again.","type":"tokens","code":"rate_limit_exceeded"}}',
    },
    "rate_limit",
    "code/RATE_LIMIT",
  ),
  row(
    "R-EC-5: context_overflow · TPM guard holds even next to 'maximum context length' wording",
    { message: "maximum context length is fine, but you exceeded 40000 TPM for this model" },
    "rate_limit",
    "rate_limit/per-minute-quota",
  ),
  row(
    "R-EC-5: context_overflow · request exceeds the model context window",
    { provider: "openai-compatible", message: "The request exceeds the model's maximum context window" },
    "context_overflow",
    "context_overflow/exceeds-context-window",
  ),
  row(
    "R-EC-5: context_overflow · Anthropic input length and max_tokens exceed context limit",
    {
      provider: "anthropic",
      status: 400,
      message:
        "input length and `max_tokens` exceed context limit: 197950 + 8192 > 200000, decrease input length or `max_tokens` and try again",
    },
    "context_overflow",
    "context_overflow/exceeds-context-window",
  ),
  row(
    "R-EC-5: context_overflow · input exceeds the model's maximum context limit",
    { provider: "litellm", message: "The input exceeds the model's maximum context limit of 8192 tokens." },
    "context_overflow",
    "context_overflow/exceeds-context-window",
  ),
  row(
    "R-EC-5: context_overflow · Bedrock too many input tokens",
    { provider: "bedrock", message: "ModelStreamErrorException: too many input tokens" },
    "context_overflow",
    "context_overflow/exceeds-context-window",
  ),
  row(
    "R-EC-5: context_overflow · 413 Request Entity Too Large (status in text)",
    { provider: "anthropic", message: "413 Request Entity Too Large" },
    "context_overflow",
    "context_overflow/payload-too-large-413",
  ),
  row(
    "R-EC-5: context_overflow · a 413 that names TPM stays a rate limit",
    {
      provider: "groq",
      message: "413 Request too large for model `llama-3.3-70b` on tokens per minute (TPM): Limit 12000, Requested 19384",
    },
    "rate_limit",
    "rate_limit/per-minute-quota",
  ),
];

describe("context_overflow family", () => {
  testClassificationRows(rows);
  testRuleCoverage(
    "R-EC-5: every context_overflow pattern decides at least one row",
    [...rows, ...MISREAD_ROWS],
    CONTEXT_OVERFLOW_RULES.map((rule) => rule.id),
  );
});
