/**
 * auth_permanent (R-EC-5): the credential or its account is gone for good (revoked, deactivated, deleted),
 * the organisation refuses this kind of credential, or an OAuth refresh was rejected. Checked before
 * `auth` so "API key revoked" is not a plain auth error.
 */
import type { MessageRule } from "../rule-types.js";

const row = (id: string, pattern: RegExp, extra: Partial<MessageRule> = {}): MessageRule => ({
  id: `auth_permanent/${id}`,
  reason: "auth_permanent",
  pattern,
  ...extra,
});

/** An account suspended over money is billing (billing.ts), not a dead credential. */
const BILLING_WORDS = /\b(?:billing|balance|payment|credits?|recharge|overdue|arrears)\b/i;

export const AUTH_PERMANENT_RULES: readonly MessageRule[] = [
  row("api-key-revoked", /\bapi[ _-]?key\b[^\n]{0,40}?\b(?:revoked|deactivated|deleted|disabled)\b/i),
  // Code-like texts (`api_key_revoked`, `key_deleted`, `token_revoked`): the words are joined by underscores.
  row("revoked-code", /\b(?:api_)?(?:key|token)_(?:revoked|deactivated|deleted|disabled)\b/i),
  row("key-has-been-disabled", /\bkey (?:has been|was|is) (?:disabled|revoked|deleted|deactivated|blocked|suspended|banned)\b/i),
  row(
    "account-deactivated",
    /\baccount (?:has been|is|was) (?:deactivated|disabled|suspended|banned|terminated)\b|\baccount_deactivated\b/i,
    { unless: BILLING_WORDS },
  ),
  row("deactivated-workspace", /\bdeactivated[ _]workspace\b|\bworkspace (?:has been |is |was )?deactivated\b/i),
  row(
    "organization-disabled",
    /\borgani[sz]ation\b[^\n]{0,30}?\b(?:has been|is|was)\s+(?:disabled|deactivated|suspended|banned|deleted)\b|\b(?:disabled|deactivated|suspended) organi[sz]ation\b|\borgani[sz]ation_(?:disabled|deactivated)\b/i,
  ),
  // Anthropic: "OAuth authentication is currently not allowed for this organization."
  row("not-allowed-for-organization", /\bnot (?:allowed|permitted|enabled) for (?:this|your) organi[sz]ation\b/i),
  row("consumer-suspended", /\b(?:consumer|project|key)\b[^\n]{0,80}?\bhas been suspended\b/i),
  row("oauth-invalid-grant", /\binvalid_grant\b/i),
  row("oauth-refresh-rejected", /\brefresh[ _]token\b[^\n]{0,40}?\b(?:revoked|invalid|expired|not found|already (?:been )?used)\b/i),
];
