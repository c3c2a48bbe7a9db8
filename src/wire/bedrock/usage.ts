/**
 * Converse usage ↔ canonical usage. Like Anthropic, Converse counts cache reads and writes apart from
 * `inputTokens`; the canonical input count includes them.
 */
import type { CanonicalUsage } from "../../ports/canonical.js";

export interface ConverseUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  cacheReadInputTokens?: number;
  cacheWriteInputTokens?: number;
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Undefined when `raw` is not a Converse usage object. */
export function usageFromConverse(raw: unknown): CanonicalUsage | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const usage = raw as Record<string, unknown>;
  const input = count(usage.inputTokens);
  const output = count(usage.outputTokens);
  if (input === undefined || output === undefined) return undefined;
  const cacheRead = count(usage.cacheReadInputTokens);
  const cacheWrite = count(usage.cacheWriteInputTokens);
  return {
    inputTokens: input + (cacheRead ?? 0) + (cacheWrite ?? 0),
    outputTokens: output,
    ...(cacheRead !== undefined ? { cacheReadTokens: cacheRead } : {}),
    ...(cacheWrite !== undefined ? { cacheWriteTokens: cacheWrite } : {}),
  };
}

export function renderConverseUsage(usage: CanonicalUsage): ConverseUsage {
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const input = Math.max(0, usage.inputTokens - cacheRead - cacheWrite);
  return {
    inputTokens: input,
    outputTokens: usage.outputTokens,
    totalTokens: usage.inputTokens + usage.outputTokens,
    ...(cacheRead > 0 ? { cacheReadInputTokens: cacheRead } : {}),
    ...(cacheWrite > 0 ? { cacheWriteInputTokens: cacheWrite } : {}),
  };
}
