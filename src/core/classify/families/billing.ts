/**
 * billing (R-EC-5): the account cannot pay. Matched literally: Gemini's per-minute quota text says
 * "check your plan and billing details", which is a rate limit, so "plan(s) and billing" is not a pattern
 * here (OpenAI's insufficient_quota body is recognised by its code instead). Smaller and relay providers
 * word the same stop many ways ("account balance is insufficient", "credits exhausted", "please recharge",
 * translated 余额不足); each row is one such family.
 */
import type { MessageRule } from "../rule-types.js";

const row = (id: string, pattern: RegExp, extra: Partial<MessageRule> = {}): MessageRule => ({
  id: `billing/${id}`,
  reason: "billing",
  pattern,
  ...extra,
});

/** Words that say a limit comes back by itself: then it is a usage window (usage-window.ts), not a billing stop. */
const COMES_BACK = String.raw`(?:try again|retry|resets?|renews?|refresh(?:es)?|come back|wait|later|tomorrow|hourly|daily|weekly|monthly|\d+[- ]?(?:hours?|hrs?|h|days?|minutes?|mins?))`;

/**
 * "Your usage limit has been reached. Please upgrade your plan." with no word of it coming back: the only
 * way on is to pay more, so "upgrade" beats "usage limit".
 */
const UPGRADE_ONLY_USAGE_LIMIT = new RegExp(String.raw`^(?![\s\S]*\b${COMES_BACK}\b)[\s\S]*\busage limit\b[\s\S]{0,120}?\bupgrade\b`, "i");

/**
 * Texts that say the account cannot pay, whatever else they say. A usage-window row yields to them, and a
 * 402 carrying them stays billing even when it adds "try again" ("Insufficient balance, top up and try
 * again").
 */
export const EXPLICIT_BILLING_TEXTS: readonly RegExp[] = [
  /\binsufficient[ _](?:[\w-]+[ _])?(?:credits?|balance|funds|quota)\b/i,
  /\bcredit balance\b/i,
  /\bbalance\b[^\n]{0,20}?\b(?:insufficient|not enough|too low)\b/i,
  /\b(?:add more credits|recharge|top[ -]?up)\b|余额不足|请充值/i,
  UPGRADE_ONLY_USAGE_LIMIT,
];

