/** JSON + zod validation of wire payloads, reporting why a payload was rejected instead of throwing. */
import type { z } from "zod";

export type WireParseResult<T> = { ok: true; value: T } | { ok: false; problem: string };

export function parseJsonText(text: string): WireParseResult<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: `invalid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

export function parseWireJson<Schema extends z.ZodType>(text: string, schema: Schema): WireParseResult<z.output<Schema>> {
  const json = parseJsonText(text);
  if (!json.ok) return json;
  return validateWire(json.value, schema);
}

export function validateWire<Schema extends z.ZodType>(value: unknown, schema: Schema): WireParseResult<z.output<Schema>> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  const path = issue && issue.path.length > 0 ? issue.path.join(".") : "(root)";
  return { ok: false, problem: `schema mismatch at ${path}: ${issue?.message ?? "invalid"}` };
}
