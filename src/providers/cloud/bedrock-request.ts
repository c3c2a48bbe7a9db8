/**
 * Bedrock runtime addresses and the Anthropic Messages body as Bedrock's InvokeModel wants it: the model
 * moves into the URL, streaming is chosen by the operation, and everything else is carried unchanged so
 * `cache_control`, thinking, tools and unknown future fields reach Claude as the client sent them.
 */

import { BEDROCK_ANTHROPIC_VERSION } from "../../wire/bedrock/models.js";

// One value, the wire format's: this module's callers and tests name it from here.
export { BEDROCK_ANTHROPIC_VERSION };

export type BedrockOperation = "invoke" | "invoke-with-response-stream" | "converse" | "converse-stream";

export function bedrockRuntimeBaseUrl(region: string): string {
  return `https://bedrock-runtime.${region}.amazonaws.com`;
}

/**
 * `…/model/{modelId}/{operation}`. The model id is one path segment: its `:` (version suffix) and the `/`
 * of an inference-profile or provisioned-model ARN are percent-encoded, as the AWS SDKs send them.
 */
export function bedrockUrl(input: { region: string; modelId: string; operation: BedrockOperation; baseUrl?: string }): string {
  const base = (input.baseUrl ?? bedrockRuntimeBaseUrl(input.region)).replace(/\/+$/, "");
  return `${base}/model/${encodeURIComponent(input.modelId)}/${input.operation}`;
}

export interface BedrockAnthropicRequest {
  modelId: string;
  operation: "invoke" | "invoke-with-response-stream";
  body: Record<string, unknown>;
}

/**
 * Turns an Anthropic `/v1/messages` body into a Bedrock InvokeModel request. `betas` (the client's
 * `anthropic-beta` header values) travel in the body as `anthropic_beta`, the only place Bedrock reads them.
 */
export function toBedrockAnthropicRequest(
  messagesBody: Readonly<Record<string, unknown>>,
  options: { modelId?: string; betas?: readonly string[] } = {},
): BedrockAnthropicRequest {
  const { model, stream, ...rest } = messagesBody;
  const modelId = options.modelId ?? (typeof model === "string" ? model : undefined);
  if (!modelId) throw new TypeError("an Anthropic request for Bedrock needs a model id");
  const body: Record<string, unknown> = { ...rest };
  if (body.anthropic_version === undefined) body.anthropic_version = BEDROCK_ANTHROPIC_VERSION;
  const betas =
    options.betas
      ?.flatMap((beta) => beta.split(","))
      .map((beta) => beta.trim())
      .filter(Boolean) ?? [];
  if (betas.length > 0 && body.anthropic_beta === undefined) body.anthropic_beta = betas;
  return { modelId, operation: stream === true ? "invoke-with-response-stream" : "invoke", body };
}
