/**
 * The OpenAI Responses wire format (`POST /v1/responses`; also the Codex backend). Schemas are loose:
 * unknown fields pass (the API grows often) and only the fields Detour reads are checked. The shapes follow
 * the official `openai` SDK's `resources/responses` types.
 */
import { z } from "zod";

/** A request as clients send it: only what routing needs is checked here; items are read by the decoder. */
export const responsesRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.looseObject({ type: z.string().optional() }))]).optional(),
  instructions: z.string().nullish(),
  stream: z.boolean().nullish(),
  tools: z.array(z.looseObject({ type: z.string() })).nullish(),
  max_output_tokens: z.number().int().positive().nullish(),
  temperature: z.number().nullish(),
  top_p: z.number().nullish(),
  previous_response_id: z.string().nullish(),
});

export type ResponsesRequest = z.output<typeof responsesRequestSchema>;

export const responsesUsageSchema = z.looseObject({
  input_tokens: z.number().optional(),
  output_tokens: z.number().optional(),
  input_tokens_details: z.looseObject({ cached_tokens: z.number().nullish(), cache_write_tokens: z.number().nullish() }).nullish(),
  output_tokens_details: z.looseObject({ reasoning_tokens: z.number().nullish() }).nullish(),
});

export type ResponsesUsage = z.output<typeof responsesUsageSchema>;

const outputText = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  refusal: z.string().optional(),
  logprobs: z.unknown().optional(),
});

export const responsesOutputItemSchema = z.looseObject({
  type: z.string(),
  id: z.string().optional(),
  role: z.string().optional(),
  content: z.array(outputText).optional(),
  call_id: z.string().optional(),
  name: z.string().optional(),
  arguments: z.string().optional(),
  summary: z.array(z.looseObject({ text: z.string().optional() })).optional(),
  encrypted_content: z.string().nullish(),
});

export type ResponsesOutputItem = z.output<typeof responsesOutputItemSchema>;

export const responsesErrorSchema = z.looseObject({
  code: z.string().nullish(),
  message: z.string().optional(),
  type: z.string().optional(),
});

/** A `response` object: the non-streamed answer, and the payload of `response.created` / `.completed` / `.failed`. */
export const responsesResponseSchema = z.looseObject({
  id: z.string(),
  model: z.string().optional(),
  status: z.string().optional(),
  output: z.array(responsesOutputItemSchema).optional(),
  usage: responsesUsageSchema.nullish(),
  incomplete_details: z.looseObject({ reason: z.string().optional() }).nullish(),
  error: responsesErrorSchema.nullish(),
});

export type ResponsesResponse = z.output<typeof responsesResponseSchema>;

/** One streamed event; the `type` says which of the optional members it carries. */
export const responsesStreamEventSchema = z.looseObject({
  type: z.string(),
  response: responsesResponseSchema.optional(),
  item: responsesOutputItemSchema.optional(),
  item_id: z.string().optional(),
  output_index: z.number().optional(),
  delta: z.string().optional(),
  arguments: z.string().optional(),
  logprobs: z.unknown().optional(),
  code: z.string().nullish(),
  message: z.string().optional(),
});

export type ResponsesStreamEvent = z.output<typeof responsesStreamEventSchema>;
