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

/**
 * What a request's bytes say before any parse (the same-wire lane, R-GW-6): enough to show that a candidate
 * fits, never enough to skip one. The exact facts are computed only when this bound cannot settle a candidate.
 */
export interface RequestFactsBound {
  /** Never below the estimate of the parsed request; absent when the bytes do not bound it (images). */
  readonly inputTokens?: number;
  /** The request's `max_tokens` exactly as the parsed request will have it; absent when it names none. */
  readonly maxOutputTokens?: number;
  /** Every modality the parsed request may carry (perhaps more). */
  readonly modalities: readonly RequestModality[];
}

/**
 * Facts on demand: a cheap bound first, the exact facts (a parse) only when the bound is not enough. Both are
 * computed at most once, and neither for a candidate of which nothing is known.
 */
export interface DeferredRequestFacts {
  bound(): RequestFactsBound;
  /** The exact facts; undefined when the request cannot be read for them (no fit check). */
  exact(): RequestFacts | undefined;
}

/** What the runner gets for the pre-call fit: facts known up front, or deferred ones. */
export type FitRequest = RequestFacts | DeferredRequestFacts;

/**
 * Deferred facts from two injected computations (the bound reads the bytes, the exact facts parse them), each
 * run on first use and never again. A bound already at hand may be passed as is.
 */
export function deferRequestFacts(
  bound: RequestFactsBound | (() => RequestFactsBound),
  compute: () => RequestFacts | undefined,
): DeferredRequestFacts {
  return { bound: typeof bound === "function" ? once(bound) : () => bound, exact: once(compute) };
}

function once<T>(compute: () => T): () => T {
  let computed = false;
  let value: T;
  return () => {
    if (!computed) {
      value = compute();
      computed = true;
    }
    return value;
  };
}

/**
 * Tokens a tool definition may cost beyond its bytes: the default schema a tool without one is given
 * (`{"type":"object","properties":{}}`, 33 characters) — every other character the estimate counts is one of
 * the body's bytes.
 */
const DEFAULT_SCHEMA_TOKENS = Math.ceil(33 / CHARACTERS_PER_TOKEN);

/** The countable outline of a JSON chat body, from a byte scan. */
export interface BodyOutline {
  byteLength: number;
  /** Elements of its `messages` array. */
  messages: number;
  /** Elements of its `tools` array. */
  tools: number;
  /** Its `max_tokens` as the dialect reads it; absent when it names none. */
  maxOutputTokens?: number;
  /** The bytes may hold an image part (a false hit only costs the exact facts). */
  mayCarryImages: boolean;
}

/**
 * The bound of a body's facts. Every character the estimate counts is at least one byte of the body (escapes
 * and multi-byte UTF-8 only shrink when decoded, and a re-serialised schema or tool input is no longer than
 * it was sent), so bytes / CHARACTERS_PER_TOKEN bounds the text. One message may become two (an Anthropic
 * user turn with tool results and text), and a tool may gain the default schema. An image costs
 * TOKENS_PER_IMAGE whatever its bytes: a body that may carry one has no input bound.
 */
export function boundOfBody(outline: BodyOutline): RequestFactsBound {
  return {
    ...(outline.mayCarryImages
      ? {}
      : {
          inputTokens:
            Math.ceil(outline.byteLength / CHARACTERS_PER_TOKEN) +
            2 * TOKENS_PER_MESSAGE * outline.messages +
            (TOKENS_PER_TOOL_DEFINITION + DEFAULT_SCHEMA_TOKENS) * outline.tools,
        }),
    ...(outline.maxOutputTokens !== undefined ? { maxOutputTokens: outline.maxOutputTokens } : {}),
    modalities: outline.mayCarryImages ? ["image"] : [],
  };
}

/** Whether a candidate's known facts could exclude a request of this bound; false = the exact facts fit too. */
export function boundCouldExclude(bound: RequestFactsBound, model: ModelFitFacts): boolean {
  const accepted = model.inputModalities;
  if (accepted !== undefined && bound.modalities.some((modality) => !accepted.includes(modality))) return true;
  if (model.contextWindow === undefined) return false;
  if (bound.inputTokens === undefined) return true;
  const outline: RequestFacts = {
    inputTokens: bound.inputTokens,
    ...(bound.maxOutputTokens !== undefined ? { maxOutputTokens: bound.maxOutputTokens } : {}),
    modalities: [],
  };
  return requiredTokens(outline, model) > model.contextWindow;
}

/**
 * R-FB-8 for facts known or deferred: deferred ones are computed only for a candidate the bound cannot settle,
 * and the decision (and its attempt text) is always the exact facts', as if they had been known up front.
 */
export function checkRequestFit(request: FitRequest, model: ModelFitFacts): FitDecision {
  if (!("bound" in request)) return checkFit(request, model);
  // Unknown facts never exclude (checkFit): nothing about the request needs reading.
  if (model.contextWindow === undefined && model.inputModalities === undefined) return { fits: true };
  if (!boundCouldExclude(request.bound(), model)) return { fits: true };
  const exact = request.exact();
  return exact ? checkFit(exact, model) : { fits: true };
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
