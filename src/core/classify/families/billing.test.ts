import { describe } from "vitest";
import { row, testClassificationRows, testRuleCoverage } from "../__fixtures__/classification-table.js";
import { MISREAD_ROWS } from "../__fixtures__/misread-families.js";
import { BILLING_RULES } from "./billing.js";

const rows = [
  row(
    "R-EC-5: billing · OpenRouter insufficient credits",
    { provider: "openrouter", message: "Insufficient credits. Add more using https://openrouter.ai/credits" },
    "billing",
    "billing/insufficient-credits",
  ),
  row(
    "R-EC-5: billing · DeepSeek Insufficient Balance",
    {
      provider: "deepseek",
      message: '{"error":{"message":"Insufficient Balance","type":"unknown_error","param":null,"code":"invalid_request_error"}}',
    },
    "billing",
    "billing/insufficient-quota-or-balance",
  ),
  row(
    "R-EC-5: billing · OpenAI insufficient_quota body without a status (the code, not the quota text, decides)",
    {
      provider: "openai",
      message:
        '{"error":{"message":"You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}',
    },
    "billing",
    "billing/insufficient-quota-or-balance",
  ),
  row(
    "R-EC-5: billing · Anthropic credit balance is too low (400)",
    {
      provider: "anthropic",
      status: 400,
      message:
        '{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."}}',
    },
    "billing",
    "billing/credit-balance-too-low",
  ),
  row(
    "R-EC-5: billing · payment required without a status",
    { provider: "together", message: "Payment Required: add a payment method" },
    "billing",
    "billing/payment-required",
  ),
  row(
    "R-EC-5: billing · Plans & Billing",
    { provider: "anthropic", message: "Your access was paused. Visit Plans & Billing to continue." },
    "billing",
    "billing/plans-and-billing",
  ),
  row(
    "R-EC-5: billing · OpenAI billing hard limit (400 defers to the message class)",
    {
      provider: "openai",
      status: 400,
      message:
        '{"error":{"message":"Billing hard limit has been reached","type":"invalid_request_error","code":"billing_hard_limit_reached"}}',
    },
    "billing",
    "billing/billing-hard-limit",
  ),
  row(
    "R-EC-5: billing · add more credits",
    { provider: "openrouter", message: "Please add more credits to your account to continue." },
    "billing",
    "billing/add-more-credits",
  ),
  row(
    "R-EC-5: billing · xAI purchase more credits (no status)",
    {
      provider: "xai",
      message:
        "Your team 16f2151a-40f4-4a80-8ad0-cae00c27e8dd has either used all available credits or reached its monthly spending limit. To continue making API requests, please purchase more credits or raise your spending limit.",
    },
    "billing",
    "billing/purchase-credits",
  ),
  row(
    "R-EC-5: billing · OpenRouter requires more credits, or fewer max_tokens",
    {
      provider: "openrouter",
      message:
        "This request requires more credits, or fewer max_tokens. You requested up to 65536 tokens, but can only afford 12345. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account",
    },
    "billing",
    "billing/requires-more-credits",
  ),
  row(
    "R-EC-5: billing · xAI run out of credits (no status)",
    { provider: "xai", message: "You have run out of credits or need a Grok subscription." },
    "billing",
    "billing/out-of-credits",
  ),
  row(
    "R-EC-5: billing · OpenAI billing_not_active",
    {
      provider: "openai",
      message:
        '{"error":{"message":"Your account is not active, please check your billing details on our website.","type":"billing_not_active","param":null,"code":"billing_not_active"}}',
    },
    "billing",
    "billing/billing-not-active",
  ),
  row(
    "R-EC-5: billing · Gemini 'check your plan and billing details' alone is not billing text",
    { provider: "google", message: "You exceeded your current quota, please check your plan and billing details." },
    "rate_limit",
    "rate_limit/exceeded-current-quota",
  ),
  row(
    "R-EC-5: billing · insufficient account balance (relay)",
    { provider: "relay", message: "Insufficient account balance" },
    "billing",
    "billing/insufficient-quota-or-balance",
  ),
  row(
    "R-EC-5: billing · Venice insufficient USD or Diem balance",
    { provider: "venice", message: "Insufficient USD or Diem balance to complete request" },
    "billing",
    "billing/insufficient-quota-or-balance",
  ),
  row(
    "R-EC-5: billing · Kimi account balance is insufficient",
    { provider: "kimi", message: "Your account balance is insufficient" },
    "billing",
    "billing/balance-insufficient",
  ),
  row(
    "R-EC-5: billing · balance too low",
    { provider: "relay", message: "balance too low to complete this request" },
    "billing",
    "billing/balance-insufficient",
  ),
  row(
    "R-EC-5: billing · you are out of credits",
    { provider: "relay", message: "You are out of credits." },
    "billing",
    "billing/out-of-credits",
  ),
  row(
    "R-EC-5: billing · no credits remaining",
    { provider: "relay", message: "No credits remaining on this key" },
    "billing",
    "billing/out-of-credits",
  ),
  row(
    "R-EC-5: billing · credits exhausted",
    { provider: "relay", message: "Credits exhausted for this workspace" },
    "billing",
    "billing/credits-exhausted",
  ),
  row(
    "R-EC-5: billing · Together credit limit exceeded",
    { provider: "together", message: "Credit limit exceeded. Please add a payment method." },
    "billing",
    "billing/credits-exhausted",
  ),
  row(
    "R-EC-5: billing · Google BILLING_DISABLED",
    { provider: "google", message: "This API method requires billing to be enabled. Please enable billing on project #123 then retry." },
    "billing",
    "billing/billing-disabled",
  ),
  row(
    "R-EC-5: billing · relay please recharge",
    { provider: "relay", message: "Request refused, please recharge" },
    "billing",
    "billing/recharge",
  ),
  row(
    "R-EC-5: billing · quota exhausted worded as billing",
    { provider: "relay", message: "Your quota has been exhausted; pay to continue (billing)." },
    "billing",
    "billing/quota-exhausted-billing",
  ),
  row(
    "R-EC-5: billing · DashScope Arrearage",
    { provider: "qwen", message: '{"code":"Arrearage","message":"Access denied, please make sure your account is in good standing."}' },
    "billing",
    "billing/arrears",
  ),
  row(
    "R-EC-5: billing · LiteLLM budget exceeded",
    { provider: "litellm", message: "Budget has been exceeded! Current cost: 10.02, Max budget: 10.0" },
    "billing",
    "billing/spending-limit",
  ),
  row(
    "R-EC-5: billing · Z.ai model not in current plan",
    { provider: "zai", message: '{"code":1311,"message":"The model you requested is not available in your current plan"}' },
    "billing",
    "billing/plan-excludes-model",
  ),
  row(
    "R-EC-5: billing · Volcengine InvalidSubscription",
    {
      provider: "volcengine",
      message:
        '{"error":{"code":"InvalidSubscription","message":"Your account does not have a valid CodingPlan subscription, or your subscription has expired."}}',
    },
    "billing",
    "billing/plan-excludes-model",
  ),
  row(
    "R-EC-5: billing · payment failed",
    { provider: "fireworks", message: "Account on hold: payment failed" },
    "billing",
    "billing/payment-failed",
  ),
  row(
    "R-EC-5: billing · Moonshot exceeded_current_quota_error",
    { provider: "moonshot", message: '{"error":{"message":"quota","type":"exceeded_current_quota_error"}}' },
    "billing",
    "billing/exceeded-current-quota-error",
  ),
  row(
    "R-EC-5: billing · 'Billing: please upgrade your plan'",
    { provider: "relay", message: "Billing: please upgrade your plan to continue" },
    "billing",
    "billing/billing-head",
  ),
  row(
    "R-EC-5: billing · Moonshot account suspended over billing",
    { provider: "moonshot", message: "Your account ak-1 is suspended, please check your plan and billing details" },
    "billing",
    "billing/account-suspended-billing",
  ),
  row(
    "R-EC-5: billing · Anthropic request would exceed the credit balance",
    { provider: "anthropic", message: "This request would exceed your account's credit balance" },
    "billing",
    "billing/credit-balance-too-low",
  ),
  row(
    "R-EC-5: billing · credits have run out",
    { provider: "relay", message: "Your credits have run out. Upgrade to continue." },
    "billing",
    "billing/credits-exhausted",
  ),
  row(
    "R-EC-5: billing · relay prepaid quota with money left stated",
    { provider: "relay", message: "用户额度不足, 剩余额度: $0.00" },
    "billing",
    "billing/cjk-prepaid-quota",
  ),
  row(
    "R-EC-5: billing · 额度已用尽 without money words stays a rate limit",
    { provider: "relay", message: "该令牌额度已用尽" },
    "rate_limit",
    "rate_limit/cjk-rate-limit",
  ),
  row(
    "R-EC-5: billing · 余额不足 (balance insufficient)",
    { provider: "relay", message: "余额不足，请充值后再试" },
    "billing",
    "billing/cjk-billing",
  ),
];

describe("billing family", () => {
  testClassificationRows(rows);
  testRuleCoverage(
    "R-EC-5: every billing pattern decides at least one row",
    [...rows, ...MISREAD_ROWS],
    BILLING_RULES.map((rule) => rule.id),
  );
});
