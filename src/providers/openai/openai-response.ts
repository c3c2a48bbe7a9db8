/** OpenAI Chat Completions response → canonical response (R-GW-2, R-ST-3). */
import type { CanonicalResponse, CanonicalUsage } from "../../ports/canonical.js";
import { errorStopReasonFailure } from "../shared/upstream-failure.js";
import { mapOpenAiFinishReason } from "./map-openai-finish-reason.js";
import type { OpenAiChatCompletion } from "./openai-wire.js";

export function toCanonicalUsage(usage: { prompt_tokens: number; completion_tokens: number } | null | undefined): CanonicalUsage {
  return { inputTokens: usage?.prompt_tokens ?? 0, outputTokens: usage?.completion_tokens ?? 0 };
}

export function fromOpenAiResponse(provider: string, completion: OpenAiChatCompletion): CanonicalResponse {
  const choice = completion.choices[0];
  const content: CanonicalResponse["content"] = [];
  const text = choice?.message.content ?? choice?.message.refusal ?? "";
  if (text !== "") content.push({ type: "text", text });
  for (const call of choice?.message.tool_calls ?? []) {
    content.push({ type: "tool-call", id: call.id, name: call.function.name, arguments: call.function.arguments });
  }
  const rawReason = choice?.finish_reason;
  const hasToolCalls = content.some((part) => part.type === "tool-call");
  const finishReason = rawReason ? mapOpenAiFinishReason(rawReason) : hasToolCalls ? "tool_calls" : "stop";
  if (finishReason === "error") throw errorStopReasonFailure(provider, rawReason ?? "error");
  return {
    id: completion.id,
    model: completion.model,
    content,
    finishReason,
    usage: toCanonicalUsage(completion.usage),
  };
}
