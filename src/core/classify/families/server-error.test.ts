import { describe } from "vitest";
import { row, testClassificationRows, testRuleCoverage } from "../__fixtures__/classification-table.js";
import { MISREAD_ROWS } from "../__fixtures__/misread-families.js";
import { SERVER_ERROR_RULES } from "./server-error.js";

const rows = [
  row(
    "R-EC-5: server_error · OpenAI server_error body without a status",
    {
      provider: "openai",
      message:
        '{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}',
    },
    "server_error",
    "server_error/server-error-type",
  ),
  row(
    "R-EC-5: server_error · adapter-reported code server_error",
    { provider: "xai", code: "server_error", message: "Something went wrong on our side" },
    "server_error",
    "server_error/server-error-type",
  ),
  row(
    "R-EC-5: server_error · upstream_error payload",
    { provider: "openrouter", message: '{"error":{"message":"Upstream request failed","type":"upstream_error"}}' },
    "server_error",
    "server_error/upstream-error",
  ),
  row(
    "R-EC-5: server_error · Gemini status INTERNAL without an HTTP status",
    {
      provider: "google",
      message:
        '{"error":{"message":"An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting","status":"INTERNAL"}}',
    },
    "server_error",
    "server_error/google-internal",
  ),
  row(
    "R-EC-5: server_error · Bedrock InternalServerException",
    { provider: "bedrock", message: "InternalServerException: The server encountered an error processing your request." },
    "server_error",
    "server_error/aws-internal-server-exception",
  ),
  row(
    "R-EC-5: server_error · a structured server error that is billing stays billing",
    { provider: "openai", message: '{"error":{"message":"Billing hard limit has been reached","type":"server_error"}}' },
    "billing",
    "billing/billing-hard-limit",
  ),
];

describe("server_error family", () => {
  testClassificationRows(rows);
  testRuleCoverage(
    "R-EC-5: every server_error pattern decides at least one row",
    [...rows, ...MISREAD_ROWS],
    SERVER_ERROR_RULES.map((rule) => rule.id),
  );
});
