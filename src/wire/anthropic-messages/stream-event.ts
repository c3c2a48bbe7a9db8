/**
 * One Anthropic stream event's JSON checked against `anthropicStreamEventSchema`, without running zod for the
 * events every stream is made of. The hand check accepts only what the schema accepts (a subset: JSON values
 * whose every checked field has the schema's type); anything else — a malformed event, or a shape the check
 * does not know — goes through the schema itself, so a rejected event is reported with zod's own problem text
 * (R-ST-2: skipped and counted). An accepted event is handed on as parsed: the schema's objects are loose, so
 * its output would be a copy with the same fields.
 */
import { validateWire, type WireParseResult } from "../shared/wire-json.js";
import { anthropicStreamEventSchema, type AnthropicStreamEvent } from "./schemas.js";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isIndex(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === "string";
}

function nullishNumber(value: unknown): boolean {
  return value === undefined || value === null || typeof value === "number";
}

function isUsage(value: unknown): boolean {
  return (
    isObject(value) &&
    nullishNumber(value.input_tokens) &&
    nullishNumber(value.output_tokens) &&
    nullishNumber(value.cache_creation_input_tokens) &&
    nullishNumber(value.cache_read_input_tokens)
  );
}

function isResponseBlock(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.type === "string" &&
    optionalString(value.text) &&
    optionalString(value.thinking) &&
    optionalString(value.signature) &&
    optionalString(value.data) &&
    optionalString(value.id) &&
    optionalString(value.name)
  );
}

function isDelta(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.type === "string" &&
    optionalString(value.text) &&
    optionalString(value.partial_json) &&
    optionalString(value.thinking) &&
    optionalString(value.signature)
  );
}

/** True when the schema surely accepts `event` (false: ask the schema). */
export function matchesAnthropicStreamEvent(event: Json): boolean {
  switch (event.type) {
    case "content_block_delta":
      return isIndex(event.index) && isDelta(event.delta);
    case "content_block_start":
      return isIndex(event.index) && isResponseBlock(event.content_block);
    case "content_block_stop":
      return isIndex(event.index);
    case "message_start": {
      const message = event.message;
      return (
        isObject(message) &&
        typeof message.id === "string" &&
        typeof message.model === "string" &&
        (message.usage === undefined || message.usage === null || isUsage(message.usage))
      );
    }
    case "message_delta": {
      const delta = event.delta;
      return (
        isObject(delta) &&
        (delta.stop_reason === undefined || delta.stop_reason === null || typeof delta.stop_reason === "string") &&
        (event.usage === undefined || event.usage === null || isUsage(event.usage))
      );
    }
    case "message_stop":
    case "ping":
      return true;
    case "error": {
      const error = event.error;
      return (
        isObject(error) &&
        typeof error.type === "string" &&
        (error.message === undefined || error.message === null || typeof error.message === "string")
      );
    }
    default:
      return false;
  }
}

/** `validateWire(value, anthropicStreamEventSchema)`, with the schema run only for what the hand check cannot vouch for. */
export function readAnthropicStreamEvent(value: unknown): WireParseResult<AnthropicStreamEvent> {
  if (isObject(value) && matchesAnthropicStreamEvent(value)) return { ok: true, value: value as AnthropicStreamEvent };
  return validateWire(value, anthropicStreamEventSchema);
}
