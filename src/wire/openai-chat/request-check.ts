/**
 * A chat completions request checked against `openAIChatRequestSchema` by hand, for the shapes agents send
 * on every request (text turns, tool calls and results, tools, the stream and sampling options), so zod runs
 * only for the rest. The check vouches for a subset of what the schema accepts: a body it does not vouch for
 * goes through the schema, which accepts it or answers with its own issues (R-GW-4's 400 is unchanged). A body
 * it vouches for is used as parsed: the schema's objects are loose, so its output would be a copy with the
 * same fields in the same order.
 */
import { OPENAI_MAPPED_FIELDS, type OpenAIChatRequest } from "./request-schema.js";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  // An own `__proto__` (JSON can carry one) is left to the schema, whose copies do not keep it.
  return typeof value === "object" && value !== null && !Array.isArray(value) && !Object.hasOwn(value, "__proto__");
}

const absent = (value: unknown) => value === undefined;
const nullish = (value: unknown) => value === undefined || value === null;
const isString = (value: unknown): value is string => typeof value === "string";
const nonEmptyString = (value: unknown) => typeof value === "string" && value.length > 0;
const optionalString = (value: unknown) => value === undefined || typeof value === "string";

function isTextPart(value: unknown): boolean {
  return isObject(value) && value.type === "text" && isString(value.text);
}

/** A string, or text parts only. */
function isTextContent(value: unknown): boolean {
  return isString(value) || (Array.isArray(value) && value.every(isTextPart));
}

function isToolCall(value: unknown): boolean {
  if (!isObject(value) || !nonEmptyString(value.id) || value.type !== "function") return false;
  const fn = value.function;
  return isObject(fn) && nonEmptyString(fn.name) && isString(fn.arguments);
}

function isMessage(value: unknown): boolean {
  if (!isObject(value)) return false;
  switch (value.role) {
    case "system":
    case "developer":
    case "user":
      // User image parts are left to the schema.
      return isTextContent(value.content) && optionalString(value.name);
    case "assistant": {
      const { content, refusal } = value;
      const calls = value.tool_calls;
      if (!(nullish(content) || isTextContent(content))) return false;
      if (!(nullish(refusal) || isString(refusal))) return false;
      if (!(absent(calls) || (Array.isArray(calls) && calls.every(isToolCall)))) return false;
      if (!optionalString(value.name)) return false;
      return !nullish(content) || (Array.isArray(calls) && calls.length > 0) || isString(refusal);
    }
    case "tool":
      return nonEmptyString(value.tool_call_id) && isTextContent(value.content);
    default:
      return false;
  }
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function isTool(value: unknown): boolean {
  if (!isObject(value) || value.type !== "function") return false;
  const fn = value.function;
  if (!isObject(fn) || !isString(fn.name) || !TOOL_NAME.test(fn.name)) return false;
  return (
    optionalString(fn.description) &&
    (absent(fn.parameters) || isObject(fn.parameters)) &&
    (nullish(fn.strict) || typeof fn.strict === "boolean")
  );
}

function isToolChoice(value: unknown): boolean {
  if (value === "none" || value === "auto" || value === "required") return true;
  return isObject(value) && value.type === "function" && isObject(value.function) && nonEmptyString(value.function.name);
}

function numberIn(value: unknown, min: number, max: number): boolean {
  return typeof value === "number" && Number.isFinite(value) && value >= min && value <= max;
}

function positiveInteger(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) > 0;
}

/** Each mapped field the check knows, and when it is surely valid (absent fields are, for all of these). */
const FIELD_CHECKS: Readonly<Record<string, (value: unknown) => boolean>> = {
  model: nonEmptyString,
  messages: (value) => Array.isArray(value) && value.length > 0 && value.every(isMessage),
  stream: (value) => nullish(value) || typeof value === "boolean",
  stream_options: (value) =>
    nullish(value) || (isObject(value) && (absent(value.include_usage) || typeof value.include_usage === "boolean")),
  temperature: (value) => nullish(value) || numberIn(value, 0, 2),
  top_p: (value) => nullish(value) || numberIn(value, 0, 1),
  max_tokens: (value) => nullish(value) || positiveInteger(value),
  max_completion_tokens: (value) => nullish(value) || positiveInteger(value),
  user: optionalString,
  tools: (value) => absent(value) || (Array.isArray(value) && value.every(isTool)),
  tool_choice: (value) => absent(value) || isToolChoice(value),
  parallel_tool_calls: (value) => nullish(value) || typeof value === "boolean",
  stop: (value) => nullish(value) || isString(value) || (Array.isArray(value) && value.every(isString)),
};

/** True when the schema surely accepts `body` unchanged (false: ask the schema). */
export function vouchesForOpenAIChatRequest(body: unknown): body is OpenAIChatRequest {
  if (!isObject(body)) return false;
  for (const field of OPENAI_MAPPED_FIELDS) {
    const check = FIELD_CHECKS[field];
    const value = body[field];
    if (check ? !check(value) : value !== undefined) return false;
  }
  return true;
}
