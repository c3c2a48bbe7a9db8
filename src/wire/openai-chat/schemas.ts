/**
 * OpenAI Chat Completions wire format (also OpenRouter and every OpenAI-compatible server).
 * Request schemas describe what Detour sends; response schemas are loose (unknown fields pass) because
 * providers add fields all the time and only the listed ones are read.
 */
import { z } from "zod";

const textPart = z.object({ type: z.literal("text"), text: z.string() });
const imagePart = z.object({
  type: z.literal("image_url"),
  image_url: z.object({ url: z.string(), detail: z.string().optional() }),
});

const requestToolCall = z.object({
  id: z.string(),
  type: z.literal("function"),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

export const openAiRequestMessageSchema = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), content: z.string() }),
  z.object({ role: z.literal("developer"), content: z.string() }),
  z.object({ role: z.literal("user"), content: z.union([z.string(), z.array(z.union([textPart, imagePart]))]) }),
  z.object({
    role: z.literal("assistant"),
    content: z.string().nullable(),
    tool_calls: z.array(requestToolCall).optional(),
  }),
  z.object({ role: z.literal("tool"), tool_call_id: z.string(), content: z.string() }),
]);

const responseFormat = z.union([
  z.object({ type: z.literal("text") }),
  z.object({ type: z.literal("json_object") }),
  z.object({
    type: z.literal("json_schema"),
    json_schema: z.object({
      name: z.string(),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullish(),
    }),
  }),
]);

/** What Detour sends. Loose: fields only OpenAI knows travel back from the provider-options bag (R-GW-6). */
export const openAiChatRequestSchema = z.looseObject({
  model: z.string(),
  messages: z.array(openAiRequestMessageSchema),
  tools: z
    .array(
      z.object({
        type: z.literal("function"),
        function: z.object({
          name: z.string(),
          description: z.string().optional(),
          parameters: z.record(z.string(), z.unknown()),
          strict: z.boolean().optional(),
        }),
      }),
    )
    .optional(),
  tool_choice: z
    .union([z.enum(["auto", "none", "required"]), z.object({ type: z.literal("function"), function: z.object({ name: z.string() }) })])
    .optional(),
  temperature: z.number().optional(),
  top_p: z.number().optional(),
  max_tokens: z.number().int().optional(),
  max_completion_tokens: z.number().int().optional(),
  stop: z.array(z.string()).optional(),
  stream: z.boolean().optional(),
  stream_options: z.object({ include_usage: z.boolean() }).optional(),
  parallel_tool_calls: z.boolean().optional(),
  seed: z.number().int().optional(),
  frequency_penalty: z.number().optional(),
  presence_penalty: z.number().optional(),
  logit_bias: z.record(z.string(), z.number()).optional(),
  logprobs: z.boolean().optional(),
  top_logprobs: z.number().int().optional(),
  n: z.number().int().optional(),
  response_format: responseFormat.optional(),
  reasoning_effort: z.string().optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  user: z.string().optional(),
});

export type OpenAiChatRequest = z.infer<typeof openAiChatRequestSchema>;
export type OpenAiRequestMessage = z.infer<typeof openAiRequestMessageSchema>;

export const openAiUsageSchema = z.looseObject({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number().optional(),
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: z.number().nullish() }).nullish(),
});

export type OpenAiUsage = z.infer<typeof openAiUsageSchema>;

export const openAiChatCompletionSchema = z.looseObject({
  id: z.string(),
  model: z.string(),
  choices: z.array(
    z.looseObject({
      index: z.number().optional(),
      message: z.looseObject({
        role: z.string().optional(),
        content: z.string().nullish(),
        refusal: z.string().nullish(),
        tool_calls: z
          .array(
            z.looseObject({
              id: z.string(),
              type: z.string().optional(),
              function: z.looseObject({ name: z.string(), arguments: z.string() }),
            }),
          )
          .nullish(),
      }),
      finish_reason: z.string().nullish(),
      logprobs: z.unknown().optional(),
    }),
  ),
  usage: openAiUsageSchema.nullish(),
});

export type OpenAiChatCompletion = z.infer<typeof openAiChatCompletionSchema>;

export const openAiChatChunkSchema = z.looseObject({
  id: z.string().optional(),
  model: z.string().optional(),
  choices: z.array(
    z.looseObject({
      index: z.number().optional(),
      delta: z
        .looseObject({
          role: z.string().nullish(),
          content: z.string().nullish(),
          refusal: z.string().nullish(),
          tool_calls: z
            .array(
              z.looseObject({
                index: z.number().int().nonnegative(),
                id: z.string().nullish(),
                type: z.string().nullish(),
                function: z.looseObject({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
              }),
            )
            .nullish(),
        })
        .nullish(),
      finish_reason: z.string().nullish(),
      logprobs: z.unknown().optional(),
    }),
  ),
  usage: openAiUsageSchema.nullish(),
});

export type OpenAiChatChunk = z.infer<typeof openAiChatChunkSchema>;

/** `{ error: { message, type, code } }`; OpenRouter puts the HTTP status in `code` and details in `metadata`. */
export const openAiErrorObjectSchema = z.looseObject({
  message: z.string().nullish(),
  type: z.string().nullish(),
  code: z.union([z.string(), z.number()]).nullish(),
  param: z.string().nullish(),
  metadata: z.looseObject({ raw: z.unknown().optional(), provider_name: z.string().nullish() }).nullish(),
});

export const openAiErrorBodySchema = z.looseObject({
  error: z.union([openAiErrorObjectSchema, z.string()]),
});
