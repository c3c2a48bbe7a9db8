/** Ollama `done_reason` → canonical finish reason. One row per value Ollama sends. */
import type { CanonicalFinishReason } from "../../ports/canonical.js";
import { lookupFinishReason, type FinishReasonTable } from "../shared/finish-reasons.js";

export const OLLAMA_FINISH_REASONS: FinishReasonTable = {
  stop: "stop",
  length: "length",
  // Answers to empty prompts that only load or unload a model: nothing was cut short.
  load: "stop",
  unload: "stop",
};

export function mapOllamaFinishReason(raw: string): CanonicalFinishReason {
  return lookupFinishReason(OLLAMA_FINISH_REASONS, raw);
}

/**
 * Canonical → Ollama, for answers Detour writes in this format. Ollama says "stop" after tool calls (the calls
 * are in the message) and has no word for a filtered answer or an error: an error ends a stream with an error line.
 */
export const CANONICAL_TO_OLLAMA_FINISH_REASON: Readonly<Record<CanonicalFinishReason, string>> = {
  stop: "stop",
  length: "length",
  tool_calls: "stop",
  content_filter: "stop",
  error: "stop",
};
