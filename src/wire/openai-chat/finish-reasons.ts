/**
 * OpenAI `finish_reason` ↔ canonical finish reason: the one table the provider, the gateway dialect and
 * the mock provider share. One row per documented value.
 */
import { finishReasonTables } from "../shared/finish-reasons.js";

export type OpenAIFinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "function_call";

export const {
  toCanonical: OPENAI_FINISH_REASONS,
  fromCanonical: CANONICAL_TO_OPENAI_FINISH_REASON,
  map: mapOpenAiFinishReason,
} = finishReasonTables<OpenAIFinishReason | "error", OpenAIFinishReason>(
  {
    stop: "stop",
    length: "length",
    tool_calls: "tool_calls",
    // Deprecated single-function calling; still sent by some compatible servers.
    function_call: "tool_calls",
    content_filter: "content_filter",
    // OpenRouter ends a stream with finish_reason "error" when the upstream failed mid-answer.
    error: "error",
  },
  // `error` has no OpenAI equivalent. The runner fails over on it before anything is rendered and the SSE
  // encoder turns it into an error chunk (R-ST-2); the row exists only so the table is total.
  { stop: "stop", length: "length", tool_calls: "tool_calls", content_filter: "content_filter", error: "stop" },
);

/** Wire → canonical under the dialect's historical name. */
export { OPENAI_FINISH_REASONS as OPENAI_TO_CANONICAL_FINISH_REASON };
