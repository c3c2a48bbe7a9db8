/** Finish-reason tables between the canonical model and the OpenAI dialect (one row per value). */
import type { CanonicalFinishReason } from "../../../ports/canonical.js";

export type OpenAIFinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "function_call";

export const OPENAI_TO_CANONICAL_FINISH_REASON: Readonly<Record<OpenAIFinishReason, CanonicalFinishReason>> = {
  stop: "stop",
  length: "length",
  tool_calls: "tool_calls",
  content_filter: "content_filter",
  // The legacy single-function form is a tool call.
  function_call: "tool_calls",
};

/**
 * `error` has no OpenAI equivalent. The runner fails over on it before anything is rendered and the SSE
 * encoder turns it into an error chunk (R-ST-2); the row exists only so the table is total.
 */
export const CANONICAL_TO_OPENAI_FINISH_REASON: Readonly<Record<CanonicalFinishReason, OpenAIFinishReason>> = {
  stop: "stop",
  length: "length",
  tool_calls: "tool_calls",
  content_filter: "content_filter",
  error: "stop",
};
