import { describe } from "vitest";
import { row, testClassificationRows, testRuleCoverage } from "../__fixtures__/classification-table.js";
import { MISREAD_ROWS } from "../__fixtures__/misread-families.js";
import { USAGE_WINDOW_RULES } from "./usage-window.js";

const rows = [
  row(
    "R-EC-5: rate_limit window · weekly/monthly limit without a verb",
    { provider: "zai", message: "Weekly/Monthly Limit Exhausted. Your limit will reset at 2026-09-01 00:00:00" },
    "rate_limit",
    "rate_limit/periodic-window",
  ),
  row(
    "R-EC-5: rate_limit window · Claude 5-hour limit",
    { provider: "anthropic", message: "5-hour limit reached ∙ resets 3pm" },
    "rate_limit",
    "rate_limit/periodic-window",
  ),
  row(
    "R-EC-5: rate_limit window · Z.ai usage limit for 5 hour",
    { provider: "zai", message: "Usage limit for 5 hours hit" },
    "rate_limit",
    "rate_limit/periodic-window",
  ),
  row(
    "R-EC-5: rate_limit window · Codex usage limit offering to purchase more credits is not billing",
    {
      provider: "openai-codex",
      message:
        "You've hit your usage limit. Visit https://chatgpt.com/codex/settings/usage to purchase more credits or try again at Jul 5th, 2026 8:19 PM.",
    },
    "rate_limit",
    "rate_limit/hit-your-usage-limit",
  ),
  row(
    "R-EC-5: rate_limit window · usage_limit_reached",
    { provider: "openai-codex", message: "usage_limit_reached" },
    "rate_limit",
    "rate_limit/usage-limit-reached",
  ),
  row(
    "R-EC-5: rate_limit window · Anthropic API usage limits with a regain date",
    {
      provider: "anthropic",
      message: "You have reached your specified API usage limits. You will regain access on 2026-08-01 at 00:00 UTC.",
    },
    "rate_limit",
    "rate_limit/usage-limit",
  ),
  row(
    "R-EC-5: rate_limit window · limit will reset, upgrade offered",
    { provider: "kimi", message: "Plan limit hit. Your limit will reset in 3 hours; upgrade for more." },
    "rate_limit",
    "rate_limit/limit-resets",
  ),
  row(
    "R-EC-5: rate_limit window · try again at a time",
    { provider: "minimax", message: "Too much for now, purchase credits or try again at 8:19 PM" },
    "rate_limit",
    "rate_limit/come-back-at",
  ),
  row(
    "R-EC-5: rate_limit window · Copilot premium request allowance",
    {
      provider: "github-copilot",
      message: "You have exceeded your premium request allowance. We have automatically switched you to GPT-4.1",
    },
    "rate_limit",
    "rate_limit/allowance-exceeded",
  ),
  row(
    "R-EC-5: rate_limit window · Copilot token usage",
    { provider: "github-copilot", message: "Sorry, you have exceeded your Copilot token usage." },
    "rate_limit",
    "rate_limit/allowance-exceeded",
  ),
  row(
    "R-EC-5: rate_limit window · a monthly spending limit is billing, not a window",
    { provider: "xai", message: "reached its monthly spending limit, please purchase more credits" },
    "billing",
    "billing/purchase-credits",
  ),
  row(
    "R-EC-5: rate_limit window · explicit billing text wins over a usage limit",
    { provider: "relay", message: "Insufficient balance to continue past your usage limit" },
    "billing",
    "billing/insufficient-quota-or-balance",
  ),
];

describe("rate_limit usage-window family", () => {
  testClassificationRows(rows);
  testRuleCoverage(
    "R-EC-5: every usage-window pattern decides at least one row",
    [...rows, ...MISREAD_ROWS],
    USAGE_WINDOW_RULES.map((rule) => rule.id),
  );
});
