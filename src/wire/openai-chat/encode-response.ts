/** Canonical response → OpenAI `chat.completion` JSON (R-GW-2, R-ST-3: `model` is who answered; R-GW-7 usage). */
import type { CanonicalResponse } from "../../ports/canonical.js";
import { CANONICAL_TO_OPENAI_FINISH_REASON } from "./finish-reasons.js";
import { renderOpenAIUsage } from "./usage.js";

export { renderOpenAIUsage } from "./usage.js";

export interface OpenAIRenderOptions {
  /** Unix seconds for `created`: the caller's clock, never read here. */
  createdSeconds: number;
}

export function renderOpenAIChatCompletion(response: CanonicalResponse, options: OpenAIRenderOptions) {
  const text = response.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
  const toolCalls = response.content.flatMap((part) =>
    part.type === "tool-call" ? [{ id: part.id, type: "function" as const, function: { name: part.name, arguments: part.arguments } }] : [],
  );
  return {
    id: response.id,
    object: "chat.completion" as const,
    created: options.createdSeconds,
    model: response.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant" as const,
          // OpenAI sends null content for a pure tool-call turn.
          content: text === "" && toolCalls.length > 0 ? null : text,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: response.logprobs ?? null,
        finish_reason: CANONICAL_TO_OPENAI_FINISH_REASON[response.finishReason],
      },
    ],
    usage: renderOpenAIUsage(response.usage),
  };
}
