/**
 * Renders a path inside the config the way a person writes it: `agents.defaults.model.fallbacks[2]`,
 * `models.providers.openai-codex.baseUrl`, `agents.defaults.models["anthropic/claude-sonnet-4-6"].alias`.
 */
export type ConfigPathSegment = string | number;

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

export function formatConfigPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") {
      text += `[${segment}]`;
    } else {
      const key = String(segment);
      if (PLAIN_KEY.test(key)) text += text === "" ? key : `.${key}`;
      else text += `[${JSON.stringify(key)}]`;
    }
  }
  return text;
}
