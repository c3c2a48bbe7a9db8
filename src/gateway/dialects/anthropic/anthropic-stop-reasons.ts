/** Stop-reason tables between the canonical model and the Anthropic dialect (one row per value). */
import type { CanonicalFinishReason } from "../../../ports/canonical.js";

export type AnthropicStopReason =
  | "end_turn"
  | "max_tokens"
  | "stop_sequence"
  | "tool_use"
  | "pause_turn"
  | "refusal"
  | "model_context_window_exceeded";

export const ANTHROPIC_TO_CANONICAL_STOP_REASON: Readonly<Record<AnthropicStopReason, CanonicalFinishReason>> = {
  end_turn: "stop",
  stop_sequence: "stop",
  // A paused server-tool turn is complete from the client's point of view.
  pause_turn: "stop",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  tool_use: "tool_calls",
  refusal: "content_filter",
};

/**
 * `error` has no Anthropic equivalent. The runner fails over on it before anything is rendered and the
 * SSE encoder turns it into `event: error` (R-ST-2); the row exists only so the table is total.
 */
export const CANONICAL_TO_ANTHROPIC_STOP_REASON: Readonly<Record<CanonicalFinishReason, AnthropicStopReason>> = {
  stop: "end_turn",
  length: "max_tokens",
  tool_calls: "tool_use",
  content_filter: "refusal",
  error: "end_turn",
};
