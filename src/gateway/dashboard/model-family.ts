/**
 * Which model a `provider/model` label is, whatever cloud serves it, so the dashboard can show one model's
 * rows together: `anthropic/claude-sonnet-4-6`, `vertex/claude-sonnet-4-6@20260101`,
 * `openrouter/anthropic/claude-sonnet-4-6` and `bedrock/us.anthropic.claude-sonnet-4-6-v1:0` are all
 * `claude-sonnet-4-6`; `azure-east/gpt-4o` and `azure-west/gpt-4o` are `gpt-4o`. Only the spelling the clouds
 * add is taken off (provider, vendor path, Vertex's `@version`, Bedrock's region and vendor prefix and `-v1:0`,
 * a release date); a label that is not `provider/model` is its own family.
 */
export function modelFamilyOf(label: string): string {
  const slash = label.indexOf("/");
  if (slash <= 0) return label;
  const model = label.slice(label.lastIndexOf("/") + 1);
  const family = model
    .replace(/@.*$/, "")
    .replace(/^(?:(?:us|eu|apac|us-gov|global)\.)?(?:anthropic|meta|amazon|mistral|cohere|ai21|deepseek|openai|qwen)\./, "")
    .replace(/-v\d+(?::\d+)?$/, "")
    .replace(/-\d{8}$/, "");
  return family === "" ? label : family;
}
