/**
 * Anthropic stream events → canonical stream events. Pure state machine: content blocks are numbered
 * across text and tool use, canonical tool-call indexes count tool calls only.
 */
import type { CanonicalFinishReason, CanonicalStreamEvent, CanonicalUsage } from "../../ports/canonical.js";
import { toolArgumentsText } from "../shared/tool-arguments.js";
import { mapAnthropicFinishReason } from "./finish-reasons.js";
import type { AnthropicStreamEvent, AnthropicUsage } from "./schemas.js";

type NonErrorEvent = Exclude<AnthropicStreamEvent, { type: "error" }>;

interface ToolBlock {
  toolIndex: number;
  /** The start event already carried the whole input (some proxies do that); later deltas would repeat it. */
  inputComplete: boolean;
}

export class AnthropicStreamTranslator {
  private readonly toolBlocks = new Map<number, ToolBlock>();
  /** Content block index → position among thinking blocks. */
  private readonly thinkingBlocks = new Map<number, number>();
  private nextToolIndex = 0;
  private inputTokens = 0;
  private outputTokens = 0;
  private cacheReadTokens: number | undefined;
  private cacheWriteTokens: number | undefined;
  private finishReason: CanonicalFinishReason | undefined;

  constructor(private readonly options: { dropped?: readonly string[] } = {}) {}

  /** Events for one stream event; `complete` once `message_stop` arrived. */
  accept(event: NonErrorEvent): { events: CanonicalStreamEvent[]; complete: boolean } {
    const events: CanonicalStreamEvent[] = [];
    const complete = this.take(event, (canonical) => events.push(canonical));
    return { events, complete };
  }

  /** `accept` without the step's arrays: each canonical event goes to `emit`; true once `message_stop` arrived. */
  take(event: NonErrorEvent, emit: (event: CanonicalStreamEvent) => void): boolean {
    switch (event.type) {
      case "message_start": {
        if (event.message.usage) this.takeUsage(event.message.usage);
        const statedInput = this.statedInputTokens();
        emit({
          type: "message-start",
          id: event.message.id,
          model: event.message.model,
          ...(this.options.dropped && this.options.dropped.length > 0 ? { dropped: this.options.dropped } : {}),
          ...(statedInput > 0 ? { inputTokens: statedInput } : {}),
        });
        return false;
      }
      case "content_block_start": {
        const canonical = this.blockStart(event);
        if (canonical) emit(canonical);
        return false;
      }
      case "content_block_delta": {
        const canonical = this.blockDelta(event);
        if (canonical) emit(canonical);
        return false;
      }
      case "message_delta":
        if (event.delta.stop_reason) this.finishReason = mapAnthropicFinishReason(event.delta.stop_reason);
        if (event.usage) this.takeUsage(event.usage);
        return false;
      case "message_stop":
        emit(this.finishEvent(this.finishReason ?? (this.nextToolIndex > 0 ? "tool_calls" : "stop")));
        return true;
      case "content_block_stop":
      case "ping":
        return false;
    }
  }

  /** The body ended without `message_stop`: complete only if the stop reason had arrived (R-ST-2). */
  finishAtEnd(): CanonicalStreamEvent[] | undefined {
    return this.finishReason === undefined ? undefined : [this.finishEvent(this.finishReason)];
  }

  private blockStart(event: Extract<NonErrorEvent, { type: "content_block_start" }>): CanonicalStreamEvent | undefined {
    const block = event.content_block;
    if (block.type === "text") return block.text ? { type: "text-delta", text: block.text } : undefined;
    if (block.type === "thinking" || block.type === "redacted_thinking") {
      const index = this.thinkingBlocks.size;
      this.thinkingBlocks.set(event.index, index);
      return {
        type: "thinking-delta",
        index,
        ...(block.thinking ? { text: block.thinking } : {}),
        ...(block.signature ? { signature: block.signature } : {}),
        ...(block.type === "redacted_thinking" ? { redactedData: block.data ?? "" } : {}),
      };
    }
    if (block.type !== "tool_use") return undefined;
    const hasInput = typeof block.input === "object" && block.input !== null && Object.keys(block.input).length > 0;
    const tool: ToolBlock = { toolIndex: this.nextToolIndex++, inputComplete: hasInput };
    this.toolBlocks.set(event.index, tool);
    return {
      type: "tool-call-delta",
      index: tool.toolIndex,
      ...(block.id ? { id: block.id } : {}),
      ...(block.name ? { name: block.name } : {}),
      ...(hasInput ? { argumentsDelta: toolArgumentsText(block.input) } : {}),
    };
  }

  private blockDelta(event: Extract<NonErrorEvent, { type: "content_block_delta" }>): CanonicalStreamEvent | undefined {
    const { delta } = event;
    if (delta.type === "text_delta" && delta.text) return { type: "text-delta", text: delta.text };
    const thinkingIndex = this.thinkingBlocks.get(event.index);
    if (thinkingIndex !== undefined && delta.type === "thinking_delta" && delta.thinking) {
      return { type: "thinking-delta", index: thinkingIndex, text: delta.thinking };
    }
    if (thinkingIndex !== undefined && delta.type === "signature_delta" && delta.signature) {
      return { type: "thinking-delta", index: thinkingIndex, signature: delta.signature };
    }
    if (delta.type !== "input_json_delta" || !delta.partial_json) return undefined;
    const tool = this.toolBlocks.get(event.index);
    if (!tool || tool.inputComplete) return undefined;
    return { type: "tool-call-delta", index: tool.toolIndex, argumentsDelta: delta.partial_json };
  }

  private takeUsage(usage: AnthropicUsage): void {
    // message_delta usage is cumulative per field; input counts appear there only on newer API versions,
    // so each field keeps its last stated value and the total is summed at the end.
    if (usage.input_tokens != null) this.inputTokens = usage.input_tokens;
    if (usage.cache_read_input_tokens != null) this.cacheReadTokens = usage.cache_read_input_tokens;
    if (usage.cache_creation_input_tokens != null) this.cacheWriteTokens = usage.cache_creation_input_tokens;
    if (usage.output_tokens != null) this.outputTokens = usage.output_tokens;
  }

  /** Input tokens with cache reads and writes: what the provider counts as the request's input. */
  private statedInputTokens(): number {
    return this.inputTokens + (this.cacheReadTokens ?? 0) + (this.cacheWriteTokens ?? 0);
  }

  private finishEvent(reason: CanonicalFinishReason): CanonicalStreamEvent {
    const usage: CanonicalUsage = {
      inputTokens: this.statedInputTokens(),
      outputTokens: this.outputTokens,
      ...(this.cacheReadTokens === undefined ? {} : { cacheReadTokens: this.cacheReadTokens }),
      ...(this.cacheWriteTokens === undefined ? {} : { cacheWriteTokens: this.cacheWriteTokens }),
    };
    return { type: "finish", reason, usage };
  }
}
