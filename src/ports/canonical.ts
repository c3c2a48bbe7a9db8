/**
 * The canonical chat model every dialect is parsed into and every provider translates from.
 * Lives in ports/ (not providers/shared/) because the Provider port's signature needs it and
 * ports must not import providers.
 *
 * R-GW-6: it carries everything the wire formats can say in common (vercel/ai's `LanguageModelV3` call
 * options and usage are the reference shape): structured system/developer parts, cache marks, thinking
 * parts, sampling and output controls, and a provider-options bag for what only one wire format knows.
 */

/** Anthropic `cache_control`: a prompt-cache breakpoint after the marked part. */
export interface CanonicalCacheMark {
  type: "ephemeral";
  ttl?: string;
}

export interface CanonicalImage {
  type: "image";
  /** Either inline base64 data with its media type, or a URL. */
  source: { kind: "base64"; mediaType: string; data: string } | { kind: "url"; url: string };
  /** OpenAI image `detail`. */
  detail?: "auto" | "low" | "high";
  cache?: CanonicalCacheMark;
}

export interface CanonicalText {
  type: "text";
  text: string;
  cache?: CanonicalCacheMark;
}

/** A reasoning block of an earlier answer (Anthropic `thinking` / `redacted_thinking`), kept for the next turn. */
export interface CanonicalThinking {
  type: "thinking";
  /** The reasoning text; empty for a redacted block. */
  text: string;
  /** The provider's signature over the block; it must travel back unchanged. */
  signature?: string;
  /** Encrypted content of a `redacted_thinking` block (or of an OpenAI Responses `reasoning` item). */
  redactedData?: string;
  /**
   * Set for blocks another wire format made (`openai-responses`: a `reasoning` item, encrypted for OpenAI);
   * absent for Anthropic blocks. Only the same format can send such a block back (R-GW-6).
   */
  origin?: "openai-responses";
  /** The Responses `reasoning` item id. */
  itemId?: string;
}

export interface CanonicalToolCall {
  type: "tool-call";
  id: string;
  name: string;
  /** JSON text of the arguments, exactly as the model produced it. */
  arguments: string;
  cache?: CanonicalCacheMark;
}

export interface CanonicalToolResult {
  type: "tool-result";
  toolCallId: string;
  /** Text content of the result (the text parts joined; what a text-only wire format sends). */
  content: string;
  /** The result as structured parts when it holds more than one text (images, cache marks). */
  parts?: (CanonicalText | CanonicalImage)[];
  isError?: boolean;
  cache?: CanonicalCacheMark;
}

export type CanonicalContentPart = CanonicalText | CanonicalImage | CanonicalToolCall | CanonicalToolResult | CanonicalThinking;

export interface CanonicalMessage {
  role: "user" | "assistant" | "tool";
  content: CanonicalContentPart[];
}

/** One system instruction as the client sent it: OpenAI `system`/`developer` messages, Anthropic system blocks. */
export interface CanonicalSystemPart {
  role: "system" | "developer";
  text: string;
  cache?: CanonicalCacheMark;
  /** Index of the canonical message it preceded (OpenAI allows instructions mid-conversation); absent: first. */
  beforeMessage?: number;
}

export interface CanonicalTool {
  name: string;
  description?: string;
  /** JSON Schema of the parameters. */
  parameters: Record<string, unknown>;
  /** OpenAI function `strict`. */
  strict?: boolean;
  cache?: CanonicalCacheMark;
}

export type CanonicalToolChoice = "auto" | "none" | "required" | { name: string };

/** What shape the answer's text must have (OpenAI `response_format`). */
export type CanonicalResponseFormat =
  | { type: "text" }
  | { type: "json" }
  | { type: "json-schema"; name: string; schema: Record<string, unknown>; description?: string; strict?: boolean };

