/**
 * The short, secret-free preview of a failure's raw text (Classification.preview). Previews reach logs,
 * notices and `FallbackSummaryError` messages, so anything that looks like a credential is redacted.
 */
import type { HtmlPage } from "./html-page.js";

export const PREVIEW_MAX_CHARS = 200;
/** Redaction only needs to see a little more than what the preview keeps. */
const PREVIEW_SOURCE_CHARS = 4 * 1024;
const REDACTED = "[redacted]";

interface SecretPattern {
  readonly pattern: RegExp;
  readonly replace: (match: string, ...groups: string[]) => string;
}

/**
 * Credential shapes, most specific first. Each keeps a recognisable prefix so an operator can still tell
 * which kind of key a provider complained about.
 */
const SECRET_PATTERNS: readonly SecretPattern[] = [
  // OpenAI (sk-, sk-proj-), Anthropic (sk-ant-), OpenRouter (sk-or-v1-); masked echoes like sk-****abcd too.
  { pattern: /\bsk-[A-Za-z0-9_*-]{4,}/g, replace: (m) => (m.startsWith("sk-ant-") ? `sk-ant-${REDACTED}` : `sk-${REDACTED}`) },
  { pattern: /\bBearer\s+[A-Za-z0-9._~+/=*-]{4,}/gi, replace: () => `Bearer ${REDACTED}` },
  { pattern: /\bAIza[0-9A-Za-z_-]{10,}/g, replace: () => `AIza${REDACTED}` },
  { pattern: /\bxai-[A-Za-z0-9]{16,}/g, replace: () => `xai-${REDACTED}` },
  { pattern: /\bgsk_[A-Za-z0-9]{16,}/g, replace: () => `gsk_${REDACTED}` },
  { pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, replace: () => REDACTED },
  { pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, replace: () => REDACTED },
  // key=value and "key": "value" forms, including `?key=` query parameters.
  {
    pattern:
      /\b(api[_-]?key|x-api-key|access[_-]?token|refresh[_-]?token|id[_-]?token|token|secret|password|authorization|key)(["']?\s*[:=]\s*["']?)([^\s"'&,;]{6,})/gi,
    replace: (_m, name = "", separator = "", value = "") =>
      value.endsWith(REDACTED) ? `${name}${separator}${value}` : `${name}${separator}${REDACTED}`,
  },
  { pattern: /\b[0-9a-fA-F]{32,}\b/g, replace: () => REDACTED },
  // Long opaque tokens (base64/base64url). A letter and a digit are both required so plain words and
  // URL paths survive.
  { pattern: /[A-Za-z0-9+/_-]{40,}={0,2}/g, replace: (m) => (/[0-9]/.test(m) && /[A-Za-z]/.test(m) ? REDACTED : m) },
];

export function redactSecrets(text: string): string {
  return SECRET_PATTERNS.reduce((current, { pattern, replace }) => current.replace(pattern, replace), text);
}

export function buildPreview(text: string, html: HtmlPage | undefined): string {
  const source = html ? (html.title ? `HTML error page: ${html.title}` : "HTML error page") : text.slice(0, PREVIEW_SOURCE_CHARS);
  // Control characters are dropped and whitespace collapsed so a preview is always one readable line.
  const oneLine = source
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  const clean = redactSecrets(oneLine);
  return clean.length <= PREVIEW_MAX_CHARS ? clean : `${clean.slice(0, PREVIEW_MAX_CHARS - 1).trimEnd()}…`;
}
