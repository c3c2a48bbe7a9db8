/** Ollama errors → classifier input. Ollama has no codes or types: the text is all there is. */
import type { WireErrorDetails } from "../shared/wire-error.js";
import { parseJsonText, validateWire } from "../shared/wire-json.js";
import { ollamaErrorBodySchema } from "./schemas.js";

export function describeOllamaError(bodyText: string): WireErrorDetails {
  const json = parseJsonText(bodyText);
  if (!json.ok) return { message: bodyText.trim() };
  const body = validateWire(json.value, ollamaErrorBodySchema);
  return { message: body.ok ? body.value.error : bodyText.trim() };
}
