/** Ids for things a wire format leaves unnamed (Gemini and Ollama tool calls, Ollama responses). */
import { randomUUID } from "node:crypto";
import type { ProviderSettings } from "./provider-settings.js";

export function defaultToolCallId(): string {
  return `call_${randomUUID().replaceAll("-", "").slice(0, 24)}`;
}

export function defaultResponseId(): string {
  return `msg_${randomUUID().replaceAll("-", "")}`;
}

export function toolCallIdFactory(settings: ProviderSettings): () => string {
  return settings.createToolCallId ?? defaultToolCallId;
}

export function responseIdFactory(settings: ProviderSettings): () => string {
  return settings.createResponseId ?? defaultResponseId;
}
