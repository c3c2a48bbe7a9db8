/**
 * format (R-EC-5): the request itself is malformed for this model; retrying it unchanged fails the same
 * way. Any other non-empty 400/422 body also lands here (status-rules.ts).
 */
import type { MessageRule } from "../rule-types.js";

const row = (id: string, pattern: RegExp): MessageRule => ({ id: `format/${id}`, reason: "format", pattern });

export const FORMAT_RULES: readonly MessageRule[] = [
  row("tool-call-id", /\btool_(?:use|call)_ids?\b|\btool_calls\[\d+\]\.id\b|\btool call id\b|\btool_use\.id\b/i),
  row("tool-use-without-result", /\btool_use`? ids were found without\b/i),
  row("string-should-match-pattern", /\bstring should match pattern\b/i),
  row("no-assistant-prefill", /\bdoes not support assistant message prefill\b/i),
  row("must-end-with-user-message", /\bconversation must end with a user message\b/i),
  row("function-call-turn-order", /\bfunction call turn comes immediately after\b/i),
  row("unsupported-parameter", /\bunsupported (?:parameter|value)\b|\bextra inputs are not permitted\b/i),
  row("invalid-request-error", /\binvalid_request_error\b/i),
  row("invalid-request-format", /\binvalid[ _]request[ _](?:format|body|payload)\b|\bmalformed (?:request|json body)\b/i),
];
