/**
 * Ollama's native embeddings (`POST /api/embed`) ↔ the OpenAI embeddings shape: an OpenAI request becomes
 * Ollama's `{ model, input, dimensions }` and Ollama's `{ embeddings, prompt_eval_count }` becomes the OpenAI
 * answer, in the encoding the client asked for.
 */
import { z } from "zod";
import type { WireEncoding } from "../shared/encoding.js";
import { textInputs, type OpenAiEmbeddingsRequest, type OpenAiEmbeddingsResponse } from "../openai-embeddings/schemas.js";
import { float32Base64 } from "../openai-embeddings/vectors.js";

export interface OllamaEmbedRequest {
  model: string;
  input: string | string[];
  dimensions?: number;
}

export const ollamaEmbedResponseSchema = z.looseObject({
  model: z.string().optional(),
  embeddings: z.array(z.array(z.number())),
  prompt_eval_count: z.number().int().nonnegative().optional(),
});

export type OllamaEmbedResponse = z.infer<typeof ollamaEmbedResponseSchema>;

export function encodeOllamaEmbedRequest(request: OpenAiEmbeddingsRequest, model: string): WireEncoding<OllamaEmbedRequest> {
  const texts = textInputs(request.input);
  if (!texts) return { ok: false, field: "input", problem: "Ollama embeds text only, not token ids." };
  return {
    ok: true,
    body: {
      model,
      input: typeof request.input === "string" ? request.input : texts,
      ...(request.dimensions !== undefined ? { dimensions: request.dimensions } : {}),
    },
    // `user` is a hint only (R-GW-6); Ollama has no place for it.
    dropped: request.user !== undefined ? ["user"] : [],
  };
}

export function openAiEmbeddingsFromOllama(
  response: OllamaEmbedResponse,
  shownModel: string,
  encoding: OpenAiEmbeddingsRequest["encoding_format"],
): OpenAiEmbeddingsResponse {
  const promptTokens = response.prompt_eval_count ?? 0;
  return {
    object: "list",
    data: response.embeddings.map((vector, index) => ({
      object: "embedding",
      index,
      embedding: encoding === "base64" ? float32Base64(vector) : vector,
    })),
    model: shownModel,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
}

/** Ollama's `/api/embed` answer, for answers written in this format (the mock provider's). */
export function renderOllamaEmbedResponse(answer: { model: string; embeddings: number[][]; promptTokens: number }): OllamaEmbedResponse {
  return { model: answer.model, embeddings: answer.embeddings, prompt_eval_count: answer.promptTokens };
}
