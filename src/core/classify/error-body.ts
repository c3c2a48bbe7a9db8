/**
 * Reads a provider's JSON error body out of a message, when an adapter passed the raw body (or an SDK
 * prefixed it, e.g. `429 {"type":"error",…}`). Understands the OpenAI, Anthropic, Google, OpenRouter,
 * xAI and Ollama shapes. Never throws: anything unexpected simply yields fewer fields.
 */
const MAX_FIELD_CHARS = 2 * 1024;
const MAX_DETAILS = 20;

export interface ErrorBody {
  message?: string;
  type?: string;
  code?: string;
  /** Google's textual status (`RESOURCE_EXHAUSTED`, `INTERNAL`, …). */
  status?: string;
  /** An HTTP status stated inside the body (Google and OpenRouter put it in `error.code`). */
  httpStatus?: number;
  /** Upstream texts an aggregator passed through (OpenRouter `metadata.raw`), plus their inner messages. */
  upstream: string[];
  /** Machine-readable reasons (Google `details[].reason`) and codes of nested upstream bodies. */
  reasons: string[];
}

export function extractErrorBody(text: string): ErrorBody | undefined {
  return parseFrom(text, text.indexOf("{")) ?? parseFrom(text, text.indexOf("["));
}

function parseFrom(text: string, start: number): ErrorBody | undefined {
  if (start < 0) return undefined;
  const end = text.charAt(start) === "{" ? text.lastIndexOf("}") : text.lastIndexOf("]");
  if (end <= start) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
  return readErrorObject(parsed, true);
}

function readErrorObject(value: unknown, followUpstream: boolean): ErrorBody | undefined {
  const root = Array.isArray(value) ? value[0] : value;
  if (!isRecord(root)) return undefined;
  const error = root["error"];
  const inner = isRecord(error) ? error : root;
  const body: ErrorBody = { upstream: [], reasons: [] };

  body.message = shortText(inner["message"]) ?? shortText(error) ?? shortText(root["message"]) ?? shortText(root["detail"]);
  body.type = shortText(inner["type"]);
  readCode(body, inner["code"]);
  if (inner !== root && body.code === undefined) readCode(body, root["code"]);
  const status = inner["status"];
  if (typeof status === "number") body.httpStatus ??= httpStatusOf(status);
  else body.status = shortText(status);
  for (const key of ["http_status", "status_code", "statusCode"]) {
    const stated = root[key] ?? inner[key];
    if (typeof stated === "number") body.httpStatus ??= httpStatusOf(stated);
  }

  const details = inner["details"];
  if (Array.isArray(details)) {
    for (const detail of details.slice(0, MAX_DETAILS)) {
      const reason = isRecord(detail) ? shortText(detail["reason"]) : undefined;
      if (reason) body.reasons.push(reason);
    }
  }

  const metadata = inner["metadata"];
  const raw = isRecord(metadata) ? metadata["raw"] : undefined;
  const rawText = typeof raw === "string" ? raw : raw === undefined ? undefined : safeStringify(raw);
  if (rawText) {
    body.upstream.push(rawText.slice(0, MAX_FIELD_CHARS));
    // An aggregator's upstream body is itself often a JSON error: read one level of it, never more.
    const nested = followUpstream ? extractNested(rawText) : undefined;
    if (nested) {
      if (nested.message) body.upstream.push(nested.message);
      for (const item of [nested.type, nested.code, nested.status, ...nested.reasons]) if (item) body.reasons.push(item);
    }
  }
  return body;
}

function extractNested(text: string): ErrorBody | undefined {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return undefined;
  try {
    return readErrorObject(JSON.parse(text.slice(start, end + 1)), false);
  } catch {
    return undefined;
  }
}

function readCode(body: ErrorBody, code: unknown): void {
  if (typeof code === "number") {
    const status = httpStatusOf(code);
    if (status !== undefined) body.httpStatus ??= status;
    else body.code ??= String(code);
  } else {
    body.code ??= shortText(code);
  }
}

function httpStatusOf(value: number): number | undefined {
  return Number.isInteger(value) && value >= 100 && value <= 599 ? value : undefined;
}

function shortText(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed.slice(0, MAX_FIELD_CHARS);
}

function safeStringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