export const BILLING_RULES: readonly MessageRule[] = [
  row("insufficient-credits", /\binsufficient[ _]credits?\b/i),
  // `insufficient balance`, `Insufficient account balance`, `insufficient USD or Diem balance`.
  row("insufficient-quota-or-balance", /\binsufficient[ _](?:[\w-]+[ _](?:or[ _][\w-]+[ _])?)?(?:quota|balance|funds)\b/i),
  row("credit-balance-too-low", /\bcredit balance (?:is )?too low\b|\bexceeds? (?:your |the )?(?:account(?:\x27s|’s)? )?credit balance\b/i),
  // `account balance is insufficient`, `balance too low`, `balance not enough`, `your balance is negative`.
  row(
    "balance-insufficient",
    /\bbalance\b[^\n]{0,20}?\b(?:is |was |has been )?(?:insufficient|not enough|too low|exhausted|depleted|negative|below (?:zero|the minimum))\b|\b(?:not enough|no remaining|zero|low) (?:account |wallet )?balance\b/i,
  ),
  row("payment-required", /\bpayment[ _]required\b/i),
  row("plans-and-billing", /\bplans (?:&|&amp;|and) billing\b/i),
  row("billing-hard-limit", /\bbilling hard limit\b/i),
  row("add-more-credits", /\badd more credits\b/i),
  row("purchase-credits", /\b(?:purchase|buy) (?:more )?credits\b/i),
  row("requires-more-credits", /\brequires? more credits\b/i),
  row(
    "out-of-credits",
    /\bused all available credits\b|\b(?:run|ran|running) out of credits\b|\bout of credits\b|\b(?:doesn't|does not) have any credits\b|\bno (?:remaining |more |available )?credits(?: (?:left|remaining|available))?\b/i,
  ),
  // `credits exhausted`, `credits have been used up`, `credit limit exceeded`, `not enough credits`.
  row(
    "credits-exhausted",
    /\bcredits?\b[^\n]{0,30}?\b(?:exhausted|depleted|used up|(?:has|have) expired|(?:have |has )?(?:run|ran) out)\b|\bcredit limit\b[^\n]{0,20}?\b(?:reached|exceeded|hit)\b|\bexceeded (?:your |the )?credit limit\b|\bnot enough credits?\b|\bcredits_exhausted\b/i,
  ),
  row("billing-not-active", /\bbilling[ _](?:not[ _]active|error)\b/i),
  // Google `BILLING_DISABLED`, "requires billing to be enabled".
  row(
    "billing-disabled",
    /\bbilling[ _](?:disabled|not enabled|account (?:is )?(?:disabled|closed|not found))\b|\bbilling to be enabled\b/i,
  ),
  // Relays translating "请充值": "please recharge", "top up your account".
  row("recharge", /\b(?:please |to |must )?(?:recharge|top[ -]?up)\b(?: (?:your|the) (?:account|balance|wallet))?/i),
  // A quota that is gone and says to pay: "your quota has been exhausted, please recharge".
  row("quota-exhausted-billing", /\bquota\b[^\n]{0,40}?\b(?:exhausted|used up|depleted|insufficient|not enough)\b/i, {
    requires: /\b(?:recharge|top[ -]?up|balance|billing|credits?|payment|purchase|paid plan)\b|充值|余额/i,
  }),
  // Qwen/DashScope `Arrearage`: "Access denied, please make sure your account is in good standing."
  row("arrears", /\barrear(?:s|age)\b|\baccount is (?:not )?in good standing\b|\boverdue (?:payment|balance|bill)\b/i),
  // Moonshot: "Your account … is suspended, please check your plan and billing details".
  row("account-suspended-billing", /\baccount\b[^\n]{0,80}?\b(?:suspended|frozen|restricted)\b/i, {
    requires: /\b(?:billing|balance|payment|credits?|recharge|overdue)\b/i,
  }),
  row(
    "spending-limit",
    /\b(?:monthly |daily )?spend(?:ing)? limit\b|\bmax(?:imum)? budget\b|\bbudget(?: limit)? (?:has been |is |was )?(?:exceeded|exhausted|reached)\b|\bout of budget\b/i,
  ),
  // Anthropic consumer plans: "You're out of extra usage. Add more at claude.ai/settings/usage…", "Extra usage
  // is required for long context requests." (A text that also says when it resets is a window, read earlier.)
  row(
    "extra-usage",
    /\bout of extra usage\b|\bextra usage (?:is |was )?(?:required|exhausted|depleted|used up|not enabled|disabled|turned off)\b|\b(?:enable|add|buy|purchase|turn on) (?:more )?extra usage\b/i,
  ),
  row("upgrade-only-usage-limit", UPGRADE_ONLY_USAGE_LIMIT),
  // Z.ai 1311, Volcengine `InvalidSubscription`: the plan does not include the model or has lapsed.
  row(
    "plan-excludes-model",
    /\bnot (?:available|included) (?:in|on|with|for) your (?:current )?(?:plan|subscription)\b|\bcurrent subscription plan\b[^\n]{0,60}?\binclude\b|\bsubscription (?:has )?expired\b|\b(?:does not|doesn't) have a valid\b[^\n]{0,30}?\bsubscription\b|\binvalidsubscription\b|\bneed an? [\w-]+ subscription\b/i,
  ),
  row("payment-failed", /\bpayment (?:failed|declined|method (?:required|missing|declined|is required))\b|\bfailed payment\b/i),
  // Moonshot `exceeded_current_quota_error` ("… is suspended, please check your plan and billing details").
  row("exceeded-current-quota-error", /\bexceeded_current_quota_error\b/i),
  row("billing-head", /^(?:error[:\s-]+)?billing(?:\s+error)?(?:[:\s-]+|$)/i, {
    bare: true,
    requires: /\b(?:upgrade|credits?|payment|plan|purchase|subscription)\b/i,
  }),
  // Chinese providers and relays: "balance insufficient", "account in arrears", "please recharge".
  row("cjk-billing", /余额不足|余额已用完|账户余额|欠费|请充值|充值后/),
  // A relay's prepaid quota (额度) that is gone and states money left: "用户额度不足, 剩余额度: $0.00".
  row("cjk-prepaid-quota", /(?:额度|配额)(?:不足|已用尽|已用完)/, { requires: /[$¥￥]\s*\d|\d\s*元|充值|余额/ }),
];
