/**
 * Rate-limit budgets of the mock provider (R-PO-7 test double): per API key, how many requests and tokens
 * a window allows and which provider's rate-limit headers report it. See docs/mock-provider.md.
 */
import { z } from "zod";

/** Which rate-limit headers the mock sends; `auto` follows the wire (Anthropic → Anthropic, else OpenAI). */
export const MOCK_BUDGET_HEADER_STYLES = ["auto", "openai", "anthropic", "openrouter", "none"] as const;
/** Which headers report the subscription windows; `auto`: Anthropic wire → unified, else Codex. */
export const MOCK_SUBSCRIPTION_HEADER_STYLES = ["auto", "unified", "codex", "none"] as const;

const count = z.number().int().min(1).max(100_000_000);

export const mockBudgetSchema = z.strictObject({
  /** Requests per window (`windowSeconds`). */
  requests: count.optional(),
  /** Tokens (input + output of the answers) per window. */
  tokens: count.optional(),
  /** Length of the request/token window (default 60 s). */
  windowSeconds: z
    .number()
    .positive()
    .max(30 * 86_400)
    .optional(),
  /** Subscription-style windows: requests per 5 hours and per 7 days. */
  fiveHourRequests: count.optional(),
  sevenDayRequests: count.optional(),
  /** The windows began this long before the mock started (an account used earlier), so they reset sooner. */
  windowStartedSecondsAgo: z
    .number()
    .min(0)
    .max(30 * 86_400)
    .optional(),
  /**
   * Requests already counted in each request window (requests, 5 h, 7 d) when it first opens — an account
   * used earlier, e.g. 96 of 100 already spent. Windows that begin again start from zero.
   */
  usedRequests: z.number().int().min(0).max(100_000_000).optional(),
  headers: z.enum(MOCK_BUDGET_HEADER_STYLES).optional(),
  subscriptionHeaders: z.enum(MOCK_SUBSCRIPTION_HEADER_STYLES).optional(),
});

/** API key → budget. Keys without a budget are unlimited and send no rate-limit headers. */
export const mockBudgetsSchema = z.record(z.string().min(1), mockBudgetSchema);

export type MockBudget = z.output<typeof mockBudgetSchema>;
export type MockBudgets = z.output<typeof mockBudgetsSchema>;
export type MockBudgetsInput = z.input<typeof mockBudgetsSchema>;
