/**
 * Claude on Bedrock through InvokeModel: the Anthropic Messages body without `model` (it is in the URL) and
 * `stream` (it is the operation), with `anthropic_version: "bedrock-2023-05-31"`; everything else — cache_control,
 * thinking, tools — as Anthropic's own encoder writes it. A streamed answer is Anthropic's event stream, each
 * event base64-encoded in a `chunk` message of the AWS event-stream.
 */
import type { CanonicalRequest } from "../../ports/canonical.js";
import { encodeAnthropicRequest } from "../anthropic-messages/encode-request.js";
import { awsEventMessage } from "../shared/aws-event-stream.js";
import type { WireEncoding } from "../shared/encoding.js";
import { BEDROCK_ANTHROPIC_VERSION } from "./models.js";

export function encodeBedrockAnthropicRequest(request: CanonicalRequest, model: string): WireEncoding<Record<string, unknown>> {
  const encoded = encodeAnthropicRequest(request, { model, stream: false });
  if (!encoded.ok) return encoded;
  const { model: _model, stream: _stream, ...rest } = encoded.body as Record<string, unknown>;
  // Bedrock reads no `anthropic-beta` header: the client's beta flags go in the body, where it documents them.
  const betas = request.anthropicBetas && request.anthropicBetas.length > 0 ? { anthropic_beta: [...request.anthropicBetas] } : {};
  return { ok: true, body: { anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...rest, ...betas }, dropped: encoded.dropped };
}

/** The Anthropic event a `chunk` payload carries, as JSON text; undefined when it carries none. */
export function anthropicEventOfChunk(payload: unknown): string | undefined {
  const bytes = typeof payload === "object" && payload !== null ? (payload as { bytes?: unknown }).bytes : undefined;
  return typeof bytes === "string" ? Buffer.from(bytes, "base64").toString("utf8") : undefined;
}

/** One Anthropic stream event (its JSON text) as the `chunk` message InvokeModelWithResponseStream sends. */
export function bedrockChunkMessage(anthropicEventJson: string): Uint8Array {
  return awsEventMessage("chunk", { bytes: Buffer.from(anthropicEventJson, "utf8").toString("base64") });
}
