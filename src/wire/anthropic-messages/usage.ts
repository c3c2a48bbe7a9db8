/**
 * Anthropic usage ↔ canonical usage (R-GW-7). Anthropic counts cache reads and writes apart from
 * `input_tokens`; the canonical input count includes them, so they are added on the way in and taken
 * out on the way back.
 */
import type { CanonicalUsage } from "../../ports/canonical.js";
import type { AnthropicUsage } from "./schemas.js";

/** Cache reads and writes are input the model processed, so they count as input tokens. */
export function anthropicInputTokens(usage: AnthropicUsage): number {
  return (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

export function usageFromAnthropic(usage: AnthropicUsage): CanonicalUsage {
  return {
    inputTokens: anthropicInputTokens(usage),
    outputTokens: usage.output_tokens ?? 0,
    ...(typeof usage.cache_read_input_tokens === "number" ? { cacheReadTokens: usage.cache_read_input_tokens } : {}),
    ...(typeof usage.cache_creation_input_tokens === "number" ? { cacheWriteTokens: usage.cache_creation_input_tokens } : {}),
  };
}

export function renderAnthropicUsage(usage: CanonicalUsage) {
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  return {
    input_tokens: Math.max(0, usage.inputTokens - cacheRead - cacheWrite),
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
  };
}
