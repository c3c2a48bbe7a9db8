/**
 * R-GW-6 bookkeeping while a canonical request is written in one wire format: a field the format cannot
 * express either makes the candidate incompatible (it would change the answer's meaning) or, for a hint,
 * is dropped and named for the `x-detour-dropped` header.
 */
import type { CanonicalProviderOptions, CanonicalReasoning, CanonicalRequest } from "../../ports/canonical.js";

export type WireFormat = "openai-chat" | "openai-responses" | "anthropic-messages" | "google-generative-ai" | "ollama" | "bedrock";

export interface UnsupportedField {
  /** The client's field name (`response_format`, `logprobs`, …). */
  field: string;
  problem: string;
}

export type WireEncoding<Body> = { ok: true; body: Body; dropped: readonly string[] } | ({ ok: false } & UnsupportedField);

export class EncodingNotes {
  readonly dropped: string[] = [];
  unsupported: UnsupportedField | undefined;

  constructor(readonly target: WireFormat) {}

  /** A hint the target cannot carry: dropped, and named once in `x-detour-dropped`. */
  drop(field: string): void {
    if (!this.dropped.includes(field)) this.dropped.push(field);
  }

  /** A field that changes the answer's meaning: the first one wins the message. */
  reject(field: string, why = "it changes the answer's meaning"): void {
    this.unsupported ??= { field, problem: `The ${this.target} wire format cannot express "${field}" and ${why}.` };
  }

  finish<Body>(body: Body): WireEncoding<Body> {
    if (this.unsupported) return { ok: false, ...this.unsupported };
    return { ok: true, body, dropped: this.dropped };
  }
}

/**
 * Fields one wire format keeps in the provider-options bag, by what their loss would do elsewhere.
 * Unlisted fields are hints: dropped and named, never silently.
 */
const MEANING_CHANGING_FIELDS: Readonly<Record<string, readonly string[]>> = {
  // Audio output and built-in web search change what the answer is.
  "openai-chat": ["audio", "modalities", "web_search_options", "functions", "function_call"],
  // Server-side tool containers and MCP servers run tools the target cannot.
  "anthropic-messages": ["container", "mcp_servers", "context_management"],
  // Server-held state (stored responses, conversations, prompts), background runs and hosted tools: only
  // the Responses API that holds or runs them can answer such a request.
  "openai-responses": ["previous_response_id", "conversation", "prompt", "background", "tools", "tool_choice", "context_management"],
};

/**
 * The provider-options bag as the target sees it: its own fields back verbatim (same-wire lossless),
 * every other format's fields rejected or dropped per the table above.
 */
export function ownProviderOptions(options: CanonicalProviderOptions | undefined, notes: EncodingNotes): Record<string, unknown> {
  if (!options) return {};
  let own: Record<string, unknown> = {};
  for (const [format, fields] of Object.entries(options)) {
    if (format === notes.target) {
      own = { ...fields };
      continue;
    }
    const meaningful = MEANING_CHANGING_FIELDS[format] ?? [];
    for (const [field, value] of Object.entries(fields)) {
      if (value === undefined || value === null) continue;
      if (meaningful.includes(field)) notes.reject(field);
      else notes.drop(field);
    }
  }
  return own;
}

/**
 * OpenAI reasoning effort ↔ Anthropic thinking budget (tokens). Anthropic's minimum budget is 1024;
 * a budget maps back to the largest effort whose budget it reaches.
 */
export const THINKING_BUDGET_BY_EFFORT: Readonly<Record<NonNullable<CanonicalReasoning["effort"]>, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
};

export function effortForBudget(budgetTokens: number): "low" | "medium" | "high" {
  if (budgetTokens >= THINKING_BUDGET_BY_EFFORT.high) return "high";
  if (budgetTokens >= THINKING_BUDGET_BY_EFFORT.medium) return "medium";
  return "low";
}

export function budgetForReasoning(reasoning: CanonicalReasoning): number {
  return reasoning.budgetTokens ?? THINKING_BUDGET_BY_EFFORT[reasoning.effort ?? "medium"];
}

