/** Anthropic Messages response → canonical response (R-GW-2, R-ST-3). */
import type { CanonicalResponse, CanonicalUsage } from "../../ports/canonical.js";
import { toolArgumentsText } from "../shared/tool-arguments.js";
import { mapAnthropicFinishReason } from "./map-anthropic-finish-reason.js";
import type { AnthropicMessage, AnthropicUsage } from "./anthropic-wire.js";

/** Cache reads and writes are input the model processed, so they count as input tokens. */
export function anthropicInputTokens(usage: AnthropicUsage): number {
  return (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

export function fromAnthropicResponse(message: AnthropicMessage): CanonicalResponse {
  const content: CanonicalResponse["content"] = [];
  for (const block of message.content) {
    if (block.type === "text" && block.text) content.push({ type: "text", text: block.text });
    if (block.type === "tool_use" && block.id && block.name) {
      content.push({ type: "tool-call", id: block.id, name: block.name, arguments: toolArgumentsText(block.input) });
    }
    // Thinking and server-tool blocks have no canonical form and are not relayed.
  }
  const usage: CanonicalUsage = { inputTokens: anthropicInputTokens(message.usage), outputTokens: message.usage.output_tokens ?? 0 };
  const hasToolCalls = content.some((part) => part.type === "tool-call");
  return {
    id: message.id,
    model: message.model,
    content,
    finishReason: message.stop_reason ? mapAnthropicFinishReason(message.stop_reason) : hasToolCalls ? "tool_calls" : "stop",
    usage,
  };
}
