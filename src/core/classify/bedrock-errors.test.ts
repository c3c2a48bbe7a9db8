/** AWS Bedrock's failures as its API sends them (status, `x-amzn-ErrorType` name, JSON message), through the tables. */
import { describe } from "vitest";
import { row, testClassificationRows } from "./__fixtures__/classification-table.js";

const bedrock = (status: number | undefined, errorType: string, message: string) => ({
  provider: "bedrock",
  ...(status === undefined ? {} : { status }),
  errorType,
  message,
});

const rows = [
  row(
    "R-GW-12: ThrottlingException 429 → rate_limit",
    bedrock(429, "ThrottlingException", "Too many requests, please wait before trying again."),
    "rate_limit",
  ),
  row(
    "R-GW-12: ThrottlingException in a stream (no status) → rate_limit",
    bedrock(undefined, "ThrottlingException", "Too many tokens, please wait before trying again."),
    "rate_limit",
    "code/THROTTL",
  ),
  row(
    "R-GW-12: ServiceUnavailableException 503 → overloaded",
    bedrock(503, "ServiceUnavailableException", "Bedrock is unable to process your request."),
    "overloaded",
  ),
  // R-EC-3: the status beats the name; both fail over. Without a status (in a stream) the name decides.
  row(
    "R-GW-12: ModelNotReadyException 429 → rate_limit (status first), and overloaded when only the name is known",
    bedrock(429, "ModelNotReadyException", "Model is not ready for inference. Wait and try your request again."),
    "rate_limit",
  ),
  row(
    "R-GW-12: ModelNotReadyException in a stream → overloaded",
    bedrock(undefined, "ModelNotReadyException", "Model is not ready for inference. Wait and try your request again."),
    "overloaded",
    "code/ModelNotReadyException",
  ),
  row(
    "R-GW-12: ValidationException with Bedrock's overflow text → context_overflow",
    bedrock(400, "ValidationException", "Input is too long for requested model."),
    "context_overflow",
  ),
  row(
    "R-GW-12: ValidationException with Claude's overflow text → context_overflow",
    bedrock(400, "ValidationException", "prompt is too long: 210000 tokens > 200000 maximum"),
    "context_overflow",
  ),
  row(
    "R-GW-12: ValidationException with the max_tokens overflow text → context_overflow",
    bedrock(
      400,
      "ValidationException",
      "input length and `max_tokens` exceed context limit: 197000 + 8192 > 200000, decrease input length or `max_tokens` and try again",
    ),
    "context_overflow",
  ),
  row(
    "R-GW-12: another ValidationException → format",
    bedrock(
      400,
      "ValidationException",
      "Malformed input request: #: extraneous key [foo] is not permitted, please reformat your input and try again.",
    ),
    "format",
  ),
  row(
    "R-GW-12: AccessDeniedException 403 → auth",
    bedrock(403, "AccessDeniedException", "You don't have access to the model with the specified model ID."),
    "auth",
  ),
  row(
    "R-GW-12: UnrecognizedClientException 403 → auth",
    bedrock(403, "UnrecognizedClientException", "The security token included in the request is invalid."),
    "auth",
  ),
];

describe("R-GW-12 Bedrock error classification", () => {
  testClassificationRows(rows);
});
