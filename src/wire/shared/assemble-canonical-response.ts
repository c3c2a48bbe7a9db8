/**
 * A canonical stream → the canonical non-streamed answer (SPEC R-ST-6): what a non-streamed request gets when
 * Detour streamed its upstream call to watch for silence. The result has the shape the provider's own
 * non-streamed answer decodes to: one text part per run of text (a text after a tool call starts a new part,
 * as separate content blocks do), tool calls in their stream order with their arguments joined, thinking
 * blocks by index with their signatures, the finish reason and usage of the `finish` event, OpenAI log
 * probabilities merged into one `choices[0].logprobs`, and the dropped hints of `message-start`.
 */
import type {
  CanonicalFinishReason,
  CanonicalResponse,
  CanonicalStreamEvent,
  CanonicalText,
  CanonicalThinking,
  CanonicalToolCall,
  CanonicalUsage,
} from "../../ports/canonical.js";

const NO_USAGE: CanonicalUsage = Object.freeze({ inputTokens: 0, outputTokens: 0 });

/** Log probabilities arrive per chunk (`{ content: [...], refusal: [...] }`); the answer carries them joined. */
function mergeLogprobs(into: unknown, next: unknown): unknown {
  if (into === undefined || into === null) return next;
  if (typeof into !== "object" || typeof next !== "object" || next === null || Array.isArray(into)) return next;
  const merged: Record<string, unknown> = { ...(into as Record<string, unknown>) };
  for (const [key, value] of Object.entries(next as Record<string, unknown>)) {
    const before = merged[key];
    merged[key] = Array.isArray(before) && Array.isArray(value) ? [...before, ...value] : (value ?? before ?? null);
  }
  return merged;
}

export class CanonicalResponseAssembler {
  #id: string | undefined;
  #model: string | undefined;
  #dropped: readonly string[] | undefined;
  readonly #content: (CanonicalText | CanonicalToolCall)[] = [];
  readonly #toolCalls = new Map<number, CanonicalToolCall>();
  readonly #thinking: CanonicalThinking[] = [];
  #logprobs: unknown;
  #finishReason: CanonicalFinishReason | undefined;
  #usage: CanonicalUsage | undefined;

  constructor(private readonly fallback: { id: string; model: string }) {}

  accept(event: CanonicalStreamEvent): void {
    switch (event.type) {
      case "message-start":
        this.#id ??= event.id;
        this.#model ??= event.model;
        if (event.dropped && event.dropped.length > 0) this.#dropped = event.dropped;
        return;
      case "text-delta": {
        if (event.logprobs !== undefined && event.logprobs !== null) this.#logprobs = mergeLogprobs(this.#logprobs, event.logprobs);
        if (event.text === "") return;
        const last = this.#content[this.#content.length - 1];
        if (last?.type === "text") last.text += event.text;
        else this.#content.push({ type: "text", text: event.text });
        return;
      }
      case "tool-call-delta": {
        let call = this.#toolCalls.get(event.index);
        if (!call) {
          call = { type: "tool-call", id: "", name: "", arguments: "" };
          this.#toolCalls.set(event.index, call);
          this.#content.push(call);
        }
        if (event.id) call.id = event.id;
        // The name comes whole with the call's first delta; some providers repeat it on later ones.
        if (event.name && call.name === "") call.name = event.name;
        if (event.argumentsDelta) call.arguments += event.argumentsDelta;
        return;
      }
      case "thinking-delta": {
        const block = (this.#thinking[event.index] ??= { type: "thinking", text: "" });
        if (event.text) block.text += event.text;
        if (event.signature) block.signature = (block.signature ?? "") + event.signature;
        if (event.redactedData) block.redactedData = (block.redactedData ?? "") + event.redactedData;
        return;
      }
      case "finish":
        this.#finishReason = event.reason;
        if (event.usage) this.#usage = event.usage;
        return;
      case "error":
        // The commit point throws on error events before they get here; nothing of an error is an answer.
        return;
    }
  }

  get finished(): boolean {
    return this.#finishReason !== undefined;
  }

  response(): CanonicalResponse {
    const thinking = this.#thinking.filter((block): block is CanonicalThinking => block !== undefined);
    const hasToolCalls = this.#toolCalls.size > 0;
    return {
      id: this.#id ?? this.fallback.id,
      model: this.#model ?? this.fallback.model,
      content: this.#content.map((part) => ({ ...part })),
      ...(thinking.length > 0 ? { thinking: thinking.map((block) => ({ ...block })) } : {}),
      finishReason: this.#finishReason ?? (hasToolCalls ? "tool_calls" : "stop"),
      usage: this.#usage ?? NO_USAGE,
      ...(this.#logprobs !== undefined ? { logprobs: this.#logprobs } : {}),
      ...(this.#dropped ? { dropped: this.#dropped } : {}),
    };
  }
}
