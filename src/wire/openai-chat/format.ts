/** The OpenAI Chat Completions wire format as one `WireFormat` (wire/wire-format.ts). */
import type { LaneWireFormat } from "../wire-format.js";
import { parseJsonText, parseWireJson, validateWire } from "../shared/wire-json.js";
import { parseOpenAIChatRequest } from "./decode-request.js";
import { decodeOpenAiResponse } from "./decode-response.js";
import { encodeOpenAiRequest, maxTokensFieldFor } from "./encode-request.js";
import { renderOpenAIChatCompletion } from "./encode-response.js";
import { createOpenAIStreamEncoder } from "./encode-stream.js";
import { renderOpenAIError, renderOpenAIValidationError } from "./errors.js";
import { CANONICAL_TO_OPENAI_FINISH_REASON, OPENAI_FINISH_REASONS } from "./finish-reasons.js";
import { openAIChatLane } from "./lane.js";
import { describeOpenAiError, describeOpenAiStreamError } from "./read-error.js";
import { openAiChatCompletionSchema, openAiUsageSchema } from "./schemas.js";
import { renderOpenAIUsage, usageFromOpenAi } from "./usage.js";
import { createOpenAiStreamDecoder } from "./stream-decoder.js";

/** OpenAI Chat Completions (`POST /chat/completions`), config `api: "openai-chat"`. */
export const openAIChatWire: LaneWireFormat = {
  id: "openai-chat",
  aliases: ["openai-completions"],
  finish: { toCanonical: OPENAI_FINISH_REASONS, fromCanonical: CANONICAL_TO_OPENAI_FINISH_REASON },
  usage: {
    read(raw) {
      if (raw === undefined || raw === null) return undefined;
      const usage = validateWire(raw, openAiUsageSchema);
      return usage.ok ? usageFromOpenAi(usage.value) : undefined;
    },
    render: renderOpenAIUsage,
  },
  errors: {
    read: describeOpenAiError,
    readStreamError: describeOpenAiStreamError,
    readErrorAnswer(text) {
      const json = parseJsonText(text);
      const error =
        json.ok && typeof json.value === "object" && json.value !== null ? (json.value as { error?: unknown }).error : undefined;
      return error !== undefined && error !== null ? describeOpenAiStreamError(error) : undefined;
    },
    render: (input) =>
      renderOpenAIError({ message: input.message, status: input.status, code: input.code ?? null, param: input.param ?? null }),
    renderValidation: renderOpenAIValidationError,
  },
  request: {
    encode: (request, options) =>
      encodeOpenAiRequest(request, {
        model: options.model,
        stream: options.stream,
        maxTokensField: options.baseUrl ? maxTokensFieldFor(options.baseUrl) : "max_tokens",
      }),
    decode(body) {
      const parsed = parseOpenAIChatRequest(body);
      if (!parsed.ok) return parsed;
      return {
        ok: true,
        value: { request: parsed.request, model: parsed.model, stream: parsed.stream, includeUsage: parsed.includeUsage },
      };
    },
  },
  response: {
    decode(text) {
      const parsed = parseWireJson(text, openAiChatCompletionSchema);
      if (!parsed.ok) return { ok: false, problem: parsed.problem };
      const { response, rawFinishReason } = decodeOpenAiResponse(parsed.value);
      return { ok: true, response, ...(rawFinishReason !== undefined ? { rawFinishReason } : {}) };
    },
    render: (response, options) => renderOpenAIChatCompletion(response, options),
  },
  stream: {
    framing: "sse",
    decoder: createOpenAiStreamDecoder,
    encoder: (options) => createOpenAIStreamEncoder(options),
    resumeEncoder(options) {
      // R-GW-10: the rest of the answer is the same answer: its id, creation time and fingerprint stay.
      const identity = options.delivered.identity;
      const encoder = createOpenAIStreamEncoder({
        includeUsage: options.includeUsage,
        model: options.model,
        createdSeconds: identity?.createdSeconds ?? options.createdSeconds,
        ...(identity?.fingerprint !== undefined ? { systemFingerprint: identity.fingerprint } : {}),
      });
      // The role delta went out with the first part of the answer: the resumed stream starts after it.
      encoder.encode({ type: "message-start", id: identity?.id ?? "chatcmpl-detour", model: options.model });
      return encoder;
    },
  },
  lane: openAIChatLane,
};
