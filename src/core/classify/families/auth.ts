/** auth (R-EC-5): the credential was not accepted or is missing; another profile may work. */
import type { MessageRule } from "../rule-types.js";

const row = (id: string, pattern: RegExp, extra: Partial<MessageRule> = {}): MessageRule => ({
  id: `auth/${id}`,
  reason: "auth",
  pattern,
  ...extra,
});

export const AUTH_RULES: readonly MessageRule[] = [
  row("invalid-api-key", /\binvalid[ _-]?(?:x-)?api[ _-]?key\b|\bapi[ _]key[ _]invalid\b/i),
  row("incorrect-api-key", /\bincorrect api key\b/i),
  row("api-key-not-valid", /\bapi key (?:not valid|is not valid|is invalid|expired|has expired)\b/i),
  row("invalid-token", /\binvalid[ _](?:access[ _]|auth[ _]|bearer[ _]|oauth[ _])?token\b/i),
  row("unauthorized", /\bunauthori[sz]ed\b/i),
  row("forbidden", /\bforbidden\b/i),
  // Matches `authentication_error` too (no trailing word boundary on purpose).
  row("authentication", /\bauthentication/i),
  row("permission-error", /\bpermission[ _](?:error|denied)\b/i),
  row("token-expired", /\btoken (?:has |is )?expired\b|\bexpired ?token/i),
  // "No credentials found for profile …", "No API key found for provider …", "API key is missing".
  row(
    "no-api-key",
    /\bno api key (?:found|provided|configured|set)\b|\b(?:missing|didn't provide|did not provide) (?:an |the )?api key\b|\bno auth credentials found\b|\bno credentials (?:found|provided|configured|available)\b|\bapi[ _-]?key (?:is )?(?:missing|required|not (?:found|set|provided|configured))\b/i,
  ),
  row(
    "aws-access-denied",
    /\baccessdeniedexception\b|\bunrecognizedclientexception\b|\bsecurity token included in the request is (?:invalid|expired)\b/i,
  ),
  row("unauthenticated", /\bunauthenticated\b/i),
  // "access denied", "insufficient permissions", "missing scopes:", "please re-authenticate",
  // "could not validate credentials", "invalid credentials", "OAuth token refresh failed".
  row(
    "access-denied",
    /\baccess denied\b|\binsufficient permissions?\b|\bmissing scopes?:|\bre-?authenticate\b|\bcould not (?:authenticate|validate)\b[^\n]{0,40}?\b(?:credentials|api[ _-]?key|token)\b|\binvalid (?:credentials|authori[sz]ation)\b|\b(?:oauth )?token refresh failed\b|\bcredentials? (?:have |has )?expired\b/i,
  ),
  // OpenAI Codex: the OAuth token carries no ChatGPT account id ("Failed to extract accountId from token").
  row("codex-account-id", /\bfailed to extract account ?id\b|\bno account id in (?:the )?token\b/i),
  // Z.ai 1113: "invalid api endpoint or credentials".
  row("invalid-endpoint-or-credentials", /\binvalid (?:api )?(?:endpoint|url|base url) or (?:credentials|api key)\b/i),
  // Chinese providers: authentication failed, key invalid, no access.
  // Z.ai's numeric codes for a bad or missing credential (1000–1004) and 1113, scoped: elsewhere these numbers
  // mean nothing. A billing text with the same code is read first (billing precedes auth).
  row("zai-credential-code", /^code=(?:100[0-4]|1113)$/m, { providers: ["zai", "zhipu", "bigmodel", "glm"] }),
  row("cjk-auth", /认证失败|鉴权失败|密钥无效|apikey\s*无效|无权访问|身份验证失败|令牌无效/i),
];
