/** Tool-call arguments: canonical keeps the model's JSON text; some wire formats want an object. */
import type { CanonicalMessage } from "../../ports/canonical.js";

/**
 * Parses arguments text into the object Anthropic, Gemini and Ollama require. Text that is not a JSON
 * object is kept under `raw_arguments` rather than dropped, so the model still sees what it sent.
 */
export function toolArgumentsObject(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Falls through: invalid JSON is preserved as text below.
  }
  return { raw_arguments: text };
}

/** The JSON text of an arguments object as it came from a wire format that sends objects. */
export function toolArgumentsText(value: unknown): string {
  return JSON.stringify(value ?? {});
}

/**
 * Gemini and Ollama identify a tool result by the tool's name, not by call id; the name is found on
 * the earlier assistant tool call with that id.
 */
export function toolNamesById(messages: readonly CanonicalMessage[]): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    for (const part of message.content) if (part.type === "tool-call") names.set(part.id, part.name);
  }
  return names;
}
