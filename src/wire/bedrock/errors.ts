/**
 * Bedrock's error shapes → the classifier's input. A failed call answers `{"message":"…"}` with the
 * exception's name in the `x-amzn-ErrorType` header (`ThrottlingException:http://internal.amazon.com/…`);
 * some gateways put it in the body as `__type`. Inside a 200 stream the same failures arrive as exception
 * frames (`throttlingException`, `modelStreamErrorException`, …), read here as their HTTP equivalents so they
 * classify like the same failure before the stream.
 */
import type { WireErrorInput } from "../wire-format.js";
import type { WireErrorDetails } from "../shared/wire-error.js";
import { parseJsonText } from "../shared/wire-json.js";

/** The status Bedrock documents for each exception; in-stream exceptions carry no status of their own. */
export const BEDROCK_EXCEPTION_STATUS: Readonly<Record<string, number>> = {
  ThrottlingException: 429,
  ServiceQuotaExceededException: 429,
  ServiceUnavailableException: 503,
  ModelNotReadyException: 429,
  ModelTimeoutException: 408,
  ModelStreamErrorException: 424,
  ModelErrorException: 424,
  InternalServerException: 500,
  ValidationException: 400,
  AccessDeniedException: 403,
  UnrecognizedClientException: 403,
  ResourceNotFoundException: 404,
};

/** `ThrottlingException:http://internal…` or `com.amazon…#ThrottlingException` → `ThrottlingException`. */
export function bedrockExceptionName(raw: string): string {
  const withoutNamespace = raw.split(":")[0] ?? raw;
  const name = withoutNamespace.slice(withoutNamespace.lastIndexOf("#") + 1).trim();
  // Stream frames spell the exception in lower camel case (`throttlingException`).
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function textField(value: unknown, ...names: string[]): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  for (const name of names) {
    const field = (value as Record<string, unknown>)[name];
    if (typeof field === "string") return field;
  }
  return undefined;
}

function headerText(headers: Readonly<Record<string, string | string[] | undefined>> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/** A non-2xx body and its headers. */
export function describeBedrockError(
  bodyText: string,
  headers?: Readonly<Record<string, string | string[] | undefined>>,
): WireErrorDetails {
  const json = parseJsonText(bodyText);
  const message = json.ok ? textField(json.value, "message", "Message") : undefined;
  const typeText = headerText(headers, "x-amzn-errortype") ?? (json.ok ? textField(json.value, "__type") : undefined);
  const errorType = typeText ? bedrockExceptionName(typeText) : undefined;
  return { message: message ?? bodyText.trim(), ...(errorType ? { errorType } : {}) };
}

/** An exception frame of a stream, as its piece `{"<exceptionType>": {"message": "…"}}` holds it. */
export function describeBedrockStreamException(exceptionType: string, payload: unknown): WireErrorDetails {
  const errorType = bedrockExceptionName(exceptionType);
  const status = Object.hasOwn(BEDROCK_EXCEPTION_STATUS, errorType) ? BEDROCK_EXCEPTION_STATUS[errorType] : undefined;
  return { message: textField(payload, "message", "Message") ?? "", errorType, ...(status !== undefined ? { status } : {}) };
}

/** Whatever a stream scanner found as an in-band error: a `{"<exception>": {…}}` piece, or anything else as text. */
export function describeBedrockStreamErrorValue(raw: unknown): WireErrorDetails {
  if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) {
    const [entry] = Object.entries(raw as Record<string, unknown>);
    if (entry && /exception$/i.test(entry[0])) return describeBedrockStreamException(entry[0], entry[1]);
  }
  return { message: typeof raw === "string" ? raw : (JSON.stringify(raw) ?? "") };
}

/** The exception a status stands for, for servers (the mock provider) that answer in Bedrock's shape. */
export function bedrockExceptionForStatus(status: number): string {
  if (status === 429) return "ThrottlingException";
  if (status === 503 || status === 529) return "ServiceUnavailableException";
  if (status === 400 || status === 413) return "ValidationException";
  if (status === 401 || status === 403) return "AccessDeniedException";
  if (status === 404) return "ResourceNotFoundException";
  if (status === 408 || status === 504) return "ModelTimeoutException";
  return "InternalServerException";
}

export function renderBedrockError(input: WireErrorInput): { message: string } {
  return { message: input.message };
}
