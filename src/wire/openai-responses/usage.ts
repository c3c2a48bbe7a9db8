/** Responses usage ↔ canonical usage (R-GW-7): cached input, cache writes and reasoning tokens included. */
import type { CanonicalUsage } from "../../ports/canonical.js";
import type { ResponsesUsage } from "./schemas.js";

/** `input_tokens` already counts cached input and `output_tokens` reasoning, as in the canonical model. */
export function usageFromResponses(usage: ResponsesUsage | null | undefined): CanonicalUsage {
  const cached = usage?.input_tokens_details?.cached_tokens;
  const written = usage?.input_tokens_details?.cache_write_tokens;
  const reasoning = usage?.output_tokens_details?.reasoning_tokens;
  return {
    inputTokens: usage?.input_tokens ?? 0,
    outputTokens: usage?.output_tokens ?? 0,
    ...(typeof cached === "number" ? { cacheReadTokens: cached } : {}),
    ...(typeof written === "number" && written > 0 ? { cacheWriteTokens: written } : {}),
    ...(typeof reasoning === "number" ? { reasoningTokens: reasoning } : {}),
  };
}

/** The SDK's `ResponseUsage`: every detail field present (zero when unknown), as OpenAI sends it. */
export function renderResponsesUsage(usage: CanonicalUsage) {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: {
      cached_tokens: usage.cacheReadTokens ?? 0,
      ...(usage.cacheWriteTokens !== undefined ? { cache_write_tokens: usage.cacheWriteTokens } : {}),
    },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}
