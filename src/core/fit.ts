/**
 * Whether a request fits a model (SPEC R-FB-5, R-FB-8): a documented token estimate, the pre-call fit check
 * against a model's context window and input modalities, and where a context overflow may move on to.
 *
 * The estimate is deliberately simple and documented in docs/architecture.md ("Pre-call fit"): providers
 * tokenise differently and a tokenizer per vendor is not worth its weight here. It only has to tell a
 * request that obviously cannot fit from one that might; a near miss is still caught by the provider's own
 * context-overflow error (R-FB-5).
 */

/** Average characters per token of English prose and code across the major tokenizers. */
export const CHARACTERS_PER_TOKEN = 4;
/** One image input; ~1 600 is Anthropic's cost of a full-size image, OpenAI's high detail stays below. */
export const TOKENS_PER_IMAGE = 1_600;
/** Per tool definition, on top of its name, description and JSON schema counted as text. */
export const TOKENS_PER_TOOL_DEFINITION = 50;
/** Per message: role markers and separators of the chat template. */
export const TOKENS_PER_MESSAGE = 4;
/**
 * Output reserved when the request names no `max_tokens`: what Detour itself sends to providers that require
 * one, capped by the model's own output limit.
 */
export const DEFAULT_OUTPUT_RESERVATION_TOKENS = 4_096;

/** An input modality beyond plain text, as the catalogue names it. */
export type RequestModality = "image" | "audio" | "video" | "pdf";

/** What the runner knows about one request: computed once by the front end, read per candidate. */
export interface RequestFacts {
  /** Estimated input tokens (`estimateInputTokens`). */
  readonly inputTokens: number;
  /** The request's `max_tokens`; absent when the caller did not say. */
  readonly maxOutputTokens?: number;
  /** Input modalities the request carries beyond text. */
  readonly modalities: readonly RequestModality[];
}

/** What is known about a model (config declarations, else the catalogue); absent fields are unknown. */
export interface ModelFitFacts {
  readonly contextWindow?: number;
  readonly maxOutputTokens?: number;
  readonly inputModalities?: readonly string[];
}

/** The countable shape of a request: characters of its text, and its images, tools and messages. */
export interface RequestShape {
  /** Characters of system prompt, message text, tool calls and results, tool names, descriptions and schemas. */
  textCharacters: number;
  images: number;
  toolDefinitions: number;
  messages: number;
}

export function estimateInputTokens(shape: RequestShape): number {
  return (
    Math.ceil(shape.textCharacters / CHARACTERS_PER_TOKEN) +
    shape.images * TOKENS_PER_IMAGE +
    shape.toolDefinitions * TOKENS_PER_TOOL_DEFINITION +
    shape.messages * TOKENS_PER_MESSAGE
  );
}

/** Tokens the request needs of a model's window: its input plus the output it asks for (or the default). */
export function requiredTokens(request: RequestFacts, model: ModelFitFacts): number {
  const output =
    request.maxOutputTokens ?? Math.min(DEFAULT_OUTPUT_RESERVATION_TOKENS, model.maxOutputTokens ?? DEFAULT_OUTPUT_RESERVATION_TOKENS);
  return request.inputTokens + output;
}

export type FitDecision =
  | { fits: true }
  | { fits: false; reason: "context_overflow"; requiredTokens: number; contextWindow: number }
  | { fits: false; reason: "incompatible"; modality: RequestModality };

/**
 * R-FB-8: a model whose window is known and too small for the request, or whose known input modalities lack
 * one the request carries, cannot take it. Unknown facts never exclude a model.
 */
export function checkFit(request: RequestFacts, model: ModelFitFacts): FitDecision {
  const accepted = model.inputModalities;
  const missing = accepted === undefined ? undefined : request.modalities.find((modality) => !accepted.includes(modality));
  if (missing !== undefined) return { fits: false, reason: "incompatible", modality: missing };
  const window = model.contextWindow;
  if (window === undefined) return { fits: true };
  const required = requiredTokens(request, model);
  return required > window ? { fits: false, reason: "context_overflow", requiredTokens: required, contextWindow: window } : { fits: true };
}

/** The attempt text of a candidate skipped by the pre-call fit (R-FB-8). */
export function fitSkipMessage(candidate: string, decision: Exclude<FitDecision, { fits: true }>): string {
  return decision.reason === "context_overflow"
    ? `Skipping ${candidate}: request (~${decision.requiredTokens} tokens) exceeds its context window (${decision.contextWindow})`
    : `Skipping ${candidate}: it does not accept ${decision.modality} input`;
}

/**
 * R-FB-5: after a context overflow of `windows[failedIndex]`, the position of the next candidate worth trying:
 * the first later one whose window is larger — a later candidate is passed over only when both windows are
 * known and it is not larger. A failing model of unknown window moves on to the very next candidate.
 * -1 when none is left.
 */
export function nextCandidateAfterOverflow(windows: readonly (number | undefined)[], failedIndex: number): number {
  const failing = windows[failedIndex];
  for (let index = failedIndex + 1; index < windows.length; index += 1) {
    const window = windows[index];
    if (failing === undefined || window === undefined || window > failing) return index;
  }
  return -1;
}
