/** Gemini `finishReason` ↔ canonical finish reason. One row per documented value. */
import { finishReasonTables } from "../shared/finish-reasons.js";

export const {
  toCanonical: GOOGLE_FINISH_REASONS,
  fromCanonical: CANONICAL_TO_GOOGLE_FINISH_REASON,
  map: mapGoogleFinishReason,
} = finishReasonTables(
  {
    FINISH_REASON_UNSPECIFIED: "stop",
    STOP: "stop",
    MAX_TOKENS: "length",
    SAFETY: "content_filter",
    RECITATION: "content_filter",
    BLOCKLIST: "content_filter",
    PROHIBITED_CONTENT: "content_filter",
    SPII: "content_filter",
    IMAGE_SAFETY: "content_filter",
    IMAGE_PROHIBITED_CONTENT: "content_filter",
    // The model failed to produce a usable answer; another attempt (or model) may succeed.
    LANGUAGE: "error",
    MALFORMED_FUNCTION_CALL: "error",
    UNEXPECTED_TOOL_CALL: "error",
    TOO_MANY_TOOL_CALLS: "error",
    OTHER: "error",
  },
  // Canonical → Gemini, for answers Detour writes in this format. Gemini says STOP after function calls (the
  // calls are in the parts) and has no finish word for an error: an error ends a stream with an error chunk.
  { stop: "STOP", length: "MAX_TOKENS", tool_calls: "STOP", content_filter: "SAFETY", error: "OTHER" },
);
