/** Canonical request → Gemini generateContent request (R-GW-2, R-GW-6). */
import type { CanonicalMessage, CanonicalRequest, CanonicalToolChoice } from "../../ports/canonical.js";
import {
  budgetForReasoning,
  EncodingNotes,
  noteUncarriedFields,
  ownProviderOptions,
  type CanonicalField,
  type WireEncoding,
} from "../shared/encoding.js";
import { guessImageMediaType, imageAsBase64 } from "../shared/images.js";
import { toolArgumentsObject, toolNamesById } from "../shared/tool-arguments.js";
import { SAMPLING_FIELDS_CARRIED, samplingToWire } from "../shared/sampling-names.js";
import { GOOGLE_SAMPLING_NAMES, type GoogleGenerateContentRequest, type GoogleRequestContent, type GoogleRequestPart } from "./schemas.js";

const CARRIED: ReadonlySet<CanonicalField> = new Set([...SAMPLING_FIELDS_CARRIED, "responseFormat", "reasoning"]);

/** The request body, or the field Gemini cannot carry (R-GW-6 `incompatible`). */
export function encodeGoogleRequest(request: CanonicalRequest): WireEncoding<GoogleGenerateContentRequest> {
  const notes = new EncodingNotes("google-generative-ai");
  const own = ownProviderOptions(request.providerOptions, notes);
  noteUncarriedFields(request, notes, CARRIED);
  const wire = toGoogleRequest(request);
  return notes.finish({ ...own, ...wire });
}

export function toGoogleRequest(request: CanonicalRequest): GoogleGenerateContentRequest {
  const toolNames = toolNamesById(request.messages);
  const wire: GoogleGenerateContentRequest = {
    contents: mergeConsecutiveRoles(request.messages.map((message) => toGoogleContent(message, toolNames))),
  };
  if (request.system) wire.systemInstruction = { parts: [{ text: request.system }] };
  if (request.tools && request.tools.length > 0) {
    wire.tools = [
      {
        functionDeclarations: request.tools.map((tool) => ({
          name: tool.name,
          ...(tool.description !== undefined ? { description: tool.description } : {}),
          parametersJsonSchema: tool.parameters,
        })),
      },
    ];
  }
  if (request.toolChoice !== undefined) wire.toolConfig = { functionCallingConfig: toGoogleToolChoice(request.toolChoice) };
  const generationConfig: NonNullable<GoogleGenerateContentRequest["generationConfig"]> = samplingToWire(request, GOOGLE_SAMPLING_NAMES);
  const format = request.responseFormat;
  if (format && format.type !== "text") {
    generationConfig.responseMimeType = "application/json";
    if (format.type === "json-schema") generationConfig.responseJsonSchema = format.schema;
  }
  if (request.reasoning) {
    generationConfig.thinkingConfig = { thinkingBudget: request.reasoning.enabled ? budgetForReasoning(request.reasoning) : 0 };
  }
  if (Object.keys(generationConfig).length > 0) wire.generationConfig = generationConfig;
  return wire;
}

function toGoogleToolChoice(choice: CanonicalToolChoice): NonNullable<GoogleGenerateContentRequest["toolConfig"]>["functionCallingConfig"] {
  if (choice === "auto") return { mode: "AUTO" };
  if (choice === "none") return { mode: "NONE" };
  if (choice === "required") return { mode: "ANY" };
  return { mode: "ANY", allowedFunctionNames: [choice.name] };
}

function toGoogleContent(message: CanonicalMessage, toolNames: ReadonlyMap<string, string>): GoogleRequestContent {
  const parts = message.content.flatMap((part): GoogleRequestPart[] => {
    switch (part.type) {
      case "text":
        return part.text === "" ? [] : [{ text: part.text }];
      case "image": {
        const inline = imageAsBase64(part);
        if (inline) return [{ inlineData: { mimeType: inline.mediaType, data: inline.data } }];
        return part.source.kind === "url"
          ? [{ fileData: { mimeType: guessImageMediaType(part.source.url), fileUri: part.source.url } }]
          : [];
      }
      case "tool-call":
        return [{ functionCall: { name: part.name, args: toolArgumentsObject(part.arguments) } }];
      case "thinking":
        // Another provider's signed reasoning; Gemini cannot take it back (named as dropped by the caller).
        return [];
      case "tool-result":
        return [
          {
            functionResponse: {
              name: toolNames.get(part.toolCallId) ?? part.toolCallId,
              // Gemini documents `output` for results and `error` for failures.
              response: part.isError ? { error: part.content } : { output: part.content },
            },
          },
        ];
    }
  });
  return { role: message.role === "assistant" ? "model" : "user", parts };
}

/** Function responses must sit in the user turn right after the model's calls: merge neighbours. */
function mergeConsecutiveRoles(contents: GoogleRequestContent[]): GoogleRequestContent[] {
  const merged: GoogleRequestContent[] = [];
  for (const content of contents) {
    if (content.parts.length === 0) continue;
    const previous = merged.at(-1);
    if (previous && previous.role === content.role) previous.parts = [...previous.parts, ...content.parts];
    else merged.push({ role: content.role, parts: [...content.parts] });
  }
  return merged;
}
