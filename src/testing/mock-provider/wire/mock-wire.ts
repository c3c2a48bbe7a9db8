/**
 * What the server needs from each wire format: read a request, render a healthy answer as JSON or as
 * stream frames, and render errors (HTTP bodies and in-band stream events) in the provider's own shape.
 */
import type { CanonicalResponse, CanonicalStreamEvent } from "../../../ports/canonical.js";
import type { WireFormat } from "../../../wire/wire-format.js";
import { requestFeatures, type MockRequestFeatures } from "../request-features.js";
import type { ResolvedMockError } from "../error-presets.js";
import type { MockConversation, MockReply } from "../reply.js";
import type { MockWireApi } from "../scenario-schema.js";

export interface WireRoute {
  /** Model taken from the URL (Google puts it in the path). */
  modelFromPath?: string;
  /** The URL asks for a stream (Google `:streamGenerateContent`). */
  streamFromPath?: boolean;
  searchParams: URLSearchParams;
}

export interface WireRequestInfo {
  model: string;
  stream: boolean;
  /** OpenAI `stream_options.include_usage`: a usage chunk before `[DONE]`. */
  includeUsage: boolean;
  conversation: MockConversation;
  /** What a non-chat endpoint (embeddings, token counts) read from the body, handed back to `renderJson`. */
  payload?: unknown;
}

export type WireReadResult = { ok: true; info: WireRequestInfo } | { ok: false; message: string };

export interface ReplyContext {
  id: string;
  model: string;
  createdSeconds: number;
  includeUsage: boolean;
  /** `WireRequestInfo.payload` of the request. */
  payload?: unknown;
}

/**
 * A healthy stream in four parts so faults can cut between them: lifecycle frames sent with the headers
 * (`lead`), one frame per token (`content`), the finish reason and usage (`finish`), and the terminator
 * (`done`: `[DONE]` / `message_stop`; empty for formats whose last chunk is the terminator).
 */
export interface StreamFrames {
  lead: string[];
  content: string[];
  finish: string[];
  done: string[];
}

export interface MockWire {
  readonly api: MockWireApi;
  readonly streamContentType: string;
  readRequest(body: unknown, route: WireRoute): WireReadResult;
  renderJson(reply: MockReply, context: ReplyContext): unknown;
  streamFrames(reply: MockReply, context: ReplyContext): StreamFrames;
  errorBody(error: ResolvedMockError): unknown;
  /** Extra headers a real provider sends with an error (reset hints beside `retry-after`). */
  errorHeaders(error: ResolvedMockError): Record<string, string>;
  /** Headers that name every error of this provider (Bedrock's `x-amzn-ErrorType`), with or without a retry hint. */
  errorTypeHeaders?(error: ResolvedMockError): Record<string, string>;
  /** How stream frames are written: text (the default), or bytes carried one per character (`latin1`, AWS event-stream). */
  readonly frameEncoding?: "utf8" | "latin1";
  streamErrorFrame(error: ResolvedMockError): string;
  /** A frame that breaks the format's framing or JSON, to test that clients skip it (R-ST-2). */
  malformedFrame(): string;
  /** Body for requests the mock cannot read (bad JSON, no model). */
  badRequestBody(message: string): unknown;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * How the hand-written chat wires start reading a request: a JSON object that names a model (`missingModel`
 * is the provider's own words when it does not). The wire then checks the fields it requires itself.
 */
export function bodyNamingModel(
  body: unknown,
  missingModel: string,
): { ok: true; body: Record<string, unknown>; model: string } | { ok: false; message: string } {
  if (!isRecord(body)) return { ok: false, message: "The request body must be a JSON object." };
  if (typeof body.model !== "string" || body.model === "") return { ok: false, message: missingModel };
  return { ok: true, body, model: body.model };
}

/** A chat request the wire could read: it streams when the body says `stream: true`. */
export function chatRequestRead(
  body: Record<string, unknown>,
  model: string,
  info: { includeUsage: boolean; conversation: MockConversation },
): WireReadResult {
  return { ok: true, info: { model, stream: body.stream === true, ...info } };
}

/** Text of a string or of the text parts of a content array (`{type:"text", text}` / `{text}` parts). */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (isRecord(part) && typeof part.text === "string" ? part.text : ""))
    .filter((text) => text !== "")
    .join("\n");
}

export function sseData(payload: unknown, lineEnd = "\n"): string {
  return `data: ${JSON.stringify(payload)}${lineEnd}${lineEnd}`;
}

export function sseEvent(event: string, payload: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
}

/** The reply as the canonical answer the shared wire module renders. */
export function canonicalReply(reply: MockReply, context: ReplyContext): CanonicalResponse {
  const content: CanonicalResponse["content"] = [];
  if (reply.textTokens.length > 0) content.push({ type: "text", text: reply.textTokens.join("") });
  if (reply.toolCall) content.push({ type: "tool-call", ...reply.toolCall });
  const thinking = reply.thinking
    ? [{ type: "thinking" as const, text: reply.thinking.tokens.join(""), signature: reply.thinking.signature }]
    : undefined;
  return {
    id: context.id,
    model: context.model,
    content,
    ...(thinking ? { thinking } : {}),
    finishReason: reply.finishReason,
    usage: reply.usage,
  };
}

/** The reply's thinking as stream events, one per token; the signature rides on the last (as Anthropic signs a block at its end). */
export function thinkingEvents(reply: MockReply): CanonicalStreamEvent[][] {
  const thinking = reply.thinking;
  if (!thinking) return [];
  return thinking.tokens.map((text, index): CanonicalStreamEvent[] =>
    index === thinking.tokens.length - 1
      ? [
          { type: "thinking-delta", index: 0, text },
          { type: "thinking-delta", index: 0, signature: thinking.signature },
        ]
      : [{ type: "thinking-delta", index: 0, text }],
  );
}

/** JSON mode, thinking and the cacheable prefix of a request, read through the format's own decoder. */
export function featuresOf(format: WireFormat, body: unknown): { features?: MockRequestFeatures } {
  const decoded = format.request.decode?.(body);
  return decoded?.ok ? { features: requestFeatures(decoded.value.request) } : {};
}

/** Non-chat endpoints never stream: they have no frames. */
export const NO_STREAM_FRAMES: StreamFrames = Object.freeze({ lead: [], content: [], finish: [], done: [] }) as StreamFrames;
