/**
 * The response format as both OpenAI APIs write it: `text`, `json_object`, or `json_schema` with a name,
 * the schema, and an optional description and strictness. Chat Completions nests those under `json_schema`,
 * Responses puts them beside `type`; each encoder says only where they go.
 */
import type { CanonicalResponseFormat } from "../../ports/canonical.js";

export interface OpenAiJsonSchemaSpec {
  name: string;
  schema: Record<string, unknown>;
  description?: string;
  strict?: boolean;
}

export function openAiResponseFormat<SchemaFormat>(
  format: CanonicalResponseFormat,
  schemaFormat: (spec: OpenAiJsonSchemaSpec) => SchemaFormat,
): { type: "text" } | { type: "json_object" } | SchemaFormat {
  switch (format.type) {
    case "text":
      return { type: "text" };
    case "json":
      return { type: "json_object" };
    case "json-schema":
      return schemaFormat({
        name: format.name,
        schema: format.schema,
        ...(format.description !== undefined ? { description: format.description } : {}),
        ...(format.strict !== undefined ? { strict: format.strict } : {}),
      });
  }
}
