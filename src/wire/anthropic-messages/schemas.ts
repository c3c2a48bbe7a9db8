/**
 * Anthropic Messages API wire format. Request schemas describe what Detour sends; response and stream
 * schemas are loose because Anthropic adds block and event types over time (thinking, citations, …).
 */
import { z } from "zod";

export const ANTHROPIC_VERSION = "2023-06-01";

const cacheControl = z.object({ type: z.literal("ephemeral"), ttl: z.string().optional() });
const cacheable = { cache_control: cacheControl.optional() };

const textBlock = z.object({ type: z.literal("text"), text: z.string(), ...cacheable });
const imageBlock = z.object({
  type: z.literal("image"),
  source: z.discriminatedUnion("type", [
    z.object({ type: z.literal("base64"), media_type: z.string(), data: z.string() }),
    z.object({ type: z.literal("url"), url: z.string() }),
  ]),
  ...cacheable,
});
const toolUseBlock = z.object({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
  ...cacheable,
});
const toolResultBlock = z.object({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.discriminatedUnion("type", [textBlock, imageBlock]))]),
  is_error: z.boolean().optional(),
  ...cacheable,
});
const thinkingBlock = z.object({ type: z.literal("thinking"), thinking: z.string(), signature: z.string().optional() });
const redactedThinkingBlock = z.object({ type: z.literal("redacted_thinking"), data: z.string() });

export const anthropicRequestBlockSchema = z.discriminatedUnion("type", [
  textBlock,
  imageBlock,
  toolUseBlock,
  toolResultBlock,
  thinkingBlock,
  redactedThinkingBlock,
]);

const disableParallel = { disable_parallel_tool_use: z.boolean().optional() };

/** What Detour sends. Loose: fields only Anthropic knows travel back from the provider-options bag (R-GW-6). */
export const anthropicMessagesRequestSchema = z.looseObject({
  model: z.string(),
  max_tokens: z.number().int().positive(),
  system: z.union([z.string(), z.array(textBlock)]).optional(),
  messages: z.array(z.object({ role: z.enum(["user", "assistant"]), content: z.array(anthropicRequestBlockSchema) })),
  tools: z
    .array(
      z.object({
        name: z.string(),
        description: z.string().optional(),
        input_schema: z.record(z.string(), z.unknown()),
        ...cacheable,
      }),
    )
    .optional(),
  tool_choice: z
    .union([
      z.object({ type: z.enum(["auto", "any"]), ...disableParallel }),
      z.object({ type: z.literal("none") }),
      z.object({ type: z.literal("tool"), name: z.string(), ...disableParallel }),
    ])
    .optional(),
  temperature: z.number().optional(),
  top_p: z.number().optional(),
  top_k: z.number().int().optional(),
  stop_sequences: z.array(z.string()).optional(),
  stream: z.boolean().optional(),
  metadata: z.object({ user_id: z.string() }).optional(),
  thinking: z
    .union([z.object({ type: z.literal("enabled"), budget_tokens: z.number().int() }), z.object({ type: z.literal("disabled") })])
    .optional(),
});

export type AnthropicMessagesRequest = z.infer<typeof anthropicMessagesRequestSchema>;
export type AnthropicRequestBlock = z.infer<typeof anthropicRequestBlockSchema>;
export type AnthropicCacheControl = z.infer<typeof cacheControl>;

export const anthropicUsageSchema = z.looseObject({
  input_tokens: z.number().nullish(),
  output_tokens: z.number().nullish(),
  cache_creation_input_tokens: z.number().nullish(),
  cache_read_input_tokens: z.number().nullish(),
});

export type AnthropicUsage = z.infer<typeof anthropicUsageSchema>;

const responseBlock = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  thinking: z.string().optional(),
  signature: z.string().optional(),
  data: z.string().optional(),
  id: z.string().optional(),
  name: z.string().optional(),
  input: z.unknown().optional(),
});

export const anthropicMessageSchema = z.looseObject({
  id: z.string(),
  model: z.string(),
  content: z.array(responseBlock),
  stop_reason: z.string().nullish(),
  usage: anthropicUsageSchema,
});

export type AnthropicMessage = z.infer<typeof anthropicMessageSchema>;

export const anthropicErrorObjectSchema = z.looseObject({ type: z.string(), message: z.string().nullish() });

export const anthropicErrorBodySchema = z.looseObject({ type: z.literal("error"), error: anthropicErrorObjectSchema });

/** Stream events Detour reads; other event types (future additions) are ignored, not malformed. */
export const anthropicStreamEventSchema = z.discriminatedUnion("type", [
  z.looseObject({
    type: z.literal("message_start"),
    message: z.looseObject({ id: z.string(), model: z.string(), usage: anthropicUsageSchema.nullish() }),
  }),
  z.looseObject({ type: z.literal("content_block_start"), index: z.number().int().nonnegative(), content_block: responseBlock }),
  z.looseObject({
    type: z.literal("content_block_delta"),
    index: z.number().int().nonnegative(),
    delta: z.looseObject({
      type: z.string(),
      text: z.string().optional(),
      partial_json: z.string().optional(),
      thinking: z.string().optional(),
      signature: z.string().optional(),
    }),
  }),
  z.looseObject({ type: z.literal("content_block_stop"), index: z.number().int().nonnegative() }),
  z.looseObject({
    type: z.literal("message_delta"),
    delta: z.looseObject({ stop_reason: z.string().nullish() }),
    usage: anthropicUsageSchema.nullish(),
  }),
  z.looseObject({ type: z.literal("message_stop") }),
  z.looseObject({ type: z.literal("ping") }),
  z.looseObject({ type: z.literal("error"), error: anthropicErrorObjectSchema }),
]);

export type AnthropicStreamEvent = z.infer<typeof anthropicStreamEventSchema>;

export const ANTHROPIC_STREAM_EVENT_TYPES: ReadonlySet<string> = new Set([
  "message_start",
  "content_block_start",
  "content_block_delta",
  "content_block_stop",
  "message_delta",
  "message_stop",
  "ping",
  "error",
]);
