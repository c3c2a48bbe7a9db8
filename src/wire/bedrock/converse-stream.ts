/**
 * Bedrock ConverseStream events ↔ canonical stream events. Each framed piece is one event as the AWS SDKs
 * model the stream's union (`{"contentBlockDelta":{…}}`, wire/shared/aws-event-stream.ts): messageStart,
 * contentBlockStart (tool uses), contentBlockDelta (text, tool input, reasoning), contentBlockStop,
 * messageStop (the stop reason), then metadata (usage) — the answer is complete after metadata.
 */
import type { CanonicalFinishReason, CanonicalStreamEvent, CanonicalUsage } from "../../ports/canonical.js";
import { awsEventMessage, awsExceptionMessage } from "../shared/aws-event-stream.js";
import { lookupFinishReason } from "../shared/finish-reasons.js";
import { describeStreamError } from "../shared/stream-error.js";
import type { CanonicalStreamEncoder } from "../shared/stream-encoder.js";
import type { StreamDecodeSink, StreamDecoderOptions } from "../wire-format.js";
import { bedrockExceptionForStatus, describeBedrockStreamException } from "./errors.js";
import { CANONICAL_TO_CONVERSE_STOP_REASON, CONVERSE_FINISH_REASONS } from "./finish-reasons.js";
import { renderConverseUsage, usageFromConverse } from "./usage.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads one answer's Converse events; `take` returns true once the answer is complete. */
export class ConverseStreamTranslator {
  readonly #options: StreamDecoderOptions;
  #started = false;
  /** Converse content block index → canonical tool call index. */
  readonly #toolIndex = new Map<number, number>();
  #tools = 0;
  /** Content block indices that hold reasoning, and the canonical thinking index each got. */
  readonly #thinkingIndex = new Map<number, number>();
  #thinkingBlocks = 0;
  #stopReason: string | undefined;
  #usage: CanonicalUsage | undefined;

  constructor(options: StreamDecoderOptions) {
    this.#options = options;
  }

  #start(sink: StreamDecodeSink): void {
    if (this.#started) return;
    this.#started = true;
    const dropped = this.#options.dropped;
    sink.event({
      type: "message-start",
      id: this.#options.createResponseId(),
      model: this.#options.model,
      ...(dropped.length > 0 ? { dropped } : {}),
    });
  }

