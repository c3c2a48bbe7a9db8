import { describe } from "vitest";
import { row, testClassificationRows, testRuleCoverage } from "../__fixtures__/classification-table.js";
import { MISREAD_ROWS } from "../__fixtures__/misread-families.js";
import { MODEL_NOT_FOUND_RULES } from "./model-not-found.js";

const rows = [
  row(
    "R-EC-5: model_not_found · OpenAI model_not_found body without a status",
    {
      provider: "openai",
      message:
        '{"error":{"message":"The model `gpt-9` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}',
    },
    "model_not_found",
    "model_not_found/model-not-found-code",
  ),
  row(
    "R-EC-5: model_not_found · unknown model",
    { provider: "anthropic", message: "Unknown model: claude-opus-9" },
    "model_not_found",
    "model_not_found/unknown-model",
  ),
  row(
    "R-EC-5: model_not_found · Groq model does not exist (400 defers to the message class)",
    { provider: "groq", status: 400, message: "The model `llama3-70b` does not exist or you do not have access to it." },
    "model_not_found",
    "model_not_found/model-does-not-exist",
  ),
  row(
    "R-EC-5: model_not_found · Ollama model not found, try pulling it first",
    { provider: "ollama", message: '{"error":"model \\"llama3.2\\" not found, try pulling it first"}' },
    "model_not_found",
    "model_not_found/model-does-not-exist",
  ),
  row(
    "R-EC-5: model_not_found · Gemini models/… is not found for API version",
    {
      provider: "google",
      message:
        "models/gemini-1.0-pro is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.",
    },
    "model_not_found",
    "model_not_found/model-does-not-exist",
  ),
  row(
    "R-EC-5: model_not_found · xAI model does not exist",
    { provider: "xai", message: "The model grok-9 does not exist or your team does not have access to it." },
    "model_not_found",
    "model_not_found/model-does-not-exist",
  ),
  row(
    "R-EC-5: model_not_found · OpenRouter no endpoints found for",
    { provider: "openrouter", message: "No endpoints found for meta-llama/llama-3.1-405b-instruct:free." },
    "model_not_found",
    "model_not_found/no-endpoints-found",
  ),
  row(
    "R-EC-5: model_not_found · Groq model decommissioned",
    {
      provider: "groq",
      status: 400,
      message:
        "The model `mixtral-8x7b-32768` has been decommissioned and is no longer supported. Please refer to https://console.groq.com/docs/deprecations for a recommendation on which model to use instead.",
    },
    "model_not_found",
    "model_not_found/model-retired",
  ),
  row(
    "R-EC-5: model_not_found · OpenRouter not a valid model ID (400)",
    { provider: "openrouter", status: 400, message: "anthropic/claude-9 is not a valid model ID" },
    "model_not_found",
    "model_not_found/not-a-valid-model-id",
  ),
  row(
    "R-EC-5: model_not_found · Bedrock provided model identifier is invalid (400)",
    { provider: "bedrock", status: 400, errorType: "ValidationException", message: "The provided model identifier is invalid." },
    "model_not_found",
    "model_not_found/bedrock-model-identifier",
  ),
  row(
    "R-EC-5: model_not_found · Groq model_is_deactivated",
    { provider: "groq", message: '{"error":{"message":"The model `mixtral-8x7b-32768` is deactivated","code":"model_is_deactivated"}}' },
    "model_not_found",
    "model_not_found/model-retired",
  ),
  row(
    "R-EC-5: model_not_found · bare model_decommissioned code",
    { provider: "groq", code: "model_decommissioned", message: "gone" },
    "model_not_found",
    "model_not_found/model-retired-code",
  ),
  row(
    "R-EC-5: model_not_found · Qwen Model not exist",
    { provider: "qwen", message: "Model not exist." },
    "model_not_found",
    "model_not_found/model-does-not-exist",
  ),
  row(
    "R-EC-5: model_not_found · Bedrock end of life",
    { provider: "bedrock", message: "This model version has reached the end of its life." },
    "model_not_found",
    "model_not_found/model-retired",
  ),
  row(
    "R-EC-5: model_not_found · Azure DeploymentNotFound",
    { provider: "azure", message: "The API deployment for this resource does not exist." },
    "model_not_found",
    "model_not_found/deployment-not-found",
  ),
  row(
    "R-EC-5: model_not_found · Together unable to access model",
    { provider: "together", message: "Unable to access model meta-llama/Llama-99." },
    "model_not_found",
    "model_not_found/deployment-not-found",
  ),
  row(
    "R-EC-5: model_not_found · no such model",
    { provider: "lmstudio", message: "No such model: qwen-9b" },
    "model_not_found",
    "model_not_found/unknown-model",
  ),
];

describe("model_not_found family", () => {
  testClassificationRows(rows);
  testRuleCoverage(
    "R-EC-5: every model_not_found pattern decides at least one row",
    [...rows, ...MISREAD_ROWS],
    MODEL_NOT_FOUND_RULES.map((rule) => rule.id),
  );
});
