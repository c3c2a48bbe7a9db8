/**
 * zod 4 schema of an OpenAI chat completions request as clients send it. Unknown fields are accepted
 * (SDKs add new ones often) but every field Detour translates is checked, so a bad body is a 400 naming
 * the path (R-GW-4) and never reaches a provider.
 */
import { z } from "zod";

const textPart = z.looseObject({ type: z.literal("text"), text: z.string() });
const imagePart = z.looseObject({
  type: z.literal("image_url"),
  image_url: z.looseObject({ url: z.string().min(1), detail: z.enum(["auto", "low", "high"]).optional() }),
});
const refusalPart = z.looseObject({ type: z.literal("refusal"), refusal: z.string() });

const userContentPart = z.discriminatedUnion("type", [textPart, imagePart], {
  error: 'content part type must be "text" or "image_url"',
});
const assistantContentPart = z.discriminatedUnion("type", [textPart, refusalPart], {
  error: 'assistant content part type must be "text" or "refusal"',
});

const textContent = z.union([z.string(), z.array(textPart)]);

const toolCall = z.looseObject({
  id: z.string().min(1),
  type: z.literal("function"),
  function: z.looseObject({ name: z.string().min(1), arguments: z.string() }),
});

const systemMessage = z.looseObject({ role: z.literal("system"), content: textContent, name: z.string().optional() });
const developerMessage = z.looseObject({ role: z.literal("developer"), content: textContent, name: z.string().optional() });
const userMessage = z.looseObject({
  role: z.literal("user"),
  content: z.union([z.string(), z.array(userContentPart)]),
  name: z.string().optional(),
});
const assistantMessage = z
  .looseObject({
    role: z.literal("assistant"),
    content: z.union([z.string(), z.array(assistantContentPart)]).nullish(),
    refusal: z.string().nullish(),
    tool_calls: z.array(toolCall).optional(),
    name: z.string().optional(),
  })
  .refine(
    (message) =>
      (message.content !== null && message.content !== undefined) ||
      (message.tool_calls !== undefined && message.tool_calls.length > 0) ||
      typeof message.refusal === "string",
    { message: "an assistant message needs content or tool_calls", path: ["content"] },
  );
const toolMessage = z.looseObject({
  role: z.literal("tool"),
  tool_call_id: z.string().min(1),
  content: textContent,
});

export const openAIMessageSchema = z.discriminatedUnion(
  "role",
  [systemMessage, developerMessage, userMessage, assistantMessage, toolMessage],
  { error: 'role must be one of "system", "developer", "user", "assistant", "tool"' },
);

export const openAIToolSchema = z.looseObject({
  type: z.literal("function"),
  function: z.looseObject({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, "tool names are 1-64 letters, digits, _ or -"),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
});

export const openAIToolChoiceSchema = z.union([
  z.enum(["none", "auto", "required"]),
  z.looseObject({ type: z.literal("function"), function: z.looseObject({ name: z.string().min(1) }) }),
]);

const responseFormatSchema = z.discriminatedUnion(
  "type",
  [
    z.looseObject({ type: z.literal("text") }),
    z.looseObject({ type: z.literal("json_object") }),
    z.looseObject({
      type: z.literal("json_schema"),
      json_schema: z.looseObject({
        name: z.string().min(1),
        description: z.string().optional(),
        schema: z.record(z.string(), z.unknown()).optional(),
        strict: z.boolean().nullish(),
      }),
    }),
  ],
  { error: 'response_format type must be "text", "json_object" or "json_schema"' },
);

export const openAIChatRequestSchema = z.looseObject({
  model: z.string().min(1, "model is required"),
  messages: z.array(openAIMessageSchema).min(1, "messages must contain at least one message"),
  tools: z.array(openAIToolSchema).optional(),
  tool_choice: openAIToolChoiceSchema.optional(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  max_tokens: z.number().int().positive().nullish(),
  max_completion_tokens: z.number().int().positive().nullish(),
  stop: z.union([z.string(), z.array(z.string())]).nullish(),
  n: z.literal(1, "only n=1 is supported").nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  user: z.string().optional(),
  parallel_tool_calls: z.boolean().nullish(),
  seed: z.number().int().nullish(),
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  logit_bias: z.record(z.string(), z.number()).nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: z.number().int().min(0).max(20).nullish(),
  response_format: responseFormatSchema.nullish(),
  reasoning_effort: z.enum(["none", "minimal", "low", "medium", "high"]).nullish(),
});

/**
 * Request fields the decoder maps onto the canonical model: exactly the fields the schema describes, since the
 * decoder reads every one of them. Everything else rides in the provider-options bag.
 */
export const OPENAI_MAPPED_FIELDS: ReadonlySet<string> = new Set(Object.keys(openAIChatRequestSchema.shape));

export type OpenAIChatRequest = z.output<typeof openAIChatRequestSchema>;
export type OpenAIMessage = z.output<typeof openAIMessageSchema>;
