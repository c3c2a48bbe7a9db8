/**
 * OpenAI embeddings (`POST /v1/embeddings`): the request the gateway accepts and the answer every embeddings
 * provider's reply is rendered as. Loose objects: fields this module does not know pass through untouched.
 */
import { z } from "zod";

const tokenIds = z.array(z.number().int().nonnegative());

export const openAiEmbeddingsRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.string()).min(1), tokenIds.min(1), z.array(tokenIds.min(1)).min(1)]),
  encoding_format: z.enum(["float", "base64"]).optional(),
  dimensions: z.number().int().positive().optional(),
  user: z.string().optional(),
});

export type OpenAiEmbeddingsRequest = z.infer<typeof openAiEmbeddingsRequestSchema>;

export interface OpenAiEmbeddingsResponse {
  object: "list";
  data: { object: "embedding"; index: number; embedding: number[] | string }[];
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

/** The texts of a request whose input is text; undefined for token ids (only OpenAI-compatible servers take those). */
export function textInputs(input: OpenAiEmbeddingsRequest["input"]): string[] | undefined {
  if (typeof input === "string") return [input];
  return input.every((item) => typeof item === "string") ? (input as string[]) : undefined;
}
