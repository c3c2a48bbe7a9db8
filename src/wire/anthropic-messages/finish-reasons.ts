/**
 * Anthropic `stop_reason` ↔ canonical finish reason: the one table the provider, the gateway dialect and
 * the mock provider share. One row per documented value.
 */
import type { CanonicalFinishReason } from "../../ports/canonical.js";
import { lookupFinishReason, type FinishReasonTable } from "../shared/finish-reasons.js";

export type AnthropicStopReason =
  "end_turn" | "max_tokens" | "stop_sequence" | "tool_use" | "pause_turn" | "refusal" | "model_context_window_exceeded";

export const ANTHROPIC_FINISH_REASONS: Readonly<Record<AnthropicStopReason, CanonicalFinishReason>> & FinishReasonTable = {
  end_turn: "stop",
  stop_sequence: "stop",
  // A server-tool loop paused; what was produced so far is a complete turn for the client.
  pause_turn: "stop",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  tool_use: "tool_calls",
  refusal: "content_filter",
};

/** Wire → canonical under the dialect's historical name. */
export const ANTHROPIC_TO_CANONICAL_STOP_REASON = ANTHROPIC_FINISH_REASONS;

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

export function mapAnthropicFinishReason(raw: string): CanonicalFinishReason {
  return lookupFinishReason(ANTHROPIC_FINISH_REASONS, raw);
}
