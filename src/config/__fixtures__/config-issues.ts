/** What config check says of a raw config, as `path: message` lines; none when it loads. */
import { ConfigError } from "../../core/errors.js";
import { parseConfig } from "../parse-config.js";

export function configIssues(raw: unknown): string[] {
  try {
    parseConfig(raw);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((issue) => `${issue.path}: ${issue.message}`);
    throw error;
  }
  return [];
}
