/** Canonical response → Anthropic `message` JSON (R-GW-2, R-ST-3: `model` is who answered; R-GW-7 usage). */
import type { CanonicalResponse, CanonicalThinking } from "../../ports/canonical.js";
import { CANONICAL_TO_ANTHROPIC_STOP_REASON } from "./finish-reasons.js";
import { renderAnthropicUsage } from "./usage.js";

/**
 * Anthropic tool inputs are JSON objects while canonical arguments are text as the model wrote it.
 * Text that is not a JSON object is kept under `arguments` rather than dropped.
 */
export function toolInputFromArguments(args: string): Record<string, unknown> {
  if (args.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(args);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through: not JSON
  }
  return { arguments: args };
}

export function thinkingBlock(part: CanonicalThinking) {
  return part.redactedData !== undefined
    ? { type: "redacted_thinking" as const, data: part.redactedData }
    : { type: "thinking" as const, thinking: part.text, signature: part.signature ?? "" };
}

export function renderAnthropicMessage(response: CanonicalResponse) {
  const content = response.content.map((part) =>
    part.type === "text"
      ? { type: "text" as const, text: part.text }
      : { type: "tool_use" as const, id: part.id, name: part.name, input: toolInputFromArguments(part.arguments) },
  );
  return {
    id: response.id,
    type: "message" as const,
    role: "assistant" as const,
    model: response.model,
    content: [...(response.thinking ?? []).map(thinkingBlock), ...content],
    stop_reason: CANONICAL_TO_ANTHROPIC_STOP_REASON[response.finishReason],
    stop_sequence: null,
    usage: renderAnthropicUsage(response.usage),
  };
}
