/**
 * An `/api/chat` request as a client sends it (the server side of the format, which the mock provider
 * answers). Loose: only what maps to the canonical model is read.
 */
import { z } from "zod";

export const ollamaClientMessageSchema = z.looseObject({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.string().optional(),
  thinking: z.string().optional(),
  images: z.array(z.string()).nullish(),
  tool_calls: z
    .array(z.looseObject({ id: z.string().optional(), function: z.looseObject({ name: z.string(), arguments: z.unknown().optional() }) }))
    .nullish(),
  tool_name: z.string().optional(),
  tool_call_id: z.string().optional(),
});

export const ollamaClientRequestSchema = z.looseObject({
  model: z.string().min(1, "model is required"),
  messages: z.array(ollamaClientMessageSchema).optional(),
  tools: z
    .array(
      z.looseObject({
        function: z.looseObject({
          name: z.string(),
          description: z.string().optional(),
          parameters: z.record(z.string(), z.unknown()).optional(),
        }),
      }),
    )
    .nullish(),
  // Ollama streams unless told otherwise.
  stream: z.boolean().optional(),
  format: z.union([z.literal("json"), z.literal(""), z.record(z.string(), z.unknown())]).optional(),
  think: z.union([z.boolean(), z.enum(["low", "medium", "high"])]).optional(),
  options: z
    .looseObject({
      temperature: z.number().optional(),
      top_p: z.number().optional(),
      top_k: z.number().optional(),
      num_predict: z.number().int().optional(),
      stop: z.array(z.string()).optional(),
      seed: z.number().int().optional(),
      presence_penalty: z.number().optional(),
      frequency_penalty: z.number().optional(),
    })
    .optional(),
});

export type OllamaClientRequest = z.infer<typeof ollamaClientRequestSchema>;
export type OllamaClientMessage = z.infer<typeof ollamaClientMessageSchema>;
