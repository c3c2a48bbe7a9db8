/** Canonical response → Anthropic `message` JSON (R-GW-2, R-ST-3: `model` is who answered). */
import type { CanonicalResponse } from "../../../ports/canonical.js";
import { CANONICAL_TO_ANTHROPIC_STOP_REASON } from "./anthropic-stop-reasons.js";

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

export function renderAnthropicMessage(response: CanonicalResponse) {
  return {
    id: response.id,
    type: "message" as const,
    role: "assistant" as const,
    model: response.model,
    content: response.content.map((part) =>
      part.type === "text"
        ? { type: "text" as const, text: part.text }
        : { type: "tool_use" as const, id: part.id, name: part.name, input: toolInputFromArguments(part.arguments) },
    ),
    stop_reason: CANONICAL_TO_ANTHROPIC_STOP_REASON[response.finishReason],
    stop_sequence: null,
    usage: { input_tokens: response.usage.inputTokens, output_tokens: response.usage.outputTokens },
  };
}
