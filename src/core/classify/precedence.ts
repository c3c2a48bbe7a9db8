/**
 * R-EC-2 as data: which families are read before the status, and in which order message families are
 * tried afterwards (first match wins). Specific before generic: permanent auth before auth, usage windows and relayed
 * cooldowns before billing (their texts offer to "purchase credits"), billing before quota texts, structured server errors before transient texts, and `format` last.
 */
import type { FailoverReason } from "../reasons.js";
import type { MessageRule } from "./rule-types.js";
import { AUTH_PERMANENT_RULES } from "./families/auth-permanent.js";
import { AUTH_RULES } from "./families/auth.js";
import { BILLING_RULES } from "./families/billing.js";
import { CONTENT_FILTER_RULES } from "./families/content-filter.js";
import { CONTEXT_OVERFLOW_RULES } from "./families/context-overflow.js";
import { FORMAT_RULES } from "./families/format.js";
import { MODEL_NOT_FOUND_RULES } from "./families/model-not-found.js";
import { NO_ERROR_DETAILS_RULES } from "./families/no-error-details.js";
import { OVERLOADED_RULES } from "./families/overloaded.js";
import { PROVIDER_SCOPED_RULES } from "./families/provider-scoped.js";
import { RATE_LIMIT_RULES } from "./families/rate-limit.js";
import { RELAYED_COOLDOWN_RULES } from "./families/relayed-cooldown.js";
import { SERVER_ERROR_RULES } from "./families/server-error.js";
import { SESSION_EXPIRED_RULES } from "./families/session-expired.js";
import { TIMEOUT_RULES } from "./families/timeout.js";
import { USAGE_WINDOW_RULES } from "./families/usage-window.js";

/** Reasons decided before the status: the run must not fail over on them (R-EC-2). */
export const EARLY_REASONS: ReadonlySet<FailoverReason> = new Set(["context_overflow", "content_filter"]);

export const EARLY_MESSAGE_RULES: readonly MessageRule[] = [...CONTEXT_OVERFLOW_RULES, ...CONTENT_FILTER_RULES];

export const MESSAGE_RULES: readonly MessageRule[] = [
  ...NO_ERROR_DETAILS_RULES,
  ...AUTH_PERMANENT_RULES,
  ...USAGE_WINDOW_RULES,
  ...RELAYED_COOLDOWN_RULES,
  ...BILLING_RULES,
  ...AUTH_RULES,
  ...RATE_LIMIT_RULES,
  ...OVERLOADED_RULES,
  ...SESSION_EXPIRED_RULES,
  ...MODEL_NOT_FOUND_RULES,
  ...PROVIDER_SCOPED_RULES,
  ...SERVER_ERROR_RULES,
  ...TIMEOUT_RULES,
  ...FORMAT_RULES,
];

/** Every message rule, early ones included: what a status condition `signals: reason` looks through. */
export const ALL_MESSAGE_RULES: readonly MessageRule[] = [...EARLY_MESSAGE_RULES, ...MESSAGE_RULES];
