/**
 * OpenAI chat-completion chunks → the `chat.completion` object the same request would have got without
 * `stream` (SPEC R-ST-6): the same-wire lane streams a non-streamed request upstream to watch for silence and
 * hands the client this instead. Everything the stream carries is kept as the provider sent it: `id`,
 * `created`, `model`, `system_fingerprint`, `service_tier` and any other top-level field; per choice the
 * message (role, content, refusal, tool calls with their arguments joined, reasoning fields of compatible
 * providers), the log probabilities joined and the finish reason; the usage object with its token details.
 * Works on parsed JSON, not on the wire schema, so fields the schema does not know survive.
 */

type Json = Record<string, unknown>;

/** Stream-only top-level fields with no place in a `chat.completion`. */
const STREAM_ONLY_FIELDS = new Set(["object", "choices", "usage", "obfuscation"]);
/** Delta fields the assembler builds itself. */
const BUILT_DELTA_FIELDS = new Set(["role", "tool_calls"]);

interface ToolCallParts {
  id?: unknown;
  type?: unknown;
  name: string;
  arguments: string;
  /** Other fields of the call as first sent (some providers add an index or extra metadata). */
  extra: Json;
  functionExtra: Json;
}

interface ChoiceParts {
  index: number;
  role: unknown;
  /** Delta fields in first-seen order: strings joined, arrays concatenated, other values last-wins. */
  fields: Map<string, unknown>;
  toolCalls: Map<number, ToolCallParts>;
  logprobs: unknown;
  sawLogprobs: boolean;
  finishReason: unknown;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** How two values of one delta field combine: text and arrays grow, `null` never erases what arrived. */
function combine(before: unknown, next: unknown): unknown {
  if (next === null || next === undefined) return before === undefined ? null : before;
  if (typeof next === "string" && (typeof before === "string" || before === null || before === undefined)) return (before ?? "") + next;
  if (Array.isArray(next) && (Array.isArray(before) || before === null || before === undefined))
    return [...((before as unknown[] | null) ?? []), ...next];
  return next;
}

function combineLogprobs(before: unknown, next: unknown): unknown {
  if (!isObject(next)) return before ?? next ?? null;
  if (!isObject(before)) return { ...next };
  const merged: Json = { ...before };
  for (const [key, value] of Object.entries(next)) merged[key] = combine(merged[key], value);
  return merged;
}

export class OpenAiCompletionAssembler {
  readonly #top = new Map<string, unknown>();
  readonly #choices = new Map<number, ChoiceParts>();
  #usage: unknown;

  accept(chunk: unknown): void {
    if (!isObject(chunk)) return;
    // for…in over own keys, not Object.entries: an answer is ~20 chunks, and the entry arrays were most of
    // what assembling one allocated.
    for (const key in chunk) {
      if (!Object.hasOwn(chunk, key) || STREAM_ONLY_FIELDS.has(key)) continue;
      const value = chunk[key];
      // The first chunk names the answer; later ones repeat it (a `null` fingerprint never erases one).
      if (!this.#top.has(key) || (this.#top.get(key) === null && value !== null)) this.#top.set(key, value);
    }
    if (isObject(chunk.usage)) this.#usage = chunk.usage;
    if (!Array.isArray(chunk.choices)) return;
    for (const choice of chunk.choices) if (isObject(choice)) this.#acceptChoice(choice);
  }

  #acceptChoice(choice: Json): void {
    const index = typeof choice.index === "number" ? choice.index : 0;
    let parts = this.#choices.get(index);
    if (!parts) {
      parts = { index, role: undefined, fields: new Map(), toolCalls: new Map(), logprobs: null, sawLogprobs: false, finishReason: null };
      this.#choices.set(index, parts);
    }
    const delta = isObject(choice.delta) ? choice.delta : {};
    if (delta.role !== undefined && delta.role !== null) parts.role ??= delta.role;
    for (const key in delta) {
      if (!Object.hasOwn(delta, key) || BUILT_DELTA_FIELDS.has(key)) continue;
      parts.fields.set(key, combine(parts.fields.get(key), delta[key]));
    }
    if (Array.isArray(delta.tool_calls)) for (const call of delta.tool_calls) if (isObject(call)) this.#acceptToolCall(parts, call);
    if ("logprobs" in choice) {
      parts.sawLogprobs = true;
      parts.logprobs = combineLogprobs(parts.logprobs, choice.logprobs);
    }
    if (choice.finish_reason !== undefined && choice.finish_reason !== null) parts.finishReason = choice.finish_reason;
  }

  #acceptToolCall(parts: ChoiceParts, call: Json): void {
    const index = typeof call.index === "number" ? call.index : parts.toolCalls.size;
    let tool = parts.toolCalls.get(index);
    if (!tool) {
      tool = { name: "", arguments: "", extra: {}, functionExtra: {} };
      parts.toolCalls.set(index, tool);
    }
    for (const [key, value] of Object.entries(call)) {
      if (key === "index" || key === "function") continue;
      if (key === "id" || key === "type") {
        if (value !== undefined && value !== null) tool[key] ??= value;
        continue;
      }
      tool.extra[key] ??= value;
    }
    const fn = isObject(call.function) ? call.function : {};
    if (typeof fn.name === "string" && tool.name === "") tool.name = fn.name;
    if (typeof fn.arguments === "string") tool.arguments += fn.arguments;
    for (const [key, value] of Object.entries(fn)) if (key !== "name" && key !== "arguments") tool.functionExtra[key] ??= value;
  }

  /** True once every choice has its finish reason. */
  get finished(): boolean {
    return this.#choices.size > 0 && [...this.#choices.values()].every((choice) => choice.finishReason !== null);
  }

  completion(): Json {
    const top: Json = {};
    // `chat.completion` key order: id, object, created, model, choices, usage, then what else the stream named.
    if (this.#top.has("id")) top.id = this.#top.get("id");
    top.object = "chat.completion";
    for (const key of ["created", "model"]) if (this.#top.has(key)) top[key] = this.#top.get(key);
    top.choices = [...this.#choices.values()].sort((a, b) => a.index - b.index).map((choice) => this.#choice(choice));
    if (this.#usage !== undefined) top.usage = this.#usage;
    for (const [key, value] of this.#top) if (!(key in top)) top[key] = value;
    return top;
  }

  #choice(parts: ChoiceParts): Json {
    const message: Json = { role: parts.role ?? "assistant" };
    // The non-streamed message always has `content`: the joined text, or null for a tool-call-only answer.
    const content = parts.fields.get("content");
    message.content = content === undefined || (content === "" && parts.toolCalls.size > 0) ? null : content;
    for (const [key, value] of parts.fields) if (key !== "content") message[key] = value;
    if (parts.toolCalls.size > 0) {
      message.tool_calls = [...parts.toolCalls.entries()]
        .sort(([a], [b]) => a - b)
        .map(([, tool]) => ({
          ...(tool.id !== undefined ? { id: tool.id } : {}),
          type: tool.type ?? "function",
          function: { name: tool.name, arguments: tool.arguments, ...tool.functionExtra },
          ...tool.extra,
        }));
    }
    // OpenAI's own API marks its messages with `refusal` (streamed as `refusal: null`); its non-streamed
    // messages then also carry `annotations: []`, which the stream sends only when there are annotations.
    if ("refusal" in message && !("annotations" in message)) message.annotations = [];
    return {
      index: parts.index,
      message,
      logprobs: parts.sawLogprobs ? parts.logprobs : null,
      finish_reason: parts.finishReason,
    };
  }
}
