/**
 * Canonical answer → an Ollama `/api/chat` answer: the server side of the format (the mock provider answers
 * with it). The answer's last stream line has the same shape, with empty content.
 */
import type { CanonicalResponse, CanonicalUsage } from "../../ports/canonical.js";
import { toolArgumentsObject } from "../shared/tool-arguments.js";
import { CANONICAL_TO_OLLAMA_FINISH_REASON } from "./finish-reasons.js";

/** Ollama counts prompt and generated tokens only; it reports nothing of caching or reasoning apart. */
export function renderOllamaUsage(usage: CanonicalUsage): Record<string, number> {
  return { prompt_eval_count: usage.inputTokens, eval_count: usage.outputTokens };
}

/** Ollama stamps each line with the time it was made, as an ISO date. */
export function ollamaCreatedAt(createdSeconds: number): string {
  return new Date(createdSeconds * 1000).toISOString();
}

export function ollamaToolCalls(calls: readonly { name: string; arguments: string }[]): Record<string, unknown>[] {
  return calls.map((call) => ({ function: { name: call.name, arguments: toolArgumentsObject(call.arguments) } }));
}

export function renderOllamaResponse(response: CanonicalResponse, options: { createdSeconds: number }): Record<string, unknown> {
  const text = response.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
  const calls = response.content.flatMap((part) => (part.type === "tool-call" ? [part] : []));
  const thinking = (response.thinking ?? [])
    .filter((block) => block.origin === undefined)
    .map((block) => block.text)
    .join("");
  return {
    model: response.model,
    created_at: ollamaCreatedAt(options.createdSeconds),
    message: {
      role: "assistant",
      content: text,
      ...(thinking !== "" ? { thinking } : {}),
      ...(calls.length > 0 ? { tool_calls: ollamaToolCalls(calls) } : {}),
    },
    done: true,
    done_reason: CANONICAL_TO_OLLAMA_FINISH_REASON[response.finishReason],
    ...renderOllamaUsage(response.usage),
  };
}
