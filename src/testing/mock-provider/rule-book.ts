/**
 * Decides which step answers a request: the first rule whose `match` fits, each rule consuming its own
 * step list in order (one cursor per rule, shared by every request the rule matches) — or, for a rule with
 * `random`, drawing one of its steps per request from the rule's own seeded generator.
 */
import { SeededRandom } from "../seeded-random.js";
import type { MockRule, MockStep, MockWireApi } from "./scenario-schema.js";

export interface MockRequestIdentity {
  key?: string;
  model: string;
  api: MockWireApi;
}

export interface StepDecision {
  step: MockStep;
  /** Index of the rule that answered; absent when no rule matched (healthy default). */
  ruleIndex?: number;
  ruleName?: string;
  /** The rule's own answer and continuation behaviour (R-ST-4). */
  answer?: Pick<MockRule, "answer" | "continuation">;
}

const HEALTHY: MockStep = { fault: "ok" };

function globToRegExp(pattern: string): RegExp {
  const escaped = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join(".*")}$`);
}

function ruleMatches(rule: MockRule, request: MockRequestIdentity): boolean {
  const match = rule.match;
  if (!match) return true;
  if (match.key !== undefined && match.key !== request.key) return false;
  if (match.api !== undefined && match.api !== request.api) return false;
  if (match.model !== undefined && !globToRegExp(match.model).test(request.model)) return false;
  return true;
}

export class RuleBook {
  private readonly rules: readonly MockRule[];
  /** Per rule: the steps with `times` unrolled, and how many were consumed. */
  private readonly cursors: { steps: MockStep[]; used: number; random?: SeededRandom }[];

  constructor(rules: readonly MockRule[]) {
    this.rules = rules;
    this.cursors = rules.map((rule) => ({
      steps: rule.steps.flatMap((step) => Array.from({ length: step.times ?? 1 }, () => step)),
      used: 0,
      ...(rule.random ? { random: new SeededRandom(rule.random.seed) } : {}),
    }));
  }

  next(request: MockRequestIdentity): StepDecision {
    const ruleIndex = this.rules.findIndex((rule) => ruleMatches(rule, request));
    const rule = this.rules[ruleIndex];
    const cursor = this.cursors[ruleIndex];
    if (!rule || !cursor) return { step: HEALTHY };
    const named = {
      ...(rule.name === undefined ? {} : { ruleName: rule.name }),
      ...(rule.answer === undefined
        ? {}
        : { answer: { answer: rule.answer, ...(rule.continuation ? { continuation: rule.continuation } : {}) } }),
    };
    if (cursor.random) {
      const drawn = cursor.steps[Math.floor(cursor.random.next() * cursor.steps.length)] ?? HEALTHY;
      cursor.used += 1;
      return { step: drawn, ruleIndex, ...named };
    }
    const step = cursor.steps[cursor.used];
    if (step) {
      cursor.used += 1;
      return { step, ruleIndex, ...named };
    }
    const last = cursor.steps[cursor.steps.length - 1];
    if (rule.then === "repeat-last" && last) return { step: last, ruleIndex, ...named };
    return { step: HEALTHY, ruleIndex, ...named };
  }

  /** Rewinds every rule to its first step (a random rule to the start of its seeded sequence). */
  rewind(): void {
    this.rules.forEach((rule, index) => {
      const cursor = this.cursors[index];
      if (!cursor) return;
      cursor.used = 0;
      if (rule.random) cursor.random = new SeededRandom(rule.random.seed);
    });
  }
}