/** A request for model reasoning: OpenAI `reasoning_effort` or Anthropic `thinking`. */
export interface CanonicalReasoning {
  /** `false`: reasoning explicitly switched off (Anthropic `thinking.type: "disabled"`). */
  enabled: boolean;
  effort?: "minimal" | "low" | "medium" | "high";
  budgetTokens?: number;
}

/**
 * Fields only one wire format knows, keyed by wire format (`openai-chat`, `anthropic-messages`), value as
 * sent. The same wire format sends them back unchanged; another decides per field (R-GW-6).
 */
export type CanonicalProviderOptions = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

export interface CanonicalRequest {
  /** Filled in per candidate by the engine; front ends may leave it empty. */
  model?: string;
  /** All system and developer instructions as one text (for formats with a single system slot). */
  system?: string;
  /** The same instructions as the client structured them; wins over `system` when present. */
  systemParts?: CanonicalSystemPart[];
  messages: CanonicalMessage[];
  tools?: CanonicalTool[];
  toolChoice?: CanonicalToolChoice;
  /** `false`: at most one tool call per turn (OpenAI `parallel_tool_calls`, Anthropic `disable_parallel_tool_use`). */
  parallelToolCalls?: boolean;
  temperature?: number;
  topP?: number;
  topK?: number;
  maxTokens?: number;
  stop?: string[];
  seed?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  logitBias?: Record<string, number>;
  /** Token log probabilities in the answer; `topLogprobs` alternatives per token. */
  logprobs?: boolean;
  topLogprobs?: number;
  /** OpenAI `n`: how many alternative answers. */
  choiceCount?: number;
  responseFormat?: CanonicalResponseFormat;
  reasoning?: CanonicalReasoning;
  stream?: boolean;
  metadata?: Record<string, string>;
  /** End-user id (OpenAI `user`, Anthropic `metadata.user_id`). */
  user?: string;
  providerOptions?: CanonicalProviderOptions;
  /**
   * The Anthropic beta flags the client asked for (its `anthropic-beta` header), one flag each. Only Claude
   * reads them: Claude on Bedrock's InvokeModel takes them in the body as `anthropic_beta`; the Anthropic API
   * gets the client's header itself on the same-wire lane.
   */
  anthropicBetas?: string[];
}

export type CanonicalFinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "error";

/**
 * R-GW-7. `inputTokens` is all input the model processed, cache reads and writes included;
 * `outputTokens` includes reasoning tokens.
 */
export interface CanonicalUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  reasoningTokens?: number;
}

export interface CanonicalResponse {
  id: string;
  /** The model that actually answered (R-ST-3). */
  model: string;
  content: (CanonicalText | CanonicalToolCall)[];
  /** Reasoning blocks of the answer, which come before its content (Anthropic `thinking`). */
  thinking?: CanonicalThinking[];
  finishReason: CanonicalFinishReason;
  usage: CanonicalUsage;
  /** OpenAI `choices[0].logprobs`, as the provider sent it. */
  logprobs?: unknown;
  /** Hints of the request the answering wire format could not carry (R-GW-6 `x-detour-dropped`). */
  dropped?: readonly string[];
}

/** One event of a canonical stream. */
export type CanonicalStreamEvent =
  | {
      type: "message-start";
      id: string;
      model: string;
      /** Hints of the request the answering wire format could not carry (R-GW-6 `x-detour-dropped`). */
      dropped?: readonly string[];
      /**
       * The input tokens (cache reads and writes included) the provider stated as the stream started (Anthropic's
       * `message_start` usage): what it counted for the request even if the attempt is closed before its answer
       * (R-HG-1, a hedge loser is charged them). The answer's own total comes with `finish`.
       */
      inputTokens?: number;
    }
  | { type: "text-delta"; text: string; logprobs?: unknown }
  | {
      type: "thinking-delta";
      /** Position of the thinking block among the message's thinking blocks. */
      index: number;
      text?: string;
      signature?: string;
      redactedData?: string;
    }
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
