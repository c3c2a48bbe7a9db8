/** OpenAI usage ↔ canonical usage (R-GW-7): cached prompt tokens and reasoning tokens included. */
import type { CanonicalUsage } from "../../ports/canonical.js";
import type { OpenAiUsage } from "./schemas.js";

export function usageFromOpenAi(usage: OpenAiUsage | null | undefined): CanonicalUsage {
  const cached = usage?.prompt_tokens_details?.cached_tokens;
  const reasoning = usage?.completion_tokens_details?.reasoning_tokens;
  return {
    inputTokens: usage?.prompt_tokens ?? 0,
    outputTokens: usage?.completion_tokens ?? 0,
    ...(typeof cached === "number" ? { cacheReadTokens: cached } : {}),
    ...(typeof reasoning === "number" ? { reasoningTokens: reasoning } : {}),
  };
}

/**
 * OpenAI has no cache-write count: writes are input like any other. `prompt_tokens` is every input token,
 * as in the canonical model.
 */
export function renderOpenAIUsage(usage: CanonicalUsage) {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    ...(usage.cacheReadTokens !== undefined ? { prompt_tokens_details: { cached_tokens: usage.cacheReadTokens } } : {}),
    ...(usage.reasoningTokens !== undefined ? { completion_tokens_details: { reasoning_tokens: usage.reasoningTokens } } : {}),
  };
}
