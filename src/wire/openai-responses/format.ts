/**
 * The OpenAI Responses wire format as one `WireFormat` (wire/wire-format.ts). Error bodies are OpenAI's, as
 * the Responses API answers them.
 */
import type { CanonicalFinishReason } from "../../ports/canonical.js";
import type { LaneWireFormat } from "../wire-format.js";
import { renderOpenAIError, renderOpenAIValidationError } from "../openai-chat/errors.js";
import { withBodyResets } from "../shared/body-reset-hints.js";
import { parseJsonText, parseWireJson, validateWire } from "../shared/wire-json.js";
import { parseResponsesRequest } from "./decode-request.js";
import { decodeResponsesResponse } from "./decode-response.js";
import { encodeResponsesRequest } from "./encode-request.js";
import { renderResponsesResponse } from "./encode-response.js";
import { createResponsesStreamEncoder } from "./encode-stream.js";
import { openAIResponsesLane } from "./lane.js";
import { describeResponsesError, describeResponsesStreamError } from "./read-error.js";
import { responsesResponseSchema, responsesUsageSchema } from "./schemas.js";
import { CANONICAL_TO_RESPONSES_STATUS, RESPONSES_FINISH_REASONS } from "./status.js";
import { renderResponsesUsage, usageFromResponses } from "./usage.js";
import { createResponsesStreamDecoder } from "./stream-decoder.js";

/** Canonical → the key of RESPONSES_FINISH_REASONS (`status`, or `incomplete:<reason>`). */
const FINISH_KEYS = Object.fromEntries(
  Object.entries(CANONICAL_TO_RESPONSES_STATUS).map(([reason, { status, incompleteReason }]) => [
    reason,
    incompleteReason === undefined ? status : `${status}:${incompleteReason}`,
  ]),
) as Readonly<Record<CanonicalFinishReason, string>>;

/** OpenAI Responses (`POST /v1/responses`), config `api: "openai-responses"`. */
export const openAIResponsesWire: LaneWireFormat = {
  id: "openai-responses",
  aliases: [],
  finish: { toCanonical: RESPONSES_FINISH_REASONS, fromCanonical: FINISH_KEYS },
  usage: {
    read(raw) {
      if (raw === undefined || raw === null) return undefined;
      const usage = validateWire(raw, responsesUsageSchema);
      return usage.ok ? usageFromResponses(usage.value) : undefined;
    },
    render: renderResponsesUsage,
  },
  errors: {
    read: describeResponsesError,
    readStreamError: describeResponsesStreamError,
    readErrorAnswer(text) {
      const json = parseJsonText(text);
      const body =
        json.ok && typeof json.value === "object" && json.value !== null ? (json.value as { id?: unknown; error?: unknown }) : undefined;
      // OpenAI's error body, not a response that failed (which has its id and status).
      return body && body.id === undefined && typeof body.error === "object" && body.error !== null
        ? describeResponsesStreamError(body.error)
        : undefined;
    },
    render: (input) =>
      renderOpenAIError({ message: input.message, status: input.status, code: input.code ?? null, param: input.param ?? null }),
    renderValidation: renderOpenAIValidationError,
  },
  request: {
    encode: (request, options) => encodeResponsesRequest(request, options),
    decode(body) {
      const parsed = parseResponsesRequest(body);
      if (!parsed.ok) return parsed;
      return {
        ok: true,
        value: {
          request: parsed.request,
          model: parsed.model,
          stream: parsed.stream,
          // Usage always arrives, in `response.completed`.
          includeUsage: true,
          ...(parsed.statefulField !== undefined ? { statefulField: parsed.statefulField } : {}),
          ...(parsed.untranslatable !== undefined ? { untranslatable: parsed.untranslatable } : {}),
        },
      };
    },
  },
  response: {
    decode(text, fallback) {
      const parsed = parseWireJson(text, responsesResponseSchema);
      if (!parsed.ok) return { ok: false, problem: parsed.problem };
      const { response, rawStatus } = decodeResponsesResponse(parsed.value);
      // A failed response states its error; R-EC-6: a reset it states is read like a header's.
      const error = response.finishReason === "error" ? parsed.value.error : undefined;
      const failure = error?.message
        ? withBodyResets({ message: error.message, ...(error.code ? { code: error.code } : {}) }, parsed.value)
        : undefined;
      return {
        ok: true,
        response: response.model === "" ? { ...response, model: fallback.model } : response,
        ...(rawStatus !== undefined ? { rawFinishReason: rawStatus } : {}),
        ...(failure ? { failure } : {}),
      };
    },
    render: (response, options) => renderResponsesResponse(response, options),
  },
  stream: {
    framing: "sse",
    decoder: createResponsesStreamDecoder,
    encoder: (options) => createResponsesStreamEncoder({ model: options.model, createdSeconds: options.createdSeconds }),
    // No resumeEncoder: a Responses stream's events carry item ids and sequence numbers, so a cut one is not
    // continued in its own bytes; it ends with R-ST-2's explicit error.
  },
  lane: openAIResponsesLane,
};
