import { describe } from "vitest";
import { row, testClassificationRows, testRuleCoverage } from "../__fixtures__/classification-table.js";
import { MISREAD_ROWS } from "../__fixtures__/misread-families.js";
import { AUTH_PERMANENT_RULES } from "./auth-permanent.js";

const rows = [
  row(
    "R-EC-5: auth_permanent · API key revoked",
    { provider: "openai", message: "The API key you provided has been revoked." },
    "auth_permanent",
    "auth_permanent/api-key-revoked",
  ),
  row(
    "R-EC-5: auth_permanent · API key deleted (400 body)",
    { provider: "mistral", status: 400, message: "API key deleted by its owner" },
    "auth_permanent",
    "auth_permanent/api-key-revoked",
  ),
  row(
    "R-EC-5: auth_permanent · key has been disabled",
    { provider: "openrouter", message: "This key has been disabled" },
    "auth_permanent",
    "auth_permanent/key-has-been-disabled",
  ),
  row(
    "R-EC-5: auth_permanent · OpenAI account has been deactivated",
    { provider: "openai", message: "Your OpenAI account has been deactivated, please check your email for more information." },
    "auth_permanent",
    "auth_permanent/account-deactivated",
  ),
  row(
    "R-EC-5: auth_permanent · deactivated workspace",
    { provider: "anthropic", message: "This workspace has been deactivated. Contact your administrator." },
    "auth_permanent",
    "auth_permanent/deactivated-workspace",
  ),
  row(
    "R-EC-5: auth_permanent · Anthropic organization has been disabled (400 defers to the message class)",
    {
      provider: "anthropic",
      status: 400,
      message: '{"type":"error","error":{"type":"invalid_request_error","message":"This organization has been disabled."}}',
    },
    "auth_permanent",
    "auth_permanent/organization-disabled",
  ),
  row(
    "R-EC-5: auth_permanent · Google consumer has been suspended",
    { provider: "google", message: "Permission denied: Consumer 'api_key:AIzaSyA1b2C3d4E5f6G7h8I9j0KLMNOPQRSTUVW' has been suspended." },
    "auth_permanent",
    "auth_permanent/consumer-suspended",
  ),
  row(
    "R-EC-5: auth_permanent · OAuth refresh rejected with invalid_grant",
    { provider: "anthropic", message: '{"error":"invalid_grant","error_description":"Refresh token not found or invalid"}' },
    "auth_permanent",
    "auth_permanent/oauth-invalid-grant",
  ),
  row(
    "R-EC-5: auth_permanent · OAuth refresh token expired",
    { provider: "openai-codex", message: "Token refresh failed: refresh token expired; sign in again" },
    "auth_permanent",
    "auth_permanent/oauth-refresh-rejected",
  ),
  row(
    "R-EC-5: auth_permanent · Anthropic OAuth not allowed for this organization",
    {
      provider: "anthropic",
      message:
        '{"type":"error","error":{"type":"permission_error","message":"OAuth authentication is currently not allowed for this organization."}}',
    },
    "auth_permanent",
    "auth_permanent/not-allowed-for-organization",
  ),
  row(
    "R-EC-5: auth_permanent · key was blocked",
    { provider: "openrouter", message: "This API key was blocked by the account owner" },
    "auth_permanent",
    "auth_permanent/key-has-been-disabled",
  ),
  row(
    "R-EC-5: auth_permanent · account suspended over billing is not auth_permanent",
    { provider: "moonshot", message: "Your account ak-1 is suspended, please check your plan and billing details" },
    "billing",
    "billing/account-suspended-billing",
  ),
];

describe("auth_permanent family", () => {
  testClassificationRows(rows);
  testRuleCoverage(
    "R-EC-5: every auth_permanent pattern decides at least one row",
    [...rows, ...MISREAD_ROWS],
    AUTH_PERMANENT_RULES.map((rule) => rule.id),
  );
});