/** The fields of a loose object that the decoder did not map, for the provider-options bag. */
export function unmappedFields(body: Record<string, unknown>, mapped: ReadonlySet<string>): Record<string, unknown> | undefined {
  let rest: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(body)) {
    if (mapped.has(key) || value === undefined) continue;
    (rest ??= {})[key] = value;
  }
  return rest;
}

export type CanonicalField =
  | "topK"
  | "seed"
  | "frequencyPenalty"
  | "presencePenalty"
  | "logitBias"
  | "logprobs"
  | "responseFormat"
  | "reasoning"
  | "parallelToolCalls"
  | "user"
  | "metadata"
  | "cache"
  | "thinkingBlocks"
  | "imageDetail";

/** Client field names, for attempt texts and `x-detour-dropped` (R-GW-6). */
const FIELD_NAMES: Readonly<Record<CanonicalField, string>> = {
  topK: "top_k",
  seed: "seed",
  frequencyPenalty: "frequency_penalty",
  presencePenalty: "presence_penalty",
  logitBias: "logit_bias",
  logprobs: "logprobs",
  responseFormat: "response_format",
  reasoning: "reasoning_effort",
  parallelToolCalls: "parallel_tool_calls",
  user: "user",
  metadata: "metadata",
  cache: "cache_control",
  thinkingBlocks: "thinking",
  imageDetail: "detail",
};

/** Which uncarried fields change the answer's meaning (R-GW-6); the rest are hints. */
const MEANING_CHANGING: ReadonlySet<CanonicalField> = new Set(["logitBias", "logprobs", "responseFormat", "reasoning"]);

function presentFields(request: CanonicalRequest): CanonicalField[] {
  const present: CanonicalField[] = [];
  if (request.topK !== undefined) present.push("topK");
  if (request.seed !== undefined) present.push("seed");
  if (request.frequencyPenalty !== undefined) present.push("frequencyPenalty");
  if (request.presencePenalty !== undefined) present.push("presencePenalty");
  if (request.logitBias && Object.keys(request.logitBias).length > 0) present.push("logitBias");
  if (request.logprobs || (request.topLogprobs ?? 0) > 0) present.push("logprobs");
  if (request.responseFormat && request.responseFormat.type !== "text") present.push("responseFormat");
  if (request.reasoning?.enabled) present.push("reasoning");
  if (request.parallelToolCalls !== undefined) present.push("parallelToolCalls");
  if (request.user !== undefined) present.push("user");
  if (request.metadata && Object.keys(request.metadata).length > 0) present.push("metadata");
  const parts = request.messages.flatMap((message) => message.content);
  const nested = parts.flatMap((part) => (part.type === "tool-result" ? (part.parts ?? []) : []));
  if (
    [...parts, ...nested].some((part) => part.type !== "thinking" && part.cache !== undefined) ||
    request.systemParts?.some((part) => part.cache) ||
    request.tools?.some((tool) => tool.cache)
  ) {
    present.push("cache");
  }
  if (parts.some((part) => part.type === "thinking")) present.push("thinkingBlocks");
  if ([...parts, ...nested].some((part) => part.type === "image" && part.detail !== undefined)) present.push("imageDetail");
  return present;
}

/**
 * For wire formats with fewer fields (Gemini, Ollama): every canonical field the encoder does not carry
 * is rejected or dropped by the table above. `n > 1` is always rejected: a canonical answer has one message.
 */
export function noteUncarriedFields(request: CanonicalRequest, notes: EncodingNotes, carried: ReadonlySet<CanonicalField>): void {
  for (const field of presentFields(request)) {
    if (carried.has(field)) continue;
    if (MEANING_CHANGING.has(field)) notes.reject(FIELD_NAMES[field]);
    else notes.drop(FIELD_NAMES[field]);
  }
  if (request.choiceCount !== undefined && request.choiceCount > 1) notes.reject("n", "Detour relays one choice per answer");
}
