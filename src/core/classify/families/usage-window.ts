/**
 * rate_limit, usage windows (R-EC-3, R-EC-5): subscription and plan windows that reopen by themselves
 * (Codex/ChatGPT, Claude, Z.ai, Kimi, MiniMax, Ollama cloud). They are read before `billing` because these
 * texts routinely offer to "upgrade" or "purchase more credits" — an offer, not a billing stop. The same
 * patterns tell the 402 and 429 status rows that a text is a window (status-rules.ts).
 */
import type { MessageRule } from "../rule-types.js";
import { EXPLICIT_BILLING_TEXTS } from "./billing.js";

/** "Insufficient balance … your usage limit" is a billing stop: the explicit billing text wins. */
const EXPLICIT_BILLING = new RegExp(EXPLICIT_BILLING_TEXTS.map((pattern) => pattern.source).join("|"), "i");

const row = (id: string, pattern: RegExp): MessageRule => ({
  id: `rate_limit/${id}`,
  reason: "rate_limit",
  pattern,
  unless: EXPLICIT_BILLING,
});

const PERIOD = String.raw`(?:hourly|daily|weekly|monthly|\d+[- ]?(?:hour|hr|h|day)|five[- ]hour|rolling)`;
const TIME_OR_DATE = String.raw`(?:\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|tomorrow|midnight|noon)`;

/** A periodic window named with its limit: `weekly limit`, `5-hour usage limit`, `daily/monthly limits`. */
export const PERIODIC_WINDOW = new RegExp(
  String.raw`\b${PERIOD}(?:\/${PERIOD})*\s+(?:(?:usage|rate|request|token|message|prompt|plan)\s+)?limits?\b|\busage limit\b[^\n]{0,20}?\bfor (?:the )?(?:\d+|five) ?hours?\b`,
  "i",
);
/** A limit that says when it comes back: `your limit will reset at …`, `quota resets in 3h`. */
export const LIMIT_RESETS =
  /\b(?:limits?|quota|allowance|usage)\b[^\n]{0,60}?\b(?:will |is going to |should )?(?:reset|resets|refresh(?:es)?|renews?|replenish(?:es)?)\b/i;
/** A stated moment to come back: `try again at Jul 5th, 2026 8:19 PM`, `regain access on 2026-08-01`. */
export const COME_BACK_AT = new RegExp(
  String.raw`\b(?:try again|retry|available again|regain access|access (?:will be )?restored)\s+(?:at|on)\s+${TIME_OR_DATE}`,
  "i",
);

export const USAGE_WINDOW_RULES: readonly MessageRule[] = [
  row("periodic-window", PERIODIC_WINDOW),
  row("hit-your-usage-limit", /\byou(?:'|’)?(?:ve| have) (?:hit|reached) your\b[^\n]{0,40}?\busage limit\b/i),
  row("usage-limit-reached", /\busage[ _]limit[ _](?:has been[ _])?reached\b/i),
  row("usage-limit", /\busage[ _-]limits?\b|\busage_limit_exceeded\b/i),
  row("limit-resets", LIMIT_RESETS),
  row("come-back-at", COME_BACK_AT),
  // Anthropic: "Workspace spend limit reached." A workspace or organisation cap that reopens with the period
  // (R-EC-3), unlike an account that cannot pay.
  row(
    "workspace-spend-limit",
    /\b(?:organization|organisation|workspace)(?:'s|’s)?\b[^\n]{0,20}?\bspend(?:ing)? limit\b[^\n]{0,20}?\b(?:exceeded|reached|hit)\b/i,
  ),
  // GitHub Copilot: "exceeded your Copilot token usage", "exceeded your premium request allowance".
  row("allowance-exceeded", /\bexceeded (?:your |the )?[\w -]{0,30}?\b(?:usage|allowance)\b/i),
];

/** Texts the status rows treat as a retryable window (R-EC-3's 402 exception, 429 billing exception). */
export const USAGE_WINDOW_TEXTS: readonly RegExp[] = USAGE_WINDOW_RULES.map((rule) => rule.pattern);
