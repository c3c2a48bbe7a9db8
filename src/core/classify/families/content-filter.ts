/**
 * content_filter (R-EC-5): a provider's safety refusal or content-policy rejection. Checked before the
 * status (R-EC-2), so a 400 or 403 carrying it is still content_filter: answering from another model would
 * route around the provider's decision.
 */
import type { MessageRule } from "../rule-types.js";

const row = (id: string, pattern: RegExp): MessageRule => ({ id: `content_filter/${id}`, reason: "content_filter", pattern });

export const CONTENT_FILTER_RULES: readonly MessageRule[] = [
  row("content-policy-violation", /\bcontent[_ ]policy[_ ]violation\b/i),
  // `content_filter_results` (Azure's per-response annotations) must not match: hence the word boundary.
  row("content-filter", /\bcontent[_ ]filter(?:ed|ing)?\b/i),
  row("responsible-ai-policy", /\bresponsible ?ai ?policy/i),
  row("refusal-stop-reason", /\b(?:stop|finish)[ _]?reason\W{0,4}(?:refusal|safety|prohibited_content|blocklist|spii)\b/i),
  row("blocked-for-safety", /\bblocked (?:due to|because of|for) (?:safety|prohibited_content|blocklist|spii)\b/i),
  row("usage-policy-flag", /\bflagged as potentially violating\b|\bas a result of our safety system\b/i),
  row("moderation-flag", /\brequires moderation\b|\binput was flagged\b/i),
  row("guardrail-intervened", /\bguardrail[_ ]intervened\b/i),
];
