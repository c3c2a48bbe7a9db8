/** Ollama chat responses → canonical (R-GW-2, R-ST-3); also the pieces the stream translator shares. */
import type { CanonicalFinishReason, CanonicalResponse, CanonicalUsage } from "../../ports/canonical.js";
import { toolArgumentsText } from "../shared/tool-arguments.js";
import { mapOllamaFinishReason } from "./finish-reasons.js";
import type { OllamaChatResponse } from "./schemas.js";

export interface OllamaIds {
  createToolCallId: () => string;
  createResponseId: () => string;
}

export function usageOf(line: OllamaChatResponse): CanonicalUsage {
  return { inputTokens: line.prompt_eval_count ?? 0, outputTokens: line.eval_count ?? 0 };
}

export function finishOf(line: OllamaChatResponse, sawToolCall: boolean): CanonicalFinishReason {
  const reason = line.done_reason ? mapOllamaFinishReason(line.done_reason) : "stop";
  // Ollama says "stop" after tool calls; clients need tool_calls to run them.
  return reason === "stop" && sawToolCall ? "tool_calls" : reason;
}

export function toolCallsOf(line: OllamaChatResponse, ids: OllamaIds): { id: string; name: string; arguments: string }[] {
  return (line.message?.tool_calls ?? []).map((call) => ({
    id: call.id ?? ids.createToolCallId(),
    name: call.function.name,
    arguments: toolArgumentsText(call.function.arguments),
  }));
}

export function fromOllamaResponse(response: OllamaChatResponse, ids: OllamaIds): CanonicalResponse {
  const content: CanonicalResponse["content"] = [];
  if (response.message?.content) content.push({ type: "text", text: response.message.content });
  for (const call of toolCallsOf(response, ids)) content.push({ type: "tool-call", ...call });
  return {
    id: ids.createResponseId(),
    model: response.model,
    content,
    finishReason: finishOf(
      response,
      content.some((part) => part.type === "tool-call"),
    ),
    usage: usageOf(response),
  };
}
