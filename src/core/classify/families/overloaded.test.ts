import { describe } from "vitest";
import { row, testClassificationRows, testRuleCoverage } from "../__fixtures__/classification-table.js";
import { MISREAD_ROWS } from "../__fixtures__/misread-families.js";
import { OVERLOADED_RULES } from "./overloaded.js";

const rows = [
  row(
    "R-EC-5: overloaded · Gemini the model is overloaded",
    { provider: "google", message: "The model is overloaded. Please try again later." },
    "overloaded",
    "overloaded/overloaded",
  ),
  row(
    "R-EC-5: overloaded · OpenAI that model is currently overloaded",
    {
      provider: "openai",
      message:
        "That model is currently overloaded with other requests. You can retry your request, or contact us through our help center at help.openai.com if the error persists.",
    },
    "overloaded",
    "overloaded/overloaded",
  ),
  row(
    "R-EC-5: overloaded · overloaded_error in an unparsed stream error",
    { provider: "anthropic", message: "stream error event: overloaded_error" },
    "overloaded",
    "overloaded/overloaded-error",
  ),
  row(
    "R-EC-5: overloaded · model is at capacity",
    { provider: "mistral", message: "The model is at capacity. Please try again shortly." },
    "overloaded",
    "overloaded/at-capacity",
  ),
  row(
    "R-EC-5: overloaded · Gemini high demand",
    {
      provider: "google",
      message: "This model is currently experiencing high demand. Spikes in demand are usually temporary. Please try again later.",
    },
    "overloaded",
    "overloaded/high-demand",
  ),
  row(
    "R-EC-5: overloaded · service unavailable due to heavy load",
    { provider: "deepseek", message: "Service temporarily unavailable due to heavy load" },
    "overloaded",
    "overloaded/unavailable-with-capacity",
  ),
  row(
    "R-EC-5: overloaded · capacity wording before service unavailable",
    { provider: "together", message: "No spare capacity: service unavailable" },
    "overloaded",
    "overloaded/unavailable-with-capacity",
  ),
  row(
    "R-EC-5: overloaded · Bedrock ModelNotReadyException without a status",
    { provider: "bedrock", message: "ModelNotReadyException: Model is not ready for inference. Wait and try your request again." },
    "overloaded",
    "overloaded/model-not-ready",
  ),
  row(
    "R-EC-5: overloaded · Bedrock ServiceUnavailableException",
    { provider: "bedrock", message: "ServiceUnavailableException: Bedrock is unable to process your request." },
    "overloaded",
    "overloaded/service-unavailable-exception",
  ),
  row(
    "R-EC-5: overloaded · Groq 498 flex tier capacity exceeded",
    { provider: "groq", status: 498, message: "Flex tier capacity exceeded. This is a known issue and we are working on it." },
    "overloaded",
    "overloaded/capacity-exceeded",
  ),
  row(
    "R-EC-5: overloaded · Ollama server busy without a status",
    { provider: "ollama", message: '{"error":"server busy, please try again.  maximum pending requests exceeded"}' },
    "overloaded",
    "overloaded/server-busy",
  ),
  row(
    "R-EC-5: overloaded · OpenRouter high load",
    { provider: "openrouter", message: "The service is currently experiencing high load and cannot process your request." },
    "overloaded",
    "overloaded/high-demand",
  ),
  row(
    "R-EC-5: overloaded · relay upstream load saturated (负载已饱和)",
    { provider: "relay", message: "当前分组上游负载已饱和，请稍后再试" },
    "overloaded",
    "overloaded/cjk-overloaded",
  ),
  row(
    "R-EC-5: overloaded · GLM 1305 访问量过大 (too many visits)",
    { provider: "zai", message: "[1305][该模型当前访问量过大，请您稍后再试]" },
    "overloaded",
    "overloaded/cjk-overloaded",
  ),
];

describe("overloaded family", () => {
  testClassificationRows(rows);
  testRuleCoverage(
    "R-EC-5: every overloaded pattern decides at least one row",
    [...rows, ...MISREAD_ROWS],
    OVERLOADED_RULES.map((rule) => rule.id),
  );
});
