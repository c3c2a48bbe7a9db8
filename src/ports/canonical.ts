/**
 * The canonical chat model every dialect is parsed into and every provider translates from.
 * Lives in ports/ (not providers/shared/) because the Provider port's signature needs it and
 * ports must not import providers.
 */

export interface CanonicalImage {
  type: "image";
  /** Either inline base64 data with its media type, or a URL. */
  source: { kind: "base64"; mediaType: string; data: string } | { kind: "url"; url: string };
}

export interface CanonicalText {
  type: "text";
  text: string;
}

export interface CanonicalToolCall {
  type: "tool-call";
  id: string;
  name: string;
  /** JSON text of the arguments, exactly as the model produced it. */
  arguments: string;
}

export interface CanonicalToolResult {
  type: "tool-result";
  toolCallId: string;
  /** Text content of the result (images inside tool results are flattened to text references). */
  content: string;
  isError?: boolean;
}

export type CanonicalContentPart = CanonicalText | CanonicalImage | CanonicalToolCall | CanonicalToolResult;

export interface CanonicalMessage {
  role: "user" | "assistant" | "tool";
  content: CanonicalContentPart[];
}

export interface CanonicalTool {
  name: string;
  description?: string;
  /** JSON Schema of the parameters. */
  parameters: Record<string, unknown>;
}

export type CanonicalToolChoice = "auto" | "none" | "required" | { name: string };

export interface CanonicalRequest {
  /** Filled in per candidate by the engine; front ends may leave it empty. */
  model?: string;
  system?: string;
  messages: CanonicalMessage[];
  tools?: CanonicalTool[];
  toolChoice?: CanonicalToolChoice;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  stop?: string[];
  stream?: boolean;
  metadata?: Record<string, string>;
}

export type CanonicalFinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "error";

export interface CanonicalUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface CanonicalResponse {
  id: string;
  /** The model that actually answered (R-ST-3). */
  model: string;
  content: (CanonicalText | CanonicalToolCall)[];
  finishReason: CanonicalFinishReason;
  usage: CanonicalUsage;
}

/** One event of a canonical stream. */
export type CanonicalStreamEvent =
  | { type: "message-start"; id: string; model: string }
  | { type: "text-delta"; text: string }
  | {
      type: "tool-call-delta";
      /** Position of the tool call within the message. */
      index: number;
      id?: string;
      name?: string;
      argumentsDelta?: string;
    }
  | { type: "finish"; reason: CanonicalFinishReason; usage?: CanonicalUsage }
  | { type: "error"; error: unknown };