  #thinkingOf(block: number): number {
    let index = this.#thinkingIndex.get(block);
    if (index === undefined) {
      index = this.#thinkingBlocks++;
      this.#thinkingIndex.set(block, index);
    }
    return index;
  }

  take(eventType: string, payload: unknown, raw: string, sink: StreamDecodeSink): boolean {
    if (/exception$/i.test(eventType)) return sink.error(describeBedrockStreamException(eventType, payload));
    if (!isRecord(payload)) {
      sink.malformed(raw, `a ${eventType} event without an object`);
      return false;
    }
    const block = typeof payload.contentBlockIndex === "number" ? payload.contentBlockIndex : 0;
    switch (eventType) {
      case "messageStart":
        this.#start(sink);
        return false;
      case "contentBlockStart": {
        this.#start(sink);
        const start = isRecord(payload.start) ? payload.start : {};
        if (isRecord(start.toolUse)) {
          const index = this.#tools++;
          this.#toolIndex.set(block, index);
          const use = start.toolUse;
          sink.event({
            type: "tool-call-delta",
            index,
            ...(typeof use.toolUseId === "string" ? { id: use.toolUseId } : {}),
            ...(typeof use.name === "string" ? { name: use.name } : {}),
          });
        }
        return false;
      }
      case "contentBlockDelta":
        this.#start(sink);
        this.#delta(block, isRecord(payload.delta) ? payload.delta : {}, raw, sink);
        return false;
      case "messageStop":
        this.#stopReason = typeof payload.stopReason === "string" ? payload.stopReason : "end_turn";
        return false;
      case "metadata":
        this.#usage = usageFromConverse(payload.usage);
        if (this.#stopReason === undefined) return false;
        this.#start(sink);
        sink.event(this.#finish());
        return true;
      default:
        // contentBlockStop, and event types Bedrock may add: nothing to say.
        return false;
    }
  }

  #delta(block: number, delta: Record<string, unknown>, raw: string, sink: StreamDecodeSink): void {
    if (typeof delta.text === "string") return sink.event({ type: "text-delta", text: delta.text });
    if (isRecord(delta.toolUse)) {
      const index = this.#toolIndex.get(block) ?? this.#tools - 1;
      const input = delta.toolUse.input;
      if (typeof input === "string") sink.event({ type: "tool-call-delta", index: Math.max(0, index), argumentsDelta: input });
      return;
    }
    if (isRecord(delta.reasoningContent)) {
      const reasoning = delta.reasoningContent;
      const index = this.#thinkingOf(block);
      if (typeof reasoning.text === "string") sink.event({ type: "thinking-delta", index, text: reasoning.text });
      if (typeof reasoning.signature === "string") sink.event({ type: "thinking-delta", index, signature: reasoning.signature });
      if (typeof reasoning.redactedContent === "string")
        sink.event({ type: "thinking-delta", index, redactedData: reasoning.redactedContent });
      return;
    }
    sink.malformed(raw, "a contentBlockDelta without text, toolUse or reasoningContent");
  }

  #finish(): CanonicalStreamEvent {
    const reason: CanonicalFinishReason = lookupFinishReason(CONVERSE_FINISH_REASONS, this.#stopReason ?? "end_turn");
    return { type: "finish", reason, ...(this.#usage ? { usage: this.#usage } : {}) };
  }

  /** The body ended: a stop reason without its metadata still finishes the answer; anything less was cut. */
  end(sink: StreamDecodeSink): void {
    if (this.#stopReason === undefined) return sink.cut();
    this.#start(sink);
    sink.event(this.#finish());
  }
}

/** Bytes of AWS event-stream messages carried in a string, one character per byte (what a writer sends as latin1). */
export function binaryText(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
}

/** `ThrottlingException` → `throttlingException`: how exception frames spell their type. */
function frameExceptionType(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/**
 * Canonical events → ConverseStream messages, each returned as binary text (`binaryText`): what the mock
 * provider sends for a non-Claude Bedrock model. Text blocks open without a start event, as Bedrock sends them.
 */
export function createConverseStreamEncoder(): CanonicalStreamEncoder {
  let finished = false;
  let block = -1;
  let open: { kind: "text" | "reasoning" } | { kind: "tool"; index: number } | undefined;
  const close = (): string[] => {
    if (!open) return [];
    open = undefined;
    return [binaryText(awsEventMessage("contentBlockStop", { contentBlockIndex: block }))];
  };
  const delta = (payload: Record<string, unknown>) =>
    binaryText(awsEventMessage("contentBlockDelta", { contentBlockIndex: block, delta: payload }));
  return {
    get finished() {
      return finished;
    },
    encode(event) {
      if (finished) return [];
      switch (event.type) {
        case "message-start":
          return [binaryText(awsEventMessage("messageStart", { role: "assistant" }))];
        case "text-delta": {
          const frames = open?.kind === "text" ? [] : close();
          if (open?.kind !== "text") {
            block += 1;
            open = { kind: "text" };
          }
          return [...frames, delta({ text: event.text })];
        }
        case "thinking-delta": {
          const frames = open?.kind === "reasoning" ? [] : close();
          if (open?.kind !== "reasoning") {
            block += 1;
            open = { kind: "reasoning" };
          }
          if (event.text !== undefined) frames.push(delta({ reasoningContent: { text: event.text } }));
          if (event.signature !== undefined) frames.push(delta({ reasoningContent: { signature: event.signature } }));
          if (event.redactedData !== undefined) frames.push(delta({ reasoningContent: { redactedContent: event.redactedData } }));
          return frames;
        }
        case "tool-call-delta": {
          const frames: string[] = [];
          if (!(open?.kind === "tool" && open.index === event.index)) {
            frames.push(...close());
            block += 1;
            open = { kind: "tool", index: event.index };
            const start = { toolUse: { toolUseId: event.id ?? `tooluse_${event.index}`, name: event.name ?? "" } };
            frames.push(binaryText(awsEventMessage("contentBlockStart", { contentBlockIndex: block, start })));
          }
          if (event.argumentsDelta) frames.push(delta({ toolUse: { input: event.argumentsDelta } }));
          return frames;
        }
        case "finish": {
          finished = true;
          const usage = event.usage ?? { inputTokens: 0, outputTokens: 0 };
          return [
            ...close(),
            binaryText(awsEventMessage("messageStop", { stopReason: CANONICAL_TO_CONVERSE_STOP_REASON[event.reason] })),
            binaryText(awsEventMessage("metadata", { usage: renderConverseUsage(usage), metrics: { latencyMs: 0 } })),
          ];
        }
        case "error": {
          finished = true;
          const error = describeStreamError(event.error);
          const name = bedrockExceptionForStatus(error.status ?? 500);
          return [binaryText(awsExceptionMessage(frameExceptionType(name), error.message))];
        }
      }
    },
  };
}

/** An in-stream exception for a status, as binary text: what a failing Bedrock stream sends. */
export function bedrockExceptionFrame(status: number, message: string): string {
  return binaryText(awsExceptionMessage(frameExceptionType(bedrockExceptionForStatus(status)), message));
}
