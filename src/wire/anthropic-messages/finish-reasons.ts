/**
 * Anthropic `stop_reason` ↔ canonical finish reason: the one table the provider, the gateway dialect and
 * the mock provider share. One row per documented value.
 */
import { finishReasonTables } from "../shared/finish-reasons.js";

export type AnthropicStopReason =
  "end_turn" | "max_tokens" | "stop_sequence" | "tool_use" | "pause_turn" | "refusal" | "model_context_window_exceeded";

export const {
  toCanonical: ANTHROPIC_FINISH_REASONS,
  fromCanonical: CANONICAL_TO_ANTHROPIC_STOP_REASON,
  map: mapAnthropicFinishReason,
} = finishReasonTables<AnthropicStopReason, AnthropicStopReason>(
  {
    end_turn: "stop",
    stop_sequence: "stop",
    // A server-tool loop paused; what was produced so far is a complete turn for the client.
    pause_turn: "stop",
    max_tokens: "length",
    model_context_window_exceeded: "length",
    tool_use: "tool_calls",
    refusal: "content_filter",
  },
  // `error` has no Anthropic equivalent. The runner fails over on it before anything is rendered and the
  // SSE encoder turns it into `event: error` (R-ST-2); the row exists only so the table is total.
  { stop: "end_turn", length: "max_tokens", tool_calls: "tool_use", content_filter: "refusal", error: "end_turn" },
);

/** Wire → canonical under the dialect's historical name. */
export { ANTHROPIC_FINISH_REASONS as ANTHROPIC_TO_CANONICAL_STOP_REASON };
