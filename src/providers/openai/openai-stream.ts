/**
 * OpenAI chat-completion chunks → canonical stream events. Pure state machine; the provider feeds it
 * parsed SSE data and asks it at the end whether the answer was complete.
 */
import type { CanonicalFinishReason, CanonicalStreamEvent, CanonicalUsage } from "../../ports/canonical.js";
import { errorStopReasonFailure } from "../shared/upstream-failure.js";
import { mapOpenAiFinishReason } from "./map-openai-finish-reason.js";
import { toCanonicalUsage } from "./openai-response.js";
import type { OpenAiChatChunk } from "./openai-wire.js";

export class OpenAiStreamTranslator {
  private started = false;
  private sawToolCall = false;
  private finishReason: CanonicalFinishReason | undefined;
  private usage: CanonicalUsage | undefined;

  constructor(
    private readonly provider: string,
    private readonly fallback: { model: string; createId: () => string },
  ) {}

  /** Events for one chunk. `complete` is true once finish reason and usage are both known. */
  accept(chunk: OpenAiChatChunk): { events: CanonicalStreamEvent[]; complete: boolean } {
    const events = this.startEvents(chunk);
    // Only the first choice is relayed: canonical answers have one message.
    const choice = chunk.choices.find((candidate) => (candidate.index ?? 0) === 0);
    const delta = choice?.delta;
    const text = (delta?.content ?? "") + (delta?.refusal ?? "");
    if (text !== "") events.push({ type: "text-delta", text });
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
      if (this.finishReason === "error") throw errorStopReasonFailure(this.provider, choice.finish_reason);
    }
    if (chunk.usage) this.usage = toCanonicalUsage(chunk.usage);
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
    return [{ type: "message-start", id: chunk.id ?? this.fallback.createId(), model: chunk.model ?? this.fallback.model }];
  }

  private finishEvent(reason: CanonicalFinishReason): CanonicalStreamEvent {
    return { type: "finish", reason, ...(this.usage ? { usage: this.usage } : {}) };
  }
}
