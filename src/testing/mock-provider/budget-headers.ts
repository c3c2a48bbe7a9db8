/**
 * The rate-limit headers a budgeted key's answers carry, in each provider's real shape: OpenAI
 * `x-ratelimit-*-{requests,tokens}` (reset as a duration), Anthropic `anthropic-ratelimit-*` (RFC 3339),
 * OpenRouter `x-ratelimit-{limit,remaining,reset}` (epoch ms), and the subscription windows as Anthropic
 * `anthropic-ratelimit-unified-*` (utilisation, status, epoch-seconds reset) or Codex `x-codex-*`.
 */
import type { BudgetWindowState } from "./budget-book.js";
import type { MockBudget } from "./budget-schema.js";
import type { MockWireApi } from "./scenario-schema.js";

/** Anthropic starts warning before a window is spent; the mock does at 90 % like a nearly full plan. */
const WARNING_UTILISATION = 0.9;

function goDuration(ms: number): string {
  const totalSeconds = Math.max(0, ms) / 1000;
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = Math.round((totalSeconds - minutes * 60) * 1000) / 1000;
  return minutes > 0 ? `${minutes}m${seconds}s` : `${seconds}s`;
}

function remainingOf(window: BudgetWindowState): number {
  return Math.max(0, window.limit - window.used);
}

function bucketHeaders(
  style: "openai" | "anthropic" | "openrouter",
  windows: readonly BudgetWindowState[],
  now: number,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const window of windows) {
    if (window.name !== "requests" && window.name !== "tokens") continue;
    const remaining = String(remainingOf(window));
    if (style === "openai") {
      headers[`x-ratelimit-limit-${window.name}`] = String(window.limit);
      headers[`x-ratelimit-remaining-${window.name}`] = remaining;
      headers[`x-ratelimit-reset-${window.name}`] = goDuration(window.resetAt - now);
    } else if (style === "anthropic") {
      headers[`anthropic-ratelimit-${window.name}-limit`] = String(window.limit);
      headers[`anthropic-ratelimit-${window.name}-remaining`] = remaining;
      headers[`anthropic-ratelimit-${window.name}-reset`] = new Date(window.resetAt).toISOString();
    } else if (window.name === "requests") {
      headers["x-ratelimit-limit"] = String(window.limit);
      headers["x-ratelimit-remaining"] = remaining;
      headers["x-ratelimit-reset"] = String(window.resetAt);
    }
  }
  return headers;
}

function subscriptionHeaders(style: "unified" | "codex", windows: readonly BudgetWindowState[], now: number): Record<string, string> {
  const headers: Record<string, string> = {};
  const spans = [
    { name: "five-hour", unified: "5h", codex: "primary", claim: "five_hour" },
    { name: "seven-day", unified: "7d", codex: "secondary", claim: "seven_day" },
  ] as const;
  let binding: { utilisation: number; resetAt: number; claim: string } | undefined;
  for (const span of spans) {
    const window = windows.find((entry) => entry.name === span.name);
    if (!window) continue;
    const utilisation = Math.min(1, window.used / window.limit);
    if (style === "unified") {
      const status = utilisation >= 1 ? "rejected" : utilisation >= WARNING_UTILISATION ? "allowed_warning" : "allowed";
      headers[`anthropic-ratelimit-unified-${span.unified}-utilization`] = String(Math.round(utilisation * 10_000) / 10_000);
      headers[`anthropic-ratelimit-unified-${span.unified}-reset`] = String(Math.floor(window.resetAt / 1000));
      headers[`anthropic-ratelimit-unified-${span.unified}-status`] = status;
    } else {
      headers[`x-codex-${span.codex}-used-percent`] = String(Math.round(utilisation * 10_000) / 100);
      headers[`x-codex-${span.codex}-window-minutes`] = String(Math.round(window.lengthMs / 60_000));
      headers[`x-codex-${span.codex}-reset-after-seconds`] = String(Math.max(0, Math.ceil((window.resetAt - now) / 1000)));
    }
    if (!binding || utilisation > binding.utilisation) binding = { utilisation, resetAt: window.resetAt, claim: span.claim };
  }
  if (style === "unified" && binding) {
    headers["anthropic-ratelimit-unified-status"] =
      binding.utilisation >= 1 ? "rejected" : binding.utilisation >= WARNING_UTILISATION ? "allowed_warning" : "allowed";
    headers["anthropic-ratelimit-unified-representative-claim"] = binding.claim;
    headers["anthropic-ratelimit-unified-reset"] = String(Math.floor(binding.resetAt / 1000));
  }
  return headers;
}

export function budgetHeaders(
  budget: MockBudget,
  windows: readonly BudgetWindowState[],
  api: MockWireApi,
  now: number,
): Record<string, string> {
  const bucketStyle = budget.headers ?? "auto";
  const bucket = bucketStyle === "auto" ? (api === "anthropic" ? "anthropic" : "openai") : bucketStyle;
  const subscriptionStyle = budget.subscriptionHeaders ?? "auto";
  const subscription = subscriptionStyle === "auto" ? (api === "anthropic" ? "unified" : "codex") : subscriptionStyle;
  return {
    ...(bucket === "none" ? {} : bucketHeaders(bucket, windows, now)),
    ...(subscription === "none" || bucket === "none" ? {} : subscriptionHeaders(subscription, windows, now)),
  };
}
