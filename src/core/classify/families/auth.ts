/** auth (R-EC-5): the credential was not accepted; another profile may work. */
import type { MessageRule } from "../rule-types.js";

const row = (id: string, pattern: RegExp): MessageRule => ({ id: `auth/${id}`, reason: "auth", pattern });

export const AUTH_RULES: readonly MessageRule[] = [
  row("invalid-api-key", /\binvalid[ _-]?(?:x-)?api[ _-]?key\b|\bapi[ _]key[ _]invalid\b/i),
  row("incorrect-api-key", /\bincorrect api key\b/i),
  row("api-key-not-valid", /\bapi key (?:not valid|is not valid|is invalid|expired|has expired)\b/i),
  row("invalid-token", /\binvalid[ _](?:access[ _]|auth[ _]|bearer[ _])?token\b/i),
  row("unauthorized", /\bunauthori[sz]ed\b/i),
  row("forbidden", /\bforbidden\b/i),
  // Matches `authentication_error` too (no trailing word boundary on purpose).
  row("authentication", /\bauthentication/i),
  row("permission-error", /\bpermission[ _](?:error|denied)\b/i),
  row("token-expired", /\btoken (?:has |is )?expired\b|\bexpired ?token/i),
  row("no-api-key", /\bno api key (?:found|provided)\b|\b(?:missing|didn't provide|did not provide) (?:an |the )?api key\b|\bno auth credentials found\b/i),
  row("aws-access-denied", /\baccessdeniedexception\b|\bunrecognizedclientexception\b|\bsecurity token included in the request is (?:invalid|expired)\b/i),
  row("unauthenticated", /\bunauthenticated\b/i),
];
