/**
 * Turns whatever an adapter handed over into well-typed facts for the rule engine. This is the one place
 * that copes with odd input (R-EC-1 must never throw): statuses as strings, messages as objects or
 * numbers, headers in any shape, throwing getters, and megabyte-sized bodies.
 */
import { extractErrorBody, type ErrorBody } from "./error-body.js";
import { readHtmlPage, type HtmlPage } from "./html-page.js";
import { statusInText } from "./status-in-text.js";

/** Patterns only ever see this much of a message, which bounds regex work on huge bodies. */
export const MAX_MATCH_CHARS = 16 * 1024;
/** JSON parsing is linear, so a body may be longer than what patterns see. */
const MAX_BODY_CHARS = 64 * 1024;
const MAX_CODE_CHARS = 100;

export interface FailureFacts {
  /** Lower-cased provider id. */
  readonly provider?: string;
  /** The HTTP status: the adapter's, else one stated in the body, else one stated in the text (status-in-text.ts). */
  readonly status?: number;
  /** The code reported back in the Classification. */
  readonly code?: string;
  /** Everything rule tables may treat as a code (R-EC-4): code, error type, body code/type/status/reasons. */
  readonly codes: readonly string[];
  /** The raw message text, trimmed and bounded. */
  readonly text: string;
  /** The message proper: the body's inner message when there is one, else the raw text. */
  readonly bareMessage: string;
  /** What message patterns see: the text, the body's fields and `type=`/`code=`/`status=` lines. */
  readonly haystack: string;
  /** No body at all, or only an SDK's "429 status code (no body)". */
  readonly emptyBody: boolean;
  readonly html?: HtmlPage;
  readonly headers: unknown;
  readonly now?: number;
  readonly aborted: boolean;
  readonly errorType?: string;
  readonly inputCode?: string;
}

export function readFailure(input: unknown): FailureFacts {
  const fullText = textOf(read(input, "message"));
  const text = fullText.slice(0, MAX_MATCH_CHARS).trim();
  const body = text === "" ? undefined : extractErrorBody(fullText.slice(0, MAX_BODY_CHARS));
  const errorType = codeOf(read(input, "errorType"));
  const inputCode = codeOf(read(input, "code"));
  const providerValue = read(input, "provider");
  const provider = typeof providerValue === "string" && providerValue.trim() !== "" ? providerValue.trim().toLowerCase() : undefined;
  const nowValue = read(input, "now");
  const status = statusOf(read(input, "status")) ?? body?.httpStatus ?? statusInText(text);

  const bodyCodes = body ? [body.code, body.type, body.status, ...body.reasons] : [];
  const codes = [inputCode, errorType, ...bodyCodes].filter((code): code is string => code !== undefined && code !== "");
  const emptyBody = text === "" || SDK_NO_BODY.test(text);

  return {
    provider,
    status,
    code: inputCode ?? body?.code ?? body?.status,
    codes: codes.map((code) => code.slice(0, MAX_CODE_CHARS)),
    text,
    bareMessage: (body?.message ?? text).trim(),
    haystack: buildHaystack(text, body, errorType, inputCode),
    emptyBody,
    html: text === "" ? undefined : readHtmlPage(text),
    headers: read(input, "headers"),
    now: typeof nowValue === "number" && Number.isFinite(nowValue) ? nowValue : undefined,
    aborted: read(input, "aborted") === true,
    errorType,
    inputCode,
  };
}

/** The OpenAI and Anthropic SDKs say this when the upstream response had no body. */
const SDK_NO_BODY = /^\d{3} status code \(no body\)$/i;

function buildHaystack(text: string, body: ErrorBody | undefined, errorType?: string, inputCode?: string): string {
  const lines = [text];
  if (body) {
    if (body.message) lines.push(body.message);
    lines.push(...body.upstream);
    if (body.type) lines.push(`type=${body.type}`);
    if (body.code) lines.push(`code=${body.code}`);
    if (body.status) lines.push(`status=${body.status}`);
    for (const reason of body.reasons) lines.push(`reason=${reason}`);
  }
  if (errorType) lines.push(`type=${errorType}`);
  if (inputCode) lines.push(`code=${inputCode}`);
  return lines.join("\n");
}

/** Reads one property; a throwing getter or a non-object yields undefined. */
function read(source: unknown, key: string): unknown {
  if (source === null || (typeof source !== "object" && typeof source !== "function")) return undefined;
  try {
    return (source as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function textOf(value: unknown): string {
  try {
    if (typeof value === "string") return value;
    if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
    if (typeof value !== "object" || value === null) return "";
    const message = read(value, "message");
    if (value instanceof Error && typeof message === "string") return message;
    // An adapter that passed a parsed body: serialise it so the body reader sees the provider's shape.
    const json = JSON.stringify(value);
    return typeof json === "string" ? json : "";
  } catch {
    return "";
  }
}

function codeOf(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed.slice(0, MAX_CODE_CHARS);
}

function statusOf(value: unknown): number | undefined {
  const number = typeof value === "string" && /^\s*\d{3}\s*$/.test(value) ? Number(value) : value;
  return typeof number === "number" && Number.isInteger(number) && number >= 100 && number <= 599 ? number : undefined;
}
