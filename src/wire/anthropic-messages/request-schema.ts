/**
 * zod 4 schema of an Anthropic messages request (`POST /v1/messages`) as clients send it. Unknown fields
 * are accepted; every field Detour translates is checked so a bad body is a 400 naming the path (R-GW-4).
 */
import { z } from "zod";

const cacheControl = z.looseObject({ type: z.literal("ephemeral"), ttl: z.string().optional() });
const cacheable = { cache_control: cacheControl.nullish() };

const textBlock = z.looseObject({ type: z.literal("text"), text: z.string(), ...cacheable });
const imageBlock = z.looseObject({
  type: z.literal("image"),
  source: z.discriminatedUnion(
    "type",
    [
      z.looseObject({ type: z.literal("base64"), media_type: z.string().min(1), data: z.string().min(1) }),
      z.looseObject({ type: z.literal("url"), url: z.string().min(1) }),
    ],
    { error: 'image source type must be "base64" or "url"' },
  ),
  ...cacheable,
});
const toolResultBlock = z.looseObject({
  type: z.literal("tool_result"),
  tool_use_id: z.string().min(1),
  content: z
    .union([
      z.string(),
      z.array(
        z.discriminatedUnion("type", [textBlock, imageBlock], {
          error: 'tool_result content blocks must be "text" or "image"',
        }),
      ),
    ])
    .optional(),
  is_error: z.boolean().optional(),
  ...cacheable,
});
const toolUseBlock = z.looseObject({
  type: z.literal("tool_use"),
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
  ...cacheable,
});
// Thinking blocks of an earlier turn travel back with their signature (R-GW-6).
const thinkingBlock = z.looseObject({ type: z.literal("thinking"), thinking: z.string(), signature: z.string().optional() });
const redactedThinkingBlock = z.looseObject({ type: z.literal("redacted_thinking"), data: z.string() });

const userBlock = z.discriminatedUnion("type", [textBlock, imageBlock, toolResultBlock], {
  error: 'user content block type must be "text", "image" or "tool_result"',
});
const assistantBlock = z.discriminatedUnion("type", [textBlock, toolUseBlock, thinkingBlock, redactedThinkingBlock], {
  error: 'assistant content block type must be "text", "tool_use", "thinking" or "redacted_thinking"',
});

export const anthropicMessageSchema = z.discriminatedUnion(
  "role",
  [
    z.looseObject({ role: z.literal("user"), content: z.union([z.string(), z.array(userBlock)]) }),
    z.looseObject({ role: z.literal("assistant"), content: z.union([z.string(), z.array(assistantBlock)]) }),
  ],
  { error: 'role must be "user" or "assistant" (the system prompt goes in "system")' },
);

export const anthropicToolSchema = z.looseObject({
  type: z.literal("custom", "only custom tools ({ name, input_schema }) are supported").optional(),
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, "tool names are 1-64 letters, digits, _ or -"),
  description: z.string().optional(),
  input_schema: z.record(z.string(), z.unknown()),
  ...cacheable,
});

export const anthropicToolChoiceSchema = z.discriminatedUnion(
  "type",
  [
    z.looseObject({ type: z.literal("auto"), disable_parallel_tool_use: z.boolean().optional() }),
    z.looseObject({ type: z.literal("any"), disable_parallel_tool_use: z.boolean().optional() }),
    z.looseObject({ type: z.literal("tool"), name: z.string().min(1), disable_parallel_tool_use: z.boolean().optional() }),
    z.looseObject({ type: z.literal("none") }),
  ],
  { error: 'tool_choice type must be "auto", "any", "tool" or "none"' },
);

export const anthropicMessagesRequestSchema = z.looseObject({
  model: z.string().min(1, "model is required"),
  max_tokens: z.number().int().positive(),
  messages: z.array(anthropicMessageSchema).min(1, "messages must contain at least one message"),
  system: z.union([z.string(), z.array(textBlock)]).optional(),
  tools: z.array(anthropicToolSchema).optional(),
  tool_choice: anthropicToolChoiceSchema.optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.number().int().positive().optional(),
  stop_sequences: z.array(z.string()).optional(),
  stream: z.boolean().optional(),
  metadata: z.looseObject({ user_id: z.string().nullish() }).optional(),
  thinking: z
    .discriminatedUnion(
      "type",
      [
        z.looseObject({ type: z.literal("enabled"), budget_tokens: z.number().int().min(1024, "budget_tokens must be at least 1024") }),
        z.looseObject({ type: z.literal("disabled") }),
      ],
      { error: 'thinking type must be "enabled" or "disabled"' },
    )
    .optional(),
});

/**
 * Request fields the decoder maps onto the canonical model: exactly the fields the schema describes, since the
 * decoder reads every one of them. Everything else rides in the provider-options bag.
 */
export const ANTHROPIC_MAPPED_FIELDS: ReadonlySet<string> = new Set(Object.keys(anthropicMessagesRequestSchema.shape));

export type AnthropicMessagesRequest = z.output<typeof anthropicMessagesRequestSchema>;
export type AnthropicMessage = z.output<typeof anthropicMessageSchema>;
