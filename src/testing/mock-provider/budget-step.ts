/** How a budget decision joins the mock's answer: a 429 step when spent, extra headers when allowed. */
import type { BudgetBook, BudgetDecision } from "./budget-book.js";
import { budgetHeaders } from "./budget-headers.js";
import type { MockBudgets } from "./budget-schema.js";
import type { StepDecision } from "./rule-book.js";
import { resolveScenarioName } from "./scenario-file.js";
import { mockScenarioSchema, type MockScenario, type MockWireApi } from "./scenario-schema.js";

/** The rule name recorded for answers the budget decided (`requests()[i].ruleName`). */
export const BUDGET_RULE_NAME = "budget";

/** Budgets a scenario selection declares (a bare rule list declares none). */
export function scenarioBudgets(selection: unknown, named: Readonly<Record<string, MockScenario>>): MockBudgets | undefined {
  if (typeof selection === "string") return resolveScenarioName(selection, named).budgets;
  if (Array.isArray(selection)) return undefined;
  const parsed = mockScenarioSchema.safeParse(selection);
  return parsed.success ? parsed.data.budgets : undefined;
}

/** A spent budget answers like the provider would: 429 with its rate-limit headers and a retry-after. */
export function budgetRejection(decision: Extract<BudgetDecision, { kind: "rejected" }>, api: MockWireApi, now: number): StepDecision {
  return {
    step: {
      fault: "rate-limit",
      retryAfterSeconds: decision.retryAfterSeconds,
      headers: budgetHeaders(decision.budget, decision.windows, api, now),
    },
    ruleName: BUDGET_RULE_NAME,
  };
}

/** Counts the answer's tokens and returns the headers that report the key's windows after it. */
export function allowedBudgetHeaders(
  book: BudgetBook,
  decision: BudgetDecision,
  request: { key?: string; api: MockWireApi; tokens: number; now: number },
): Record<string, string> {
  if (decision.kind !== "allowed") return {};
  book.spendTokens(request.key, request.tokens);
  return budgetHeaders(decision.budget, decision.windows, request.api, request.now);
}
