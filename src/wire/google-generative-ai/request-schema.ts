/**
 * A `generateContent` request as a client sends it (the server side of the format, which the mock provider
 * answers). Loose: clients send fields of newer releases, and only what maps to the canonical model is read.
 */
import { z } from "zod";

const functionCall = z.looseObject({ name: z.string(), args: z.record(z.string(), z.unknown()).optional(), id: z.string().optional() });
const functionResponse = z.looseObject({
  name: z.string(),
  response: z.record(z.string(), z.unknown()).optional(),
  id: z.string().optional(),
});

export const googleClientPartSchema = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  inlineData: z.looseObject({ mimeType: z.string(), data: z.string() }).optional(),
  fileData: z.looseObject({ mimeType: z.string().optional(), fileUri: z.string() }).optional(),
  functionCall: functionCall.optional(),
  functionResponse: functionResponse.optional(),
});

const content = z.looseObject({ role: z.string().optional(), parts: z.array(googleClientPartSchema) });

export const googleClientRequestSchema = z.looseObject({
  contents: z.array(content),
  systemInstruction: z.looseObject({ parts: z.array(googleClientPartSchema) }).optional(),
  tools: z
    .array(
      z.looseObject({
        functionDeclarations: z
          .array(
            z.looseObject({
              name: z.string(),
              description: z.string().optional(),
              parameters: z.record(z.string(), z.unknown()).optional(),
              parametersJsonSchema: z.record(z.string(), z.unknown()).optional(),
            }),
          )
          .optional(),
      }),
    )
    .optional(),
  toolConfig: z
    .looseObject({
      functionCallingConfig: z
        .looseObject({ mode: z.string().optional(), allowedFunctionNames: z.array(z.string()).optional() })
        .optional(),
    })
    .optional(),
  generationConfig: z
    .looseObject({
      temperature: z.number().optional(),
      topP: z.number().optional(),
      topK: z.number().optional(),
      maxOutputTokens: z.number().int().optional(),
      stopSequences: z.array(z.string()).optional(),
      seed: z.number().int().optional(),
      presencePenalty: z.number().optional(),
      frequencyPenalty: z.number().optional(),
      candidateCount: z.number().int().optional(),
      responseMimeType: z.string().optional(),
      responseSchema: z.record(z.string(), z.unknown()).optional(),
      responseJsonSchema: z.record(z.string(), z.unknown()).optional(),
      thinkingConfig: z.looseObject({ thinkingBudget: z.number().int().optional(), includeThoughts: z.boolean().optional() }).optional(),
    })
    .optional(),
  cachedContent: z.string().optional(),
});

export type GoogleClientRequest = z.infer<typeof googleClientRequestSchema>;
export type GoogleClientPart = z.infer<typeof googleClientPartSchema>;
