/** OpenAI `finish_reason` → canonical finish reason. One row per documented value. */
import type { CanonicalFinishReason } from "../../ports/canonical.js";
import { lookupFinishReason, type FinishReasonTable } from "../shared/finish-reasons.js";

export const OPENAI_FINISH_REASONS: FinishReasonTable = {
  stop: "stop",
  length: "length",
  tool_calls: "tool_calls",
  // Deprecated single-function calling; still sent by some compatible servers.
  function_call: "tool_calls",
  content_filter: "content_filter",
  // OpenRouter ends a stream with finish_reason "error" when the upstream failed mid-answer.
  error: "error",
};

export function mapOpenAiFinishReason(raw: string): CanonicalFinishReason {
  return lookupFinishReason(OPENAI_FINISH_REASONS, raw);
}
