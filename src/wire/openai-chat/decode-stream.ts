/**
 * OpenAI chat-completion chunks → canonical stream events. Pure state machine; the provider feeds it
 * parsed SSE data and asks it at the end whether the answer was complete.
 */
import type { CanonicalFinishReason, CanonicalStreamEvent, CanonicalUsage } from "../../ports/canonical.js";
import { mapOpenAiFinishReason } from "./finish-reasons.js";
import type { OpenAiChatChunk } from "./schemas.js";
import { usageFromOpenAi } from "./usage.js";

/** What one chunk produced: events, whether the answer is complete, and a raw `error` finish reason. */
export interface OpenAiStreamStep {
  events: CanonicalStreamEvent[];
  complete: boolean;
  /** Set when the chunk ended the answer with finish reason `error` (OpenRouter); the caller fails it. */
  failedWith?: string;
}

export class OpenAiStreamTranslator {
  private started = false;
  private sawToolCall = false;
  private finishReason: CanonicalFinishReason | undefined;
  private usage: CanonicalUsage | undefined;

  constructor(private readonly fallback: { model: string; createId: () => string; dropped?: readonly string[] }) {}

  /** Events for one chunk. `complete` is true once finish reason and usage are both known. */
  accept(chunk: OpenAiChatChunk): OpenAiStreamStep {
    const events = this.startEvents(chunk);
    // Only the first choice is relayed: canonical answers have one message.
    const choice = chunk.choices.find((candidate) => (candidate.index ?? 0) === 0);
    const delta = choice?.delta;
    const text = (delta?.content ?? "") + (delta?.refusal ?? "");
    const logprobs = choice?.logprobs;
    if (text !== "") events.push({ type: "text-delta", text, ...(logprobs === undefined || logprobs === null ? {} : { logprobs }) });
    for (const call of delta?.tool_calls ?? []) {
      this.sawToolCall = true;
      const name = call.function?.name;
      const argumentsDelta = call.function?.arguments;
      events.push({
        type: "tool-call-delta",
        index: call.index,
        ...(call.id ? { id: call.id } : {}),
        ...(name ? { name } : {}),
        ...(argumentsDelta ? { argumentsDelta } : {}),
      });
    }
    if (choice?.finish_reason) {
      this.finishReason = mapOpenAiFinishReason(choice.finish_reason);
      if (this.finishReason === "error") return { events, complete: false, failedWith: choice.finish_reason };
    }
    if (chunk.usage) this.usage = usageFromOpenAi(chunk.usage);
    return { events, complete: this.finishReason !== undefined && this.usage !== undefined };
  }

  /** The terminal event after `[DONE]`: an explicit end marker completes the answer even without a reason. */
  finishOnDone(): CanonicalStreamEvent[] {
    return [...this.startEvents({}), this.finishEvent(this.finishReason ?? (this.sawToolCall ? "tool_calls" : "stop"))];
  }

  /**
   * The terminal event when the body ended without `[DONE]`: complete only if a finish reason arrived
   * (R-ST-2); otherwise undefined, meaning the stream was cut.
   */
  finishAtEnd(): CanonicalStreamEvent[] | undefined {
    return this.finishReason === undefined ? undefined : [this.finishEvent(this.finishReason)];
  }

  private startEvents(chunk: { id?: string; model?: string }): CanonicalStreamEvent[] {
    if (this.started) return [];
    this.started = true;
    const dropped = this.fallback.dropped;
    return [
      {
        type: "message-start",
        id: chunk.id ?? this.fallback.createId(),
        model: chunk.model ?? this.fallback.model,
        ...(dropped && dropped.length > 0 ? { dropped } : {}),
      },
    ];
  }

  private finishEvent(reason: CanonicalFinishReason): CanonicalStreamEvent {
    return { type: "finish", reason, ...(this.usage ? { usage: this.usage } : {}) };
  }
}
