/** Ollama `done_reason` ↔ canonical finish reason. One row per value Ollama sends. */
import { finishReasonTables } from "../shared/finish-reasons.js";

export const {
  toCanonical: OLLAMA_FINISH_REASONS,
  fromCanonical: CANONICAL_TO_OLLAMA_FINISH_REASON,
  map: mapOllamaFinishReason,
} = finishReasonTables(
  {
    stop: "stop",
    length: "length",
    // Answers to empty prompts that only load or unload a model: nothing was cut short.
    load: "stop",
    unload: "stop",
  },
  // Canonical → Ollama, for answers Detour writes in this format. Ollama says "stop" after tool calls (the calls
  // are in the message) and has no word for a filtered answer or an error: an error ends a stream with an error line.
  { stop: "stop", length: "length", tool_calls: "stop", content_filter: "stop", error: "stop" },
);
