/**
 * The JSON Schema of detour.json5, generated from the zod schema (`detour config schema`, R-CF-2).
 * It describes what a file may contain (zod's input side): keys with defaults are optional and show
 * their default. Unknown keys are allowed, as in Detour itself, where they only produce warnings.
 */
import { z } from "zod";
import { DetourConfigSchema } from "./schema.js";

export function toJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(DetourConfigSchema, { io: "input", target: "draft-2020-12" });
  return {
    ...schema,
    title: "Detour configuration (detour.json5)",
    description: "See docs/configuration.md for the meaning of every key.",
  };
}
