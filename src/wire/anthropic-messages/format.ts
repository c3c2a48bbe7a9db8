/** The Anthropic Messages wire format as one `WireFormat` (wire/wire-format.ts). */
import type { LaneWireFormat } from "../wire-format.js";
import { parseJsonText, parseWireJson, validateWire } from "../shared/wire-json.js";
import { parseAnthropicMessagesRequest } from "./decode-request.js";
import { fromAnthropicResponse } from "./decode-response.js";
import { encodeAnthropicRequest } from "./encode-request.js";
import { renderAnthropicMessage } from "./encode-response.js";
import { createAnthropicStreamEncoder } from "./encode-stream.js";
import { renderAnthropicError, renderAnthropicValidationError } from "./errors.js";
import { ANTHROPIC_FINISH_REASONS, CANONICAL_TO_ANTHROPIC_STOP_REASON } from "./finish-reasons.js";
import { anthropicMessagesLane } from "./lane.js";
import { describeAnthropicError, describeAnthropicStreamError, describeAnthropicStreamErrorValue } from "./read-error.js";
import { readAnthropicStreamEvent } from "./stream-event.js";
import { anthropicMessageSchema, anthropicUsageSchema } from "./schemas.js";
import { renderAnthropicUsage, usageFromAnthropic } from "./usage.js";
import { createAnthropicStreamDecoder } from "./stream-decoder.js";

/** Anthropic Messages (`POST /v1/messages`), config `api: "anthropic-messages"`. */
export const anthropicMessagesWire: LaneWireFormat = {
  id: "anthropic-messages",
  aliases: [],
  finish: { toCanonical: ANTHROPIC_FINISH_REASONS, fromCanonical: CANONICAL_TO_ANTHROPIC_STOP_REASON },
  usage: {
    read(raw) {
      if (raw === undefined || raw === null) return undefined;
      const usage = validateWire(raw, anthropicUsageSchema);
      return usage.ok ? usageFromAnthropic(usage.value) : undefined;
    },
    render: renderAnthropicUsage,
  },
  errors: {
    read: describeAnthropicError,
    readStreamError: describeAnthropicStreamErrorValue,
    readErrorAnswer(text) {
      const json = parseJsonText(text);
      const event = json.ok ? readAnthropicStreamEvent(json.value) : undefined;
      return event?.ok && event.value.type === "error" ? describeAnthropicStreamError(event.value.error) : undefined;
    },
    render: (input) => renderAnthropicError({ message: input.message, status: input.status }),
    renderValidation: renderAnthropicValidationError,
  },
  request: {
    encode: (request, options) => encodeAnthropicRequest(request, options),
    decode(body) {
      const parsed = parseAnthropicMessagesRequest(body);
      if (!parsed.ok) return parsed;
      // Usage always arrives (`message_start` and `message_delta`).
      return { ok: true, value: { request: parsed.request, model: parsed.model, stream: parsed.stream, includeUsage: true } };
    },
  },
  response: {
    decode(text) {
      const parsed = parseWireJson(text, anthropicMessageSchema);
      if (!parsed.ok) return { ok: false, problem: parsed.problem };
      const response = fromAnthropicResponse(parsed.value);
      return { ok: true, response, ...(parsed.value.stop_reason ? { rawFinishReason: parsed.value.stop_reason } : {}) };
    },
    render: (response) => renderAnthropicMessage(response),
  },
  stream: {
    framing: "sse",
    decoder: createAnthropicStreamDecoder,
    encoder: (options) => createAnthropicStreamEncoder({ model: options.model }),
    resumeEncoder: (options) => createAnthropicStreamEncoder({ model: options.model, resume: options.delivered.blocks ?? { started: 0 } }),
  },
  lane: anthropicMessagesLane,
};
