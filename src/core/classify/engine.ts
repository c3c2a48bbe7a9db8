/**
 * Walks the classification tables in the order of R-EC-2:
 *   caller abort (R-EC-7) → context overflow / content filter → status (R-EC-3) → codes (R-EC-4)
 *   → message families (R-EC-5) → empty_response / unclassified.
 * The engine knows the order, never a reason string: every decision comes from a table row.
 */
import type { FailoverReason } from "../reasons.js";
import { CALLER_ABORT_NAMES } from "./abort.js";
import { CODE_RULES } from "./code-rules.js";
import { ALL_MESSAGE_RULES, EARLY_MESSAGE_RULES, EARLY_REASONS, MESSAGE_RULES } from "./precedence.js";
import type { FailureFacts } from "./read-failure.js";
import { statusIn, type CodeRule, type MessageRule, type StatusCondition, type StatusRule } from "./rule-types.js";
import { STATUS_RULES } from "./status-rules.js";

export interface Verdict {
  reason: FailoverReason;
  /** The table row that decided, e.g. `status/429`, `rate_limit/too-many-requests`, `code/ECONNRESET`. */
  ruleId: string;
}

export const CALLER_ABORT_RULE_ID = "abort/caller";
export const EMPTY_RESPONSE_RULE_ID = "fallback/empty-response";
export const UNCLASSIFIED_RULE_ID = "fallback/unclassified";

const EARLY_CODE_RULES = CODE_RULES.filter((rule) => EARLY_REASONS.has(rule.reason));
const LATE_CODE_RULES = CODE_RULES.filter((rule) => !EARLY_REASONS.has(rule.reason));
const CODE_RULES_BY_REASON = groupByReason(CODE_RULES);
const MESSAGE_RULES_BY_REASON = groupByReason(ALL_MESSAGE_RULES);

export function decideReason(facts: FailureFacts): Verdict {
  if (isCallerAbort(facts)) return { reason: "unclassified", ruleId: CALLER_ABORT_RULE_ID };

  const early = firstCodeRule(facts, EARLY_CODE_RULES) ?? firstMessageRule(facts, EARLY_MESSAGE_RULES);
  if (early) return verdictOf(early);

  const statusRule = STATUS_RULES.find((rule) => statusRuleApplies(rule, facts));
  if (statusRule && "reason" in statusRule.then) return { reason: statusRule.then.reason, ruleId: statusRule.id };

  const byContent = firstCodeRule(facts, LATE_CODE_RULES) ?? firstMessageRule(facts, MESSAGE_RULES);
  if (byContent) return verdictOf(byContent);
  if (statusRule && "messageClassOr" in statusRule.then) return { reason: statusRule.then.messageClassOr, ruleId: statusRule.id };

  if (facts.text === "" && facts.status === undefined) return { reason: "empty_response", ruleId: EMPTY_RESPONSE_RULE_ID };
  return { reason: "unclassified", ruleId: UNCLASSIFIED_RULE_ID };
}

function verdictOf(rule: CodeRule | MessageRule): Verdict {
  return { reason: rule.reason, ruleId: rule.id };
}

function isCallerAbort(facts: FailureFacts): boolean {
  if (facts.aborted) return true;
  return [facts.errorType, facts.inputCode].some((name) => name !== undefined && CALLER_ABORT_NAMES.some((pattern) => pattern.test(name)));
}

function firstCodeRule(facts: FailureFacts, rules: readonly CodeRule[]): CodeRule | undefined {
  return rules.find((rule) => facts.codes.some((code) => rule.pattern.test(code)));
}

function firstMessageRule(facts: FailureFacts, rules: readonly MessageRule[]): MessageRule | undefined {
  return rules.find((rule) => messageRuleApplies(rule, facts));
}

function messageRuleApplies(rule: MessageRule, facts: FailureFacts): boolean {
  if (rule.providers && (facts.provider === undefined || !rule.providers.includes(facts.provider))) return false;
  if (rule.statuses && !statusIn(rule.statuses, facts.status)) return false;
  if (rule.unlessStatuses && statusIn(rule.unlessStatuses, facts.status)) return false;
  if (rule.htmlPage && !facts.html) return false;
  if (!rule.pattern.test(rule.bare ? facts.bareMessage : facts.haystack)) return false;
  if (rule.requires && !rule.requires.test(facts.haystack)) return false;
  return !(rule.unless && rule.unless.test(facts.haystack));
}

function statusRuleApplies(rule: StatusRule, facts: FailureFacts): boolean {
  if (!statusIn(rule.statuses, facts.status)) return false;
  if (rule.when !== undefined && !conditionHolds(rule.when, facts)) return false;
  return rule.unless === undefined || !conditionHolds(rule.unless, facts);
}

function conditionHolds(condition: StatusCondition, facts: FailureFacts): boolean {
  if ("emptyBody" in condition) return facts.emptyBody;
  if ("textMatches" in condition) return condition.textMatches.some((pattern) => pattern.test(facts.haystack));
  const reason = condition.signals;
  return (
    firstCodeRule(facts, CODE_RULES_BY_REASON.get(reason) ?? []) !== undefined ||
    firstMessageRule(facts, MESSAGE_RULES_BY_REASON.get(reason) ?? []) !== undefined
  );
}

function groupByReason<Rule extends { readonly reason: FailoverReason }>(rules: readonly Rule[]): ReadonlyMap<FailoverReason, Rule[]> {
  const groups = new Map<FailoverReason, Rule[]>();
  for (const rule of rules) groups.set(rule.reason, [...(groups.get(rule.reason) ?? []), rule]);
  return groups;
}
