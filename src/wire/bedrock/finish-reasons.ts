/** Bedrock Converse `stopReason` ↔ canonical finish reason. One row per documented value. */
import type { CanonicalFinishReason } from "../../ports/canonical.js";
import type { FinishReasonTable } from "../shared/finish-reasons.js";

export const CONVERSE_FINISH_REASONS: FinishReasonTable = {
  end_turn: "stop",
  stop_sequence: "stop",
  tool_use: "tool_calls",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  guardrail_intervened: "content_filter",
  content_filtered: "content_filter",
};

/** Converse has no stop reason for an error: a failed stream ends with an exception frame instead. */
export const CANONICAL_TO_CONVERSE_STOP_REASON: Readonly<Record<CanonicalFinishReason, string>> = {
  stop: "end_turn",
  length: "max_tokens",
  tool_calls: "tool_use",
  content_filter: "content_filtered",
  error: "end_turn",
};
