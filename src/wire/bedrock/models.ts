/**
 * Which Bedrock models speak Anthropic's Messages body through InvokeModel. Claude ids name their maker —
 * `anthropic.claude-sonnet-4-5-…`, cross-region inference profiles `us.anthropic.…` / `global.anthropic.…`,
 * and ARNs ending in either — so the id alone says which body a model takes; every other model is called
 * through the Converse API.
 */

/** The `anthropic_version` InvokeModel requires in a Claude body. */
export const BEDROCK_ANTHROPIC_VERSION = "bedrock-2023-05-31";

export function isBedrockAnthropicModel(modelId: string): boolean {
  return /(?:^|[.:/])anthropic\.claude/i.test(modelId);
}
