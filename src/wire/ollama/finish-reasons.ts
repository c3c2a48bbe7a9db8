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
