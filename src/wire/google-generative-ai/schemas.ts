/**
 * Gemini API (generateContent / streamGenerateContent?alt=sse) wire format. Request schemas describe
 * what Detour sends; response schemas are loose because Google adds fields to every release.
 */
import { z } from "zod";
import type { SamplingNames } from "../shared/sampling-names.js";

/** Gemini's names for the sampling settings, in `generationConfig`. */
export const GOOGLE_SAMPLING_NAMES = {
  temperature: "temperature",
  topP: "topP",
  maxTokens: "maxOutputTokens",
  stop: "stopSequences",
  topK: "topK",
  seed: "seed",
  presencePenalty: "presencePenalty",
  frequencyPenalty: "frequencyPenalty",
} as const satisfies SamplingNames;

const requestPart = z.union([
  z.object({ text: z.string() }),
  z.object({ inlineData: z.object({ mimeType: z.string(), data: z.string() }) }),
  z.object({ fileData: z.object({ mimeType: z.string(), fileUri: z.string() }) }),
  z.object({ functionCall: z.object({ name: z.string(), args: z.record(z.string(), z.unknown()) }) }),
  z.object({ functionResponse: z.object({ name: z.string(), response: z.record(z.string(), z.unknown()) }) }),
]);

export const googleRequestContentSchema = z.object({ role: z.enum(["user", "model"]), parts: z.array(requestPart) });

/** What Detour sends. Loose: fields only Gemini knows travel back from the provider-options bag (R-GW-6). */
export const googleGenerateContentRequestSchema = z.looseObject({
  contents: z.array(googleRequestContentSchema),
  systemInstruction: z.object({ parts: z.array(z.object({ text: z.string() })) }).optional(),
  tools: z
    .array(
      z.object({
        functionDeclarations: z.array(
          z.object({
            name: z.string(),
            description: z.string().optional(),
            // Full JSON Schema; the older `parameters` field accepts only an OpenAPI subset.
            parametersJsonSchema: z.record(z.string(), z.unknown()),
          }),
        ),
      }),
    )
    .optional(),
  toolConfig: z
    .object({
      functionCallingConfig: z.object({
        mode: z.enum(["AUTO", "ANY", "NONE"]),
        allowedFunctionNames: z.array(z.string()).optional(),
      }),
    })
    .optional(),
  generationConfig: z
    .object({
      temperature: z.number().optional(),
      topP: z.number().optional(),
      maxOutputTokens: z.number().int().optional(),
      stopSequences: z.array(z.string()).optional(),
      topK: z.number().optional(),
      seed: z.number().int().optional(),
      presencePenalty: z.number().optional(),
      frequencyPenalty: z.number().optional(),
      responseMimeType: z.string().optional(),
      responseJsonSchema: z.record(z.string(), z.unknown()).optional(),
      thinkingConfig: z.object({ thinkingBudget: z.number().int().optional(), includeThoughts: z.boolean().optional() }).optional(),
    })
    .optional(),
});

export type GoogleGenerateContentRequest = z.infer<typeof googleGenerateContentRequestSchema>;
export type GoogleRequestContent = z.infer<typeof googleRequestContentSchema>;
export type GoogleRequestPart = z.infer<typeof requestPart>;

export const googleUsageSchema = z.looseObject({
  promptTokenCount: z.number().optional(),
  candidatesTokenCount: z.number().optional(),
  thoughtsTokenCount: z.number().optional(),
  cachedContentTokenCount: z.number().optional(),
  totalTokenCount: z.number().optional(),
});

export const googleGenerateContentResponseSchema = z.looseObject({
  candidates: z
    .array(
      z.looseObject({
        content: z
          .looseObject({
            role: z.string().optional(),
            parts: z
              .array(
                z.looseObject({
                  text: z.string().optional(),
                  thought: z.boolean().optional(),
                  functionCall: z.looseObject({ name: z.string(), args: z.unknown().optional(), id: z.string().optional() }).optional(),
                }),
              )
              .optional(),
          })
          .optional(),
        finishReason: z.string().optional(),
        index: z.number().optional(),
      }),
    )
    .optional(),
  promptFeedback: z.looseObject({ blockReason: z.string().optional() }).optional(),
  usageMetadata: googleUsageSchema.optional(),
  modelVersion: z.string().optional(),
  responseId: z.string().optional(),
});

export type GoogleGenerateContentResponse = z.infer<typeof googleGenerateContentResponseSchema>;

/** google.rpc.Status: {"error":{"code":429,"message":"…","status":"RESOURCE_EXHAUSTED","details":[…]}} */
export const googleErrorObjectSchema = z.looseObject({
  code: z.number().optional(),
  message: z.string().optional(),
  status: z.string().optional(),
  details: z
    .array(z.looseObject({ "@type": z.string().optional(), retryDelay: z.string().optional(), reason: z.string().optional() }))
    .optional(),
});

export const googleErrorBodySchema = z.looseObject({ error: googleErrorObjectSchema });
