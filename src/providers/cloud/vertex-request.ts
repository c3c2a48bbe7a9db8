/**
 * Google Vertex AI addresses for Gemini (`generateContent`) and Claude (`rawPredict`), and the Anthropic
 * Messages body as Vertex wants it: the model moves into the URL, Vertex's `anthropic_version` is added,
 * and everything else (the `stream` flag included, which Vertex reads) is carried unchanged.
 */

export const VERTEX_ANTHROPIC_VERSION = "vertex-2023-10-16";

/** Regional hosts are `{location}-aiplatform.googleapis.com`; the `global` location has no prefix. */
export function vertexBaseUrl(location: string): string {
  return location === "global" ? "https://aiplatform.googleapis.com/v1" : `https://${location}-aiplatform.googleapis.com/v1`;
}

export interface VertexModelAddress {
  project: string;
  location: string;
  model: string;
  /** Overrides the Google host, e.g. a loopback mock; includes the `/v1` prefix. */
  baseUrl?: string;
}

function modelPath(address: VertexModelAddress, publisher: "google" | "anthropic"): string {
  const base = (address.baseUrl ?? vertexBaseUrl(address.location)).replace(/\/+$/, "");
  const project = encodeURIComponent(address.project);
  const location = encodeURIComponent(address.location);
  // `@` (Claude's version suffix, `claude-sonnet-4-5@20250929`) is legal in a path and sent as-is, like Google's SDKs do.
  const model = encodeURIComponent(address.model).replace(/%40/g, "@");
  return `${base}/projects/${project}/locations/${location}/publishers/${publisher}/models/${model}`;
}

/** Streams ask for server-sent events (`alt=sse`), the framing the Gemini reader already speaks. */
export function vertexGeminiUrl(address: VertexModelAddress, stream: boolean): string {
  return stream ? `${modelPath(address, "google")}:streamGenerateContent?alt=sse` : `${modelPath(address, "google")}:generateContent`;
}

export function vertexAnthropicUrl(address: VertexModelAddress, stream: boolean): string {
  return `${modelPath(address, "anthropic")}:${stream ? "streamRawPredict" : "rawPredict"}`;
}

export interface VertexAnthropicRequest {
  url: string;
  body: Record<string, unknown>;
}

export function toVertexAnthropicRequest(
  messagesBody: Readonly<Record<string, unknown>>,
  address: Omit<VertexModelAddress, "model"> & { model?: string },
): VertexAnthropicRequest {
  const { model, ...rest } = messagesBody;
  const modelId = address.model ?? (typeof model === "string" ? model : undefined);
  if (!modelId) throw new TypeError("an Anthropic request for Vertex needs a model id");
  const body: Record<string, unknown> = { ...rest };
  if (body.anthropic_version === undefined) body.anthropic_version = VERTEX_ANTHROPIC_VERSION;
  return { url: vertexAnthropicUrl({ ...address, model: modelId }, rest.stream === true), body };
}
