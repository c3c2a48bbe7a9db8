/**
 * Spends the budgets of `budget-schema.ts`: fixed windows per key that start at the key's first request
 * (or `windowStartedSecondsAgo` before the mock started) and begin again once they have run out. A request
 * that finds any window spent is answered 429; every other request is counted against every window.
 * Time comes from the mock's clock, so a test can run a minute of traffic in milliseconds.
 */
import type { MockBudget, MockBudgets } from "./budget-schema.js";

export type BudgetWindowName = "requests" | "tokens" | "five-hour" | "seven-day";

export interface BudgetWindowState {
  name: BudgetWindowName;
  limit: number;
  used: number;
  lengthMs: number;
  startedAt: number;
  resetAt: number;
}

export interface BudgetKeyState {
  windows: BudgetWindowState[];
  /** Requests answered 429 because a window was spent. */
  rejected: number;
}

export type BudgetDecision =
  | { kind: "none" }
  | { kind: "allowed"; budget: MockBudget; windows: readonly BudgetWindowState[] }
  | { kind: "rejected"; budget: MockBudget; windows: readonly BudgetWindowState[]; retryAfterSeconds: number };

const FIVE_HOURS_MS = 5 * 3_600_000;
const SEVEN_DAYS_MS = 7 * 86_400_000;

function windowsOf(budget: MockBudget): { name: BudgetWindowName; limit: number; lengthMs: number }[] {
  const lengthMs = (budget.windowSeconds ?? 60) * 1000;
  const windows: { name: BudgetWindowName; limit: number; lengthMs: number }[] = [];
  if (budget.requests !== undefined) windows.push({ name: "requests", limit: budget.requests, lengthMs });
  if (budget.tokens !== undefined) windows.push({ name: "tokens", limit: budget.tokens, lengthMs });
  if (budget.fiveHourRequests !== undefined) windows.push({ name: "five-hour", limit: budget.fiveHourRequests, lengthMs: FIVE_HOURS_MS });
  if (budget.sevenDayRequests !== undefined) windows.push({ name: "seven-day", limit: budget.sevenDayRequests, lengthMs: SEVEN_DAYS_MS });
  return windows;
}

export class BudgetBook {
  readonly #budgets: MockBudgets;
  readonly #now: () => number;
  readonly #startedAt: number;
  readonly #state = new Map<string, BudgetKeyState>();

  constructor(budgets: MockBudgets, now: () => number) {
    this.#budgets = budgets;
    this.#now = now;
    this.#startedAt = now();
  }

  #windows(key: string, budget: MockBudget, now: number): BudgetKeyState {
    let state = this.#state.get(key);
    if (!state) {
      const head = budget.windowStartedSecondsAgo;
      const startedAt = head === undefined ? now : this.#startedAt - head * 1000;
      state = {
        windows: windowsOf(budget).map((window) => ({
          ...window,
          used: window.name === "tokens" ? 0 : Math.min(window.limit, budget.usedRequests ?? 0),
          startedAt,
          resetAt: startedAt + window.lengthMs,
        })),
        rejected: 0,
      };
      this.#state.set(key, state);
    }
    for (const window of state.windows) {
      if (now < window.resetAt) continue;
      // A window that ran out begins again now (fixed windows, like a subscription's first message).
      window.used = 0;
      window.startedAt = now;
      window.resetAt = now + window.lengthMs;
    }
    return state;
  }

  /** Decides one request and, when allowed, counts it (tokens are added by `spendTokens`). */
  take(key: string | undefined): BudgetDecision {
    const budget = key === undefined ? undefined : this.#budgets[key];
    if (key === undefined || !budget) return { kind: "none" };
    const now = this.#now();
    const state = this.#windows(key, budget, now);
    const spent = state.windows.filter((window) => window.used >= window.limit);
    if (spent.length > 0) {
      state.rejected += 1;
      const resetAt = Math.max(...spent.map((window) => window.resetAt));
      return { kind: "rejected", budget, windows: state.windows, retryAfterSeconds: Math.max(0, Math.ceil((resetAt - now) / 1000)) };
    }
    for (const window of state.windows) if (window.name !== "tokens") window.used += 1;
    return { kind: "allowed", budget, windows: state.windows };
  }

  spendTokens(key: string | undefined, tokens: number): void {
    const window = key === undefined ? undefined : this.#state.get(key)?.windows.find((entry) => entry.name === "tokens");
    if (window) window.used += tokens;
  }

  snapshot(): Record<string, BudgetKeyState> {
    return structuredClone(Object.fromEntries(this.#state));
  }
}
