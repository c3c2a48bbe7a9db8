/** Errors in Ollama's shape, for answers written in this format: `{"error":"…"}`, as a body and as a stream line. */
import type { WireErrorInput } from "../wire-format.js";

export function renderOllamaError(input: WireErrorInput): { error: string } {
  return { error: input.message };
}
