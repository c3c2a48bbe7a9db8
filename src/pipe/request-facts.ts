/**
 * The facts of one canonical request that the pre-call fit reads (SPEC R-FB-8): its estimated input tokens,
 * the output it asks for and the input modalities it carries. Computed once per request, before the chain.
 */
import { estimateInputTokens, type RequestFacts, type RequestModality } from "../core/fit.js";
import type { CanonicalRequest } from "../ports/canonical.js";

export function requestFacts(request: CanonicalRequest): RequestFacts {
  let textCharacters = request.system?.length ?? (request.systemParts ?? []).reduce((sum, part) => sum + part.text.length, 0);
  let images = 0;
  for (const message of request.messages) {
    for (const part of message.content) {
      if (part.type === "text") textCharacters += part.text.length;
      else if (part.type === "image") images += 1;
      else if (part.type === "tool-call") textCharacters += part.name.length + part.arguments.length;
      else if (part.type === "thinking") textCharacters += part.text.length;
      else {
        textCharacters += part.content.length;
        // Images inside a tool result are input images too (R-FB-8 modalities).
        for (const inner of part.parts ?? []) if (inner.type === "image") images += 1;
      }
    }
  }
  for (const tool of request.tools ?? []) {
    textCharacters += tool.name.length + (tool.description?.length ?? 0) + JSON.stringify(tool.parameters).length;
  }
  const modalities: RequestModality[] = images > 0 ? ["image"] : [];
  return {
    inputTokens: estimateInputTokens({
      textCharacters,
      images,
      toolDefinitions: request.tools?.length ?? 0,
      messages: request.messages.length,
    }),
    ...(request.maxTokens !== undefined ? { maxOutputTokens: request.maxTokens } : {}),
    modalities,
  };
}
