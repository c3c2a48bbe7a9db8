/**
 * auth_permanent (R-EC-5): the credential or its account is gone for good (revoked, deactivated, deleted)
 * or an OAuth refresh was rejected. Checked before `auth` so "API key revoked" is not a plain auth error.
 */
import type { MessageRule } from "../rule-types.js";

const row = (id: string, pattern: RegExp): MessageRule => ({ id: `auth_permanent/${id}`, reason: "auth_permanent", pattern });

export const AUTH_PERMANENT_RULES: readonly MessageRule[] = [
  row("api-key-revoked", /\bapi[ _-]?key\b[^\n]{0,40}?\b(?:revoked|deactivated|deleted|disabled)\b/i),
  row("key-has-been-disabled", /\bkey has been (?:disabled|revoked|deleted|deactivated)\b/i),
  row("account-deactivated", /\baccount (?:has been|is|was) (?:deactivated|disabled|suspended|banned|terminated)\b|\baccount_deactivated\b/i),
  row("deactivated-workspace", /\bdeactivated[ _]workspace\b|\bworkspace (?:has been |is |was )?deactivated\b/i),
  row("organization-disabled", /\borganization (?:has been|is|was) (?:disabled|deactivated|suspended)\b/i),
  row("consumer-suspended", /\b(?:consumer|project|key)\b[^\n]{0,80}?\bhas been suspended\b/i),
  row("oauth-invalid-grant", /\binvalid_grant\b/i),
  row("oauth-refresh-rejected", /\brefresh[ _]token\b[^\n]{0,40}?\b(?:revoked|invalid|expired|not found|already (?:been )?used)\b/i),
];
