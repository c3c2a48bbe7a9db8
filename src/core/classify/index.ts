/**
 * classifyFailure (SPEC §3): every failure becomes a FailoverReason, plus the provider-stated reset hints
 * and a secret-free preview. A pure function of its input; it never throws, whatever it is given.
 */
import { parseResetHints } from "../retry-after.js";
import type { Classification, FailureInput } from "../types.js";
import { isConcurrencyLimitText } from "./families/concurrency-limit.js";
import { decideReason, UNCLASSIFIED_RULE_ID } from "./engine.js";
import { buildPreview } from "./preview.js";
import { readFailure } from "./read-failure.js";

export interface ExplainedClassification {
  classification: Classification;
  /** The table row that decided (for decision logs and tests), e.g. `status/429`, `code/ECONNRESET`. */
  ruleId: string;
}

export function classifyFailure(input: FailureInput): Classification {
  return explainFailure(input).classification;
}

/** classifyFailure plus the id of the rule that decided. */
export function explainFailure(input: FailureInput): ExplainedClassification {
  try {
    const facts = readFailure(input);
    const verdict = decideReason(facts);
    const hints = parseResetHints(facts.headers, facts.haystack, facts.now);
    const classification: Classification = { reason: verdict.reason, preview: buildPreview(facts.text, facts.html) };
    if (facts.status !== undefined) classification.status = facts.status;
    if (facts.code !== undefined) classification.code = facts.code;
    if (hints.resetAt !== undefined) classification.resetAt = hints.resetAt;
    if (hints.retryAfterMs !== undefined) classification.retryAfterMs = hints.retryAfterMs;
    if (verdict.reason === "rate_limit" && isConcurrencyLimitText(facts.haystack)) classification.concurrencyLimit = true;
    return { classification, ruleId: verdict.ruleId };
  } catch {
    // Defence in depth: readFailure already tolerates odd input, but a classifier that throws would turn
    // one provider failure into a crash of the whole run.
    return { classification: { reason: "unclassified", preview: "" }, ruleId: UNCLASSIFIED_RULE_ID };
  }
}
