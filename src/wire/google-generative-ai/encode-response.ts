/**
 * Canonical answer → a Gemini `generateContent` answer: the server side of the format (the mock provider
 * answers with it). Reasoning goes out as thought parts, before the answer's parts, as Gemini sends them.
 */
import type { CanonicalResponse, CanonicalThinking, CanonicalUsage } from "../../ports/canonical.js";
import { toolArgumentsObject } from "../shared/tool-arguments.js";
import { CANONICAL_TO_GOOGLE_FINISH_REASON } from "./finish-reasons.js";

/** `promptTokenCount` includes cached content and `candidatesTokenCount` excludes thoughts (R-GW-7). */
export function renderGoogleUsage(usage: CanonicalUsage): Record<string, number> {
  const thoughts = usage.reasoningTokens ?? 0;
  const candidates = Math.max(0, usage.outputTokens - thoughts);
  return {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: candidates,
    totalTokenCount: usage.inputTokens + usage.outputTokens,
    ...(usage.cacheReadTokens !== undefined ? { cachedContentTokenCount: usage.cacheReadTokens } : {}),
    ...(usage.reasoningTokens !== undefined ? { thoughtsTokenCount: thoughts } : {}),
  };
}

export function googleThoughtPart(thinking: Pick<CanonicalThinking, "text" | "signature">): Record<string, unknown> {
  return { text: thinking.text, thought: true, ...(thinking.signature !== undefined ? { thoughtSignature: thinking.signature } : {}) };
}

export function googleAnswerParts(response: Pick<CanonicalResponse, "content" | "thinking">): Record<string, unknown>[] {
  const parts: Record<string, unknown>[] = (response.thinking ?? []).filter((block) => block.origin === undefined).map(googleThoughtPart);
  for (const part of response.content) {
    if (part.type === "text") parts.push({ text: part.text });
    // The Gemini API sends no call ids (its clients answer a call by the tool's name), so none are written.
    else parts.push({ functionCall: { name: part.name, args: toolArgumentsObject(part.arguments) } });
  }
  return parts;
}

/** One chunk or answer of the format: its candidate's parts, and the finish reason once it ends. */
export function googleChunk(id: string, model: string, parts: unknown[], finishReason?: string): Record<string, unknown> {
  return {
    candidates: [{ content: { parts, role: "model" }, ...(finishReason !== undefined ? { finishReason } : {}), index: 0 }],
    modelVersion: model,
    responseId: id,
  };
}

export function renderGoogleResponse(response: CanonicalResponse): Record<string, unknown> {
  return {
    ...googleChunk(response.id, response.model, googleAnswerParts(response), CANONICAL_TO_GOOGLE_FINISH_REASON[response.finishReason]),
    usageMetadata: renderGoogleUsage(response.usage),
  };
}
