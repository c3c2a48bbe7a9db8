/** Anthropic Messages response → canonical response (R-GW-2, R-ST-3, R-GW-7). */
import type { CanonicalResponse, CanonicalThinking } from "../../ports/canonical.js";
import { toolArgumentsText } from "../shared/tool-arguments.js";
import { mapAnthropicFinishReason } from "./finish-reasons.js";
import type { AnthropicMessage } from "./schemas.js";
import { usageFromAnthropic } from "./usage.js";

export { anthropicInputTokens } from "./usage.js";

export function fromAnthropicResponse(message: AnthropicMessage): CanonicalResponse {
  const content: CanonicalResponse["content"] = [];
  const thinking: CanonicalThinking[] = [];
  for (const block of message.content) {
    if (block.type === "text" && block.text) content.push({ type: "text", text: block.text });
    if (block.type === "tool_use" && block.id && block.name) {
      content.push({ type: "tool-call", id: block.id, name: block.name, arguments: toolArgumentsText(block.input) });
    }
    if (block.type === "thinking") {
      thinking.push({ type: "thinking", text: block.thinking ?? "", ...(block.signature ? { signature: block.signature } : {}) });
    }
    if (block.type === "redacted_thinking" && block.data) thinking.push({ type: "thinking", text: "", redactedData: block.data });
    // Server-tool blocks have no canonical form and are not relayed.
  }
  const hasToolCalls = content.some((part) => part.type === "tool-call");
  return {
    id: message.id,
    model: message.model,
    content,
    ...(thinking.length > 0 ? { thinking } : {}),
    finishReason: message.stop_reason ? mapAnthropicFinishReason(message.stop_reason) : hasToolCalls ? "tool_calls" : "stop",
    usage: usageFromAnthropic(message.usage),
  };
}
