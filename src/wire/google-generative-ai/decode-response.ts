/** Gemini responses and stream chunks → canonical (R-GW-2, R-ST-3). */
import type { CanonicalFinishReason, CanonicalResponse, CanonicalUsage } from "../../ports/canonical.js";
import { toolArgumentsText } from "../shared/tool-arguments.js";
import { mapGoogleFinishReason } from "./finish-reasons.js";
import type { GoogleGenerateContentResponse } from "./schemas.js";

export interface GoogleIds {
  createToolCallId: () => string;
  createResponseId: () => string;
}

/** Thinking tokens are billed as output; `promptTokenCount` already includes cached content (R-GW-7). */
export function googleUsage(usage: GoogleGenerateContentResponse["usageMetadata"]): CanonicalUsage {
  return {
    inputTokens: usage?.promptTokenCount ?? 0,
    outputTokens: (usage?.candidatesTokenCount ?? 0) + (usage?.thoughtsTokenCount ?? 0),
    ...(usage?.cachedContentTokenCount !== undefined ? { cacheReadTokens: usage.cachedContentTokenCount } : {}),
    ...(usage?.thoughtsTokenCount !== undefined ? { reasoningTokens: usage.thoughtsTokenCount } : {}),
  };
}

/** Text and function calls of the first candidate; thought summaries are not relayed. */
export function partsOf(chunk: GoogleGenerateContentResponse, ids: GoogleIds): CanonicalResponse["content"] {
  const parts = chunk.candidates?.[0]?.content?.parts ?? [];
  return parts.flatMap((part): CanonicalResponse["content"] => {
    if (part.functionCall) {
      return [
        {
          type: "tool-call",
          id: part.functionCall.id ?? ids.createToolCallId(),
          name: part.functionCall.name,
          arguments: toolArgumentsText(part.functionCall.args),
        },
      ];
    }
    return part.text && !part.thought ? [{ type: "text", text: part.text }] : [];
  });
}

/** The raw finish reason of a chunk; a blocked prompt has no candidate, only promptFeedback. */
export function rawFinishReasonOf(chunk: GoogleGenerateContentResponse): string | undefined {
  return chunk.candidates?.[0]?.finishReason ?? (chunk.promptFeedback?.blockReason ? "SAFETY" : undefined);
}

/** `error` is returned, not thrown: the provider turns it into a failure. */
export function canonicalFinish(raw: string, sawToolCall: boolean): CanonicalFinishReason {
  const reason = mapGoogleFinishReason(raw);
  // Gemini reports STOP after function calls; clients need tool_calls to run them.
  return reason === "stop" && sawToolCall ? "tool_calls" : reason;
}

export function fromGoogleResponse(response: GoogleGenerateContentResponse, fallback: { model: string } & GoogleIds): CanonicalResponse {
  const content = partsOf(response, fallback);
  const raw = rawFinishReasonOf(response) ?? "STOP";
  return {
    id: response.responseId ?? fallback.createResponseId(),
    model: response.modelVersion ?? fallback.model,
    content,
    finishReason: canonicalFinish(
      raw,
      content.some((part) => part.type === "tool-call"),
    ),
    usage: googleUsage(response.usageMetadata),
  };
}
