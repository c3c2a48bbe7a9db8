/**
 * Anthropic stream events → canonical stream events. Pure state machine: content blocks are numbered
 * across text and tool use, canonical tool-call indexes count tool calls only.
 */
import type { CanonicalFinishReason, CanonicalStreamEvent } from "../../ports/canonical.js";
import { toolArgumentsText } from "../shared/tool-arguments.js";
import { mapAnthropicFinishReason } from "./map-anthropic-finish-reason.js";
import { anthropicInputTokens } from "./anthropic-response.js";
import type { AnthropicStreamEvent } from "./anthropic-wire.js";

type NonErrorEvent = Exclude<AnthropicStreamEvent, { type: "error" }>;

interface ToolBlock {
  toolIndex: number;
  /** The start event already carried the whole input (some proxies do that); later deltas would repeat it. */
  inputComplete: boolean;
}

export class AnthropicStreamTranslator {
  private readonly toolBlocks = new Map<number, ToolBlock>();
  private nextToolIndex = 0;
  private inputTokens = 0;
  private outputTokens = 0;
  private finishReason: CanonicalFinishReason | undefined;

  /** Events for one stream event; `complete` once `message_stop` arrived. */
  accept(event: NonErrorEvent): { events: CanonicalStreamEvent[]; complete: boolean } {
    switch (event.type) {
      case "message_start":
        if (event.message.usage) this.takeUsage(event.message.usage);
        return this.step([{ type: "message-start", id: event.message.id, model: event.message.model }]);
      case "content_block_start":
        return this.step(this.blockStart(event));
      case "content_block_delta":
        return this.step(this.blockDelta(event));
      case "message_delta":
        if (event.delta.stop_reason) this.finishReason = mapAnthropicFinishReason(event.delta.stop_reason);
        if (event.usage) this.takeUsage(event.usage);
        return this.step([]);
      case "message_stop":
        return { events: [this.finishEvent(this.finishReason ?? (this.nextToolIndex > 0 ? "tool_calls" : "stop"))], complete: true };
      case "content_block_stop":
      case "ping":
        return this.step([]);
    }
  }

  /** The body ended without `message_stop`: complete only if the stop reason had arrived (R-ST-2). */
  finishAtEnd(): CanonicalStreamEvent[] | undefined {
    return this.finishReason === undefined ? undefined : [this.finishEvent(this.finishReason)];
  }

  private blockStart(event: Extract<NonErrorEvent, { type: "content_block_start" }>): CanonicalStreamEvent[] {
    const block = event.content_block;
    if (block.type === "text") return block.text ? [{ type: "text-delta", text: block.text }] : [];
    if (block.type !== "tool_use") return [];
    const hasInput = typeof block.input === "object" && block.input !== null && Object.keys(block.input).length > 0;
    const tool: ToolBlock = { toolIndex: this.nextToolIndex++, inputComplete: hasInput };
    this.toolBlocks.set(event.index, tool);
    return [
      {
        type: "tool-call-delta",
        index: tool.toolIndex,
        ...(block.id ? { id: block.id } : {}),
        ...(block.name ? { name: block.name } : {}),
        ...(hasInput ? { argumentsDelta: toolArgumentsText(block.input) } : {}),
      },
    ];
  }

  private blockDelta(event: Extract<NonErrorEvent, { type: "content_block_delta" }>): CanonicalStreamEvent[] {
    const { delta } = event;
    if (delta.type === "text_delta" && delta.text) return [{ type: "text-delta", text: delta.text }];
    if (delta.type !== "input_json_delta" || !delta.partial_json) return [];
    const tool = this.toolBlocks.get(event.index);
    if (!tool || tool.inputComplete) return [];
    return [{ type: "tool-call-delta", index: tool.toolIndex, argumentsDelta: delta.partial_json }];
  }

  private takeUsage(usage: Parameters<typeof anthropicInputTokens>[0]): void {
    // message_delta usage is cumulative; input counts appear there only on newer API versions.
    if (usage.input_tokens != null || usage.cache_read_input_tokens != null || usage.cache_creation_input_tokens != null) {
      this.inputTokens = anthropicInputTokens(usage);
    }
    if (usage.output_tokens != null) this.outputTokens = usage.output_tokens;
  }

  private finishEvent(reason: CanonicalFinishReason): CanonicalStreamEvent {
    return { type: "finish", reason, usage: { inputTokens: this.inputTokens, outputTokens: this.outputTokens } };
  }

  private step(events: CanonicalStreamEvent[]): { events: CanonicalStreamEvent[]; complete: boolean } {
    return { events, complete: false };
  }
}
