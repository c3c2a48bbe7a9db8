/** OpenAI Chat Completions response → canonical response (R-GW-2, R-ST-3, R-GW-7). */
import type { CanonicalResponse } from "../../ports/canonical.js";
import { mapOpenAiFinishReason } from "./finish-reasons.js";
import type { OpenAiChatCompletion } from "./schemas.js";
import { usageFromOpenAi } from "./usage.js";

/** @deprecated name kept for callers of the provider module; use `usageFromOpenAi`. */
export const toCanonicalUsage = usageFromOpenAi;

/**
 * The canonical answer and the raw finish reason. A finish reason of `error` (OpenRouter) is reported,
 * not thrown: the caller decides what a failed answer is.
 */
export function decodeOpenAiResponse(completion: OpenAiChatCompletion): { response: CanonicalResponse; rawFinishReason?: string } {
  const choice = completion.choices[0];
  const content: CanonicalResponse["content"] = [];
  const text = choice?.message.content ?? choice?.message.refusal ?? "";
  if (text !== "") content.push({ type: "text", text });
  for (const call of choice?.message.tool_calls ?? []) {
    content.push({ type: "tool-call", id: call.id, name: call.function.name, arguments: call.function.arguments });
  }
  const rawReason = choice?.finish_reason ?? undefined;
  const hasToolCalls = content.some((part) => part.type === "tool-call");
  const finishReason = rawReason ? mapOpenAiFinishReason(rawReason) : hasToolCalls ? "tool_calls" : "stop";
  const logprobs = choice?.logprobs;
  return {
    response: {
      id: completion.id,
      model: completion.model,
      content,
      finishReason,
      usage: usageFromOpenAi(completion.usage),
      ...(logprobs === undefined || logprobs === null ? {} : { logprobs }),
    },
    ...(rawReason ? { rawFinishReason: rawReason } : {}),
  };
}
