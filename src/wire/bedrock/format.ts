/**
 * AWS Bedrock runtime as one `WireFormat` (config `api: "bedrock"`). Claude models are called through
 * InvokeModel with Anthropic's Messages body (anthropic-on-bedrock.ts), every other model through the Converse
 * API; the model id says which (models.ts), and answers and streams say it by their shape. Streams use the AWS
 * event-stream framing. Errors are Bedrock's (`x-amzn-ErrorType` + `{"message"}`), the same for both. The
 * gateway does not speak Bedrock to clients: no same-wire lane.
 */
import { parseJsonText, validateWire } from "../shared/wire-json.js";
import { anthropicMessagesWire } from "../anthropic-messages/format.js";
import { anthropicUsageSchema } from "../anthropic-messages/schemas.js";
import { usageFromAnthropic } from "../anthropic-messages/usage.js";
import type { WireFormat } from "../wire-format.js";
import { encodeBedrockAnthropicRequest } from "./anthropic-on-bedrock.js";
import { encodeConverseRequest } from "./converse-request.js";
import { decodeConverseAnswer, isConverseAnswer, renderConverseResponse } from "./converse-response.js";
import { createConverseStreamEncoder } from "./converse-stream.js";
import { describeBedrockError, describeBedrockStreamErrorValue, renderBedrockError } from "./errors.js";
import { CANONICAL_TO_CONVERSE_STOP_REASON, CONVERSE_FINISH_REASONS } from "./finish-reasons.js";
import { isBedrockAnthropicModel } from "./models.js";
import { createBedrockStreamDecoder } from "./stream-decoder.js";
import { renderConverseUsage, usageFromConverse } from "./usage.js";

export const bedrockWire: WireFormat = {
  id: "bedrock",
  // OpenClaw's configs name Bedrock by its Converse streaming operation.
  aliases: ["bedrock-converse-stream"],
  finish: {
    // Claude's stop reasons arrive in Anthropic's words, read by Anthropic's table; these are Converse's.
    toCanonical: { ...anthropicMessagesWire.finish.toCanonical, ...CONVERSE_FINISH_REASONS },
    fromCanonical: CANONICAL_TO_CONVERSE_STOP_REASON,
  },
  usage: {
    read(raw) {
      if (typeof raw !== "object" || raw === null) return undefined;
      if ("inputTokens" in raw) return usageFromConverse(raw);
      const anthropic = validateWire(raw, anthropicUsageSchema);
      return anthropic.ok && "input_tokens" in raw ? usageFromAnthropic(anthropic.value) : undefined;
    },
    render: renderConverseUsage,
  },
  errors: {
    read: describeBedrockError,
    readStreamError: describeBedrockStreamErrorValue,
    render: renderBedrockError,
  },
  request: {
    encode: (request, options) =>
      isBedrockAnthropicModel(options.model) ? encodeBedrockAnthropicRequest(request, options.model) : encodeConverseRequest(request),
  },
  response: {
    decode(text, fallback) {
      const json = parseJsonText(text);
      if (!json.ok) return { ok: false, problem: json.problem };
      if (isConverseAnswer(json.value)) return decodeConverseAnswer(json.value, fallback);
      return anthropicMessagesWire.response.decode(text, fallback);
    },
    render: (response) => renderConverseResponse(response),
  },
  stream: {
    framing: "aws-event-stream",
    decoder: createBedrockStreamDecoder,
    encoder: () => createConverseStreamEncoder(),
  },
};
