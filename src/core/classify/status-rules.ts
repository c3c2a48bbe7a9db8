/**
 * R-EC-3: what an HTTP status means, with the message as context. The first matching row decides; the
 * status beats message text (a 401 that mentions a rate limit is `auth`). Context overflow and content
 * filter were already decided before these rows are read (R-EC-2).
 */
import { EXPLICIT_BILLING_TEXTS } from "./families/billing.js";
import { USAGE_WINDOW_TEXTS } from "./families/usage-window.js";
import type { StatusRule } from "./rule-types.js";

/** A 402 that reads as a usage window that reopens by itself is a rate limit, not a billing stop. */
const RETRYABLE_USAGE_WINDOW: readonly RegExp[] = [
  /\b(?:hourly|daily|weekly|monthly)\b[^\n]{0,40}?\blimit\b/i,
  /\btry again\b/i,
  /\bresets?\b/i,
  ...USAGE_WINDOW_TEXTS,
];

export const STATUS_RULES: readonly StatusRule[] = [
  {
    id: "status/402-usage-window",
    statuses: [402],
    when: { textMatches: RETRYABLE_USAGE_WINDOW },
    unless: { textMatches: EXPLICIT_BILLING_TEXTS },
    then: { reason: "rate_limit" },
  },
  { id: "status/402", statuses: [402], then: { reason: "billing" } },
  // A usage window that offers to "purchase more credits" is still a window (R-EC-3, R-EC-5).
  {
    id: "status/429-billing",
    statuses: [429],
    when: { signals: "billing" },
    unless: { textMatches: USAGE_WINDOW_TEXTS },
    then: { reason: "billing" },
  },
  { id: "status/429", statuses: [429], then: { reason: "rate_limit" } },
  { id: "status/401-403-revoked", statuses: [401, 403], when: { signals: "auth_permanent" }, then: { reason: "auth_permanent" } },
  { id: "status/401-403-billing", statuses: [401, 403], when: { signals: "billing" }, then: { reason: "billing" } },
  { id: "status/401-403", statuses: [401, 403], then: { reason: "auth" } },
  { id: "status/408", statuses: [408], then: { reason: "timeout" } },
  // 410 Gone from a proxy whose upstream went away, 499 Client Closed Request (nginx gave up waiting): transient,
  // unless the text names something more precise (a retired model).
  { id: "status/410-499", statuses: [410, 499], then: { messageClassOr: "timeout" } },
  { id: "status/404-auth-permanent", statuses: [404], when: { signals: "auth_permanent" }, then: { reason: "auth_permanent" } },
  { id: "status/404-auth", statuses: [404], when: { signals: "auth" }, then: { reason: "auth" } },
  { id: "status/404-billing", statuses: [404], when: { signals: "billing" }, then: { reason: "billing" } },
  { id: "status/404", statuses: [404], then: { reason: "model_not_found" } },
  { id: "status/529", statuses: [529], then: { reason: "overloaded" } },
  { id: "status/503", statuses: [503], then: { reason: "overloaded" } },
  { id: "status/5xx-structured", statuses: [[500, 599]], when: { signals: "server_error" }, then: { reason: "server_error" } },
  // A 5xx without a structured body is usually a proxy or load balancer giving up: a transport failure.
  { id: "status/5xx", statuses: [[500, 599]], then: { reason: "timeout" } },
  { id: "status/400-422-empty", statuses: [400, 422], when: { emptyBody: true }, then: { reason: "unclassified" } },
  { id: "status/400-422", statuses: [400, 422], then: { messageClassOr: "format" } },
];
