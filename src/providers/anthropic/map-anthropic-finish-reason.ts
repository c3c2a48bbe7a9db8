/** Anthropic `stop_reason` → canonical finish reason. One row per documented value. */
import type { CanonicalFinishReason } from "../../ports/canonical.js";
import { lookupFinishReason, type FinishReasonTable } from "../shared/finish-reasons.js";

export const ANTHROPIC_FINISH_REASONS: FinishReasonTable = {
  end_turn: "stop",
  stop_sequence: "stop",
  // A server-tool loop paused; what was produced so far is a complete turn for the client.
  pause_turn: "stop",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  tool_use: "tool_calls",
  refusal: "content_filter",
};

export function mapAnthropicFinishReason(raw: string): CanonicalFinishReason {
  return lookupFinishReason(ANTHROPIC_FINISH_REASONS, raw);
}
