/**
 * R-EC-3 for failures whose status field is absent: the HTTP status stated inside the message text
 * (`413 Request Entity Too Large`, `Error code: 429 - {…}`, `… failed with status 503`,
 * `API error (400): …`). Each row reads one documented shape; a bare number is never a status, so token
 * counts (`4096 tokens`), model ids (`gpt-4o-2024-08-06`), request ids (`req-4291`) and limits
 * (`Limit 500, Used 500`) are left alone. Used only when the adapter passed no status and the body stated
 * none.
 */

export interface StatusInTextRule {
  readonly id: string;
  /** Captures the status in group 1. Never `g`/`y`. */
  readonly pattern: RegExp;
}

/** Words that turn a leading three-digit number into a quantity rather than a status. */
const QUANTITY = String.raw`(?![\d.,-]|\s*(?:tokens?\b|ms\b|s\b|secs?\b|seconds?\b|minutes?\b|hours?\b|records?\b|bytes?\b|kb\b|mb\b|%|px\b|pixels?\b|rpm\b|tpm\b|characters?\b|chars?\b|x\b|\*))`;

/** The reason phrases of RFC 9110 and the de-facto 499/529 ones, as SDKs and proxies print them. */
const REASON_PHRASE = String.raw`(?:bad request|unauthori[sz]ed|payment required|forbidden|not found|request time-?out|conflict|gone|payload too large|request entity too large|unprocessable (?:entity|content)|too many requests|client closed request|internal server error|not implemented|bad gateway|service (?:temporarily )?unavailable|gateway time-?out|site is overloaded|overloaded)`;

export const STATUS_IN_TEXT_RULES: readonly StatusInTextRule[] = [
  // SDK and runtime prefixes: `429 Too Many Requests`, `Error: 402 Payment Required: …`, `HTTP 503 …`,
  // `400 {"type":…}`, `502 <!doctype html>…`, `413 status code (no body)`.
  {
    id: "status-in-text/leading",
    pattern: new RegExp(
      String.raw`^\s*(?:[\w.-]*(?:error|exception)\b\s*[:\-]?\s*)?(?:HTTP(?:\/[\d.]+)?\s*)?\(?([45]\d\d)\)?\b${QUANTITY}`,
      "i",
    ),
  },
  // Labelled anywhere: `Error code: 429 - {…}` (Python SDKs), `status 503`, `status code: 500`,
  // `HTTP status 502`, `statusCode=429`, `(HTTP 500)`, `response code 504`.
  {
    id: "status-in-text/labelled",
    pattern:
      /\b(?:status(?:[ _-]?code)?|http(?:[ _-]?(?:status|code|error))?|error[ _-]?code|response[ _-]?code|statuscode)\b\s*(?:of\s+)?[:=#]?\s*\(?["']?([45]\d\d)\b(?![\d.,])/i,
  },
  // Wrappers that put the status in parentheses: `Google Generative AI API error (400): …`.
  { id: "status-in-text/error-parenthesised", pattern: /\berror\s*\(([45]\d\d)\)/i },
  // Verbs that name a response: `upstream returned 402`, `got a 429`, `responded with 503`.
  {
    id: "status-in-text/verb",
    pattern: new RegExp(
      String.raw`\b(?:got|returned|received|responded with|failed with|answered)\s+(?:an?\s+|status\s+|http\s+)*([45]\d\d)\b${QUANTITY}`,
      "i",
    ),
  },
  // A status followed by its own reason phrase anywhere: `request failed: 503 Service Unavailable`.
  { id: "status-in-text/reason-phrase", pattern: new RegExp(String.raw`\b([45]\d\d)\s*[:\-]?\s*${REASON_PHRASE}\b`, "i") },
];

/** Only this much of the text is searched: statuses are stated near the start or in a short wrapper. */
const MAX_SCAN_CHARS = 600;

export function statusInText(text: string): number | undefined {
  const head = text.slice(0, MAX_SCAN_CHARS);
  for (const rule of STATUS_IN_TEXT_RULES) {
    const captured = rule.pattern.exec(head)?.[1];
    if (captured !== undefined) return Number(captured);
  }
  return undefined;
}
