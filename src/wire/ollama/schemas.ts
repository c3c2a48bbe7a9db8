/**
 * Ollama native chat API (`POST /api/chat`). Streaming is NDJSON: one JSON object per line, the last
 * with `"done": true`. Request schemas describe what Detour sends; responses are loose.
 */
import { z } from "zod";
import type { SamplingNames } from "../shared/sampling-names.js";

/** Ollama's names for the sampling settings, in `options`. */
export const OLLAMA_SAMPLING_NAMES = {
  temperature: "temperature",
  topP: "top_p",
  maxTokens: "num_predict",
  stop: "stop",
  topK: "top_k",
  seed: "seed",
  presencePenalty: "presence_penalty",
  frequencyPenalty: "frequency_penalty",
} as const satisfies SamplingNames;

export const ollamaRequestMessageSchema = z.object({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.string(),
  images: z.array(z.string()).optional(),
  tool_calls: z.array(z.object({ function: z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) }) })).optional(),
  tool_name: z.string().optional(),
});

/** What Detour sends. Loose: fields only Ollama knows travel back from the provider-options bag (R-GW-6). */
export const ollamaChatRequestSchema = z.looseObject({
  model: z.string(),
  messages: z.array(ollamaRequestMessageSchema),
  tools: z
    .array(
      z.object({
        type: z.literal("function"),
        function: z.object({ name: z.string(), description: z.string().optional(), parameters: z.record(z.string(), z.unknown()) }),
      }),
    )
    .optional(),
  // Ollama streams unless told otherwise, so the flag is always sent.
  stream: z.boolean(),
  options: z
    .object({
      temperature: z.number().optional(),
      top_p: z.number().optional(),
      num_predict: z.number().int().optional(),
      stop: z.array(z.string()).optional(),
      top_k: z.number().optional(),
      seed: z.number().int().optional(),
      presence_penalty: z.number().optional(),
      frequency_penalty: z.number().optional(),
    })
    .optional(),
  format: z.union([z.literal("json"), z.record(z.string(), z.unknown())]).optional(),
  think: z.boolean().optional(),
});

export type OllamaChatRequest = z.infer<typeof ollamaChatRequestSchema>;
export type OllamaRequestMessage = z.infer<typeof ollamaRequestMessageSchema>;

export const ollamaChatResponseSchema = z.looseObject({
  model: z.string(),
  created_at: z.string().optional(),
  message: z
    .looseObject({
      role: z.string().optional(),
      content: z.string().optional(),
      thinking: z.string().optional(),
      tool_calls: z
        .array(
          z.looseObject({
            id: z.string().optional(),
            function: z.looseObject({ name: z.string(), arguments: z.unknown().optional() }),
          }),
        )
        .nullish(),
    })
    .optional(),
  done: z.boolean(),
  done_reason: z.string().optional(),
  prompt_eval_count: z.number().optional(),
  eval_count: z.number().optional(),
});

export type OllamaChatResponse = z.infer<typeof ollamaChatResponseSchema>;

/** `{"error":"model \"llama3\" not found, try pulling it first"}` — as a body and as a stream line. */
export const ollamaErrorBodySchema = z.looseObject({ error: z.string() });
