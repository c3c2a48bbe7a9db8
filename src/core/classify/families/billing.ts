/**
 * billing (R-EC-5): the account cannot pay. Matched literally: Gemini's per-minute quota text says
 * "check your plan and billing details", which is a rate limit, so "plan(s) and billing" is not a pattern
 * here (OpenAI's insufficient_quota body is recognised by its code instead).
 */
import type { MessageRule } from "../rule-types.js";

const row = (id: string, pattern: RegExp): MessageRule => ({ id: `billing/${id}`, reason: "billing", pattern });

export const BILLING_RULES: readonly MessageRule[] = [
  row("insufficient-credits", /\binsufficient[ _]credits?\b/i),
  row("insufficient-quota-or-balance", /\binsufficient[ _](?:quota|balance|funds)\b/i),
  row("credit-balance-too-low", /\bcredit balance (?:is )?too low\b/i),
  row("payment-required", /\bpayment[ _]required\b/i),
  row("plans-and-billing", /\bplans (?:&|&amp;|and) billing\b/i),
  row("billing-hard-limit", /\bbilling hard limit\b/i),
  row("add-more-credits", /\badd more credits\b/i),
  row("purchase-credits", /\b(?:purchase|buy) (?:more )?credits\b/i),
  row("requires-more-credits", /\brequires more credits\b/i),
  row("out-of-credits", /\bused all available credits\b|\brun out of credits\b|\bout of credits\b|\b(?:doesn't|does not) have any credits\b/i),
  row("billing-not-active", /\bbilling[ _](?:not[ _]active|error)\b/i),
];
