/**
 * The mock's non-chat endpoints, each answering with the error shapes and faults of its provider's chat wire:
 * OpenAI `POST /v1/embeddings` (float or base64, `dimensions`), Ollama `POST /api/embed`, and Anthropic
 * `POST /v1/messages/count_tokens` (the input tokens the mock would report as usage for the same messages).
 * Stream faults cut or stall the JSON body, as for a non-streamed chat answer.
 */
import { renderOllamaEmbedResponse } from "../../../wire/ollama/embed.js";
import { float32Base64 } from "../../../wire/openai-embeddings/vectors.js";
import { embeddingInputs, embeddingTokens, mockEmbedding, MOCK_EMBEDDING_DIMENSIONS } from "../mock-embeddings.js";
import { anthropicWire } from "./anthropic-wire.js";
import { isRecord, NO_STREAM_FRAMES, type MockWire, type WireReadResult } from "./mock-wire.js";
import { ollamaWire } from "./ollama-wire.js";
import { openAIWire } from "./openai-wire.js";

interface EmbeddingsPayload {
  texts: string[];
  dimensions: number;
  base64: boolean;
}

function readEmbeddings(body: unknown): WireReadResult {
  if (!isRecord(body)) return { ok: false, message: "The request body must be a JSON object." };
  if (typeof body.model !== "string" || body.model === "") return { ok: false, message: "you must provide a model parameter" };
  const texts = embeddingInputs(body.input);
  if (!texts) return { ok: false, message: "'input' must be a string, a list of strings or a list of token ids" };
  const dimensions = body.dimensions ?? MOCK_EMBEDDING_DIMENSIONS;
  if (typeof dimensions !== "number" || !Number.isInteger(dimensions) || dimensions < 1 || dimensions > 4096) {
    return { ok: false, message: "'dimensions' must be a whole number from 1 to 4096" };
  }
  const payload: EmbeddingsPayload = { texts, dimensions, base64: body.encoding_format === "base64" };
  return {
    ok: true,
    info: {
      model: body.model,
      stream: false,
      includeUsage: false,
      conversation: { tools: [], inputCharacters: texts.join("").length },
      payload,
    },
  };
}

function vectorsOf(payload: unknown, model: string): { vectors: number[][]; tokens: number; base64: boolean } {
  const { texts, dimensions, base64 } = payload as EmbeddingsPayload;
  return { vectors: texts.map((text) => mockEmbedding(model, text, dimensions)), tokens: embeddingTokens(texts), base64 };
}

export const openAIEmbeddingsWire: MockWire = {
  ...openAIWire,
  readRequest: (body) => readEmbeddings(body),
  renderJson(_reply, context) {
    const { vectors, tokens, base64 } = vectorsOf(context.payload, context.model);
    return {
      object: "list",
      data: vectors.map((vector, index) => ({ object: "embedding", index, embedding: base64 ? float32Base64(vector) : vector })),
      model: context.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    };
  },
  streamFrames: () => NO_STREAM_FRAMES,
};

export const ollamaEmbedWire: MockWire = {
  ...ollamaWire,
  readRequest: (body) => readEmbeddings(body),
  renderJson(_reply, context) {
    const { vectors, tokens } = vectorsOf(context.payload, context.model);
    return renderOllamaEmbedResponse({ model: context.model, embeddings: vectors, promptTokens: tokens });
  },
  streamFrames: () => NO_STREAM_FRAMES,
};

export const anthropicCountTokensWire: MockWire = {
  ...anthropicWire,
  readRequest(body, route) {
    // count_tokens takes a Messages body without `max_tokens`.
    const read = anthropicWire.readRequest(isRecord(body) ? { max_tokens: 1, ...body, stream: false } : body, route);
    return read.ok ? { ok: true, info: { ...read.info, stream: false } } : read;
  },
  renderJson(reply) {
    return { input_tokens: reply.usage.inputTokens };
  },
  streamFrames: () => NO_STREAM_FRAMES,
};
