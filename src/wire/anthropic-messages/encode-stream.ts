/**
 * Canonical stream events → Anthropic SSE frames. Pure: the encoder only returns strings. Frames:
 * message_start, content_block_start / content_block_delta (text_delta, input_json_delta) /
 * content_block_stop per block, message_delta with stop_reason and usage, message_stop. An error event
 * (or a `finish` whose reason is `error`) becomes `event: error` and nothing follows it (R-ST-2).
 */
import type { CanonicalStreamEvent } from "../../ports/canonical.js";
import { describeStreamError } from "../shared/stream-error.js";
import { encodeWholeStream, endingEncoder, StreamOpening, type CanonicalStreamEncoder } from "../shared/stream-encoder.js";
import { anthropicStreamErrorFrame, type AnthropicErrorInput } from "./errors.js";
import { CANONICAL_TO_ANTHROPIC_STOP_REASON } from "./finish-reasons.js";
import { renderAnthropicUsage } from "./usage.js";

export interface AnthropicStreamOptions {
  /** Used until a `message-start` event names them. */
  id?: string;
  model?: string;
  /** Reported in message_start when known before the first token. */
  inputTokens?: number;
  describeError?: (error: unknown) => AnthropicErrorInput;
  /**
   * R-ST-4: go on with a stream whose first part was already sent: no message_start, block indices after
   * `started`, and text deltas into the still open text block `openText`.
   */
  resume?: { started: number; openText?: number };
}

export type AnthropicStreamEncoder = CanonicalStreamEncoder;

function sseEvent(type: string, payload: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
}

function defaultDescribeError(error: unknown): AnthropicErrorInput {
  const { message, status } = describeStreamError(error);
  return { message, status: status ?? 500 };
}

export function createAnthropicStreamEncoder(options: AnthropicStreamOptions = {}): AnthropicStreamEncoder {
  const describeError = options.describeError ?? defaultDescribeError;
  const ended = { finished: false };
  let nextBlockIndex = options.resume?.started ?? 0;
  let openBlock: { index: number; kind: "text" | "tool" | "thinking"; toolIndex?: number } | undefined =
    options.resume?.openText !== undefined ? { index: options.resume.openText, kind: "text" } : undefined;
  /** Canonical thinking position → Anthropic content block index. */
  const thinkingBlocks = new Map<number, number>();
  /** Canonical tool position → Anthropic content block index. */
  const toolBlocks = new Map<number, number>();

  const opening = new StreamOpening({
    id: options.id ?? "msg_detour",
    model: options.model ?? "",
    started: options.resume !== undefined,
    frames: ({ id, model }) => [
      sseEvent("message_start", {
        message: {
          id,
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: options.inputTokens ?? 0, output_tokens: 0 },
        },
      }),
    ],
  });
  const start = (): string[] => opening.start();
  const closeOpenBlock = (): string[] => {
    if (!openBlock) return [];
    const frame = sseEvent("content_block_stop", { index: openBlock.index });
    openBlock = undefined;
    return [frame];
  };
  const fail = (error: AnthropicErrorInput): string[] => {
    ended.finished = true;
    return [anthropicStreamErrorFrame(error)];
  };

  return endingEncoder(ended, (event) => {
    switch (event.type) {
      case "message-start":
        return opening.messageStart(event);
      case "text-delta": {
        const frames = start();
        if (openBlock?.kind !== "text") {
          frames.push(...closeOpenBlock());
          openBlock = { index: nextBlockIndex++, kind: "text" };
          frames.push(sseEvent("content_block_start", { index: openBlock.index, content_block: { type: "text", text: "" } }));
        }
        frames.push(sseEvent("content_block_delta", { index: openBlock.index, delta: { type: "text_delta", text: event.text } }));
        return frames;
      }
      case "thinking-delta": {
        const frames = start();
        let blockIndex = thinkingBlocks.get(event.index);
        if (blockIndex === undefined) {
          frames.push(...closeOpenBlock());
          blockIndex = nextBlockIndex++;
          thinkingBlocks.set(event.index, blockIndex);
          openBlock = { index: blockIndex, kind: "thinking" };
          const block =
            event.redactedData !== undefined
              ? { type: "redacted_thinking", data: event.redactedData }
              : { type: "thinking", thinking: "", signature: "" };
          frames.push(sseEvent("content_block_start", { index: blockIndex, content_block: block }));
        }
        if (event.text) {
          frames.push(sseEvent("content_block_delta", { index: blockIndex, delta: { type: "thinking_delta", thinking: event.text } }));
        }
        if (event.signature) {
          frames.push(
            sseEvent("content_block_delta", { index: blockIndex, delta: { type: "signature_delta", signature: event.signature } }),
          );
        }
        return frames;
      }
      case "tool-call-delta": {
        const frames = start();
        let blockIndex = toolBlocks.get(event.index);
        if (blockIndex === undefined) {
          frames.push(...closeOpenBlock());
          blockIndex = nextBlockIndex++;
          toolBlocks.set(event.index, blockIndex);
          openBlock = { index: blockIndex, kind: "tool", toolIndex: event.index };
          frames.push(
            sseEvent("content_block_start", {
              index: blockIndex,
              content_block: { type: "tool_use", id: event.id ?? `toolu_detour_${event.index}`, name: event.name ?? "", input: {} },
            }),
          );
        }
        // Interleaved deltas for an earlier tool keep its block index; clients accumulate by index.
        if (event.argumentsDelta) {
          frames.push(
            sseEvent("content_block_delta", {
              index: blockIndex,
              delta: { type: "input_json_delta", partial_json: event.argumentsDelta },
            }),
          );
        }
        return frames;
      }
      case "finish": {
        if (event.reason === "error") return fail({ message: "The upstream model stopped with an error.", status: 500 });
        const frames = [...start(), ...closeOpenBlock()];
        ended.finished = true;
        frames.push(
          sseEvent("message_delta", {
            delta: { stop_reason: CANONICAL_TO_ANTHROPIC_STOP_REASON[event.reason], stop_sequence: null },
            usage: event.usage ? renderAnthropicUsage(event.usage) : { output_tokens: 0 },
          }),
          sseEvent("message_stop", {}),
        );
        return frames;
      }
      case "error":
        return fail(describeError(event.error));
    }
  });
}

/** All frames for a complete event sequence. */
export function encodeAnthropicStream(events: Iterable<CanonicalStreamEvent>, options: AnthropicStreamOptions = {}): string[] {
  return encodeWholeStream(createAnthropicStreamEncoder(options), events);
}
