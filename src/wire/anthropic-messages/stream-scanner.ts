/**
 * The Anthropic Messages stream scanner of the same-wire lane (SPEC R-GW-6, R-ST-1…R-ST-3): finds the
 * commit point, the stop reason, the usage, `event: error` and `message_stop` on the bytes of each upstream
 * read. Events are told apart by their `event:` line; after the commit only `message_delta`,
 * `message_stop` and `error` are parsed. One forwarded buffer per read; the one edit to the bytes is the
 * `model` of `message_start`, which names the model that answered (R-ST-3).
 */
import { SameWireStreamScanner, type EventVerdict, type ScannedEventSink } from "../shared/same-wire-scanner.js";
import {
  eventField,
  forEachEvent,
  modelSwap,
  parseEventJson,
  replaceAll,
  type DeliveredAnswer,
  type StreamScanEnd,
} from "../shared/sse-bytes.js";

export interface AnthropicScannerOptions {
  /** `provider/model` shown in `message_start` (R-ST-3). */
  shownModel: string;
  /** The reads are assembled into one answer renamed once (R-ST-6): the events keep the upstream model. */
  keepUpstreamModel?: boolean;
  /** Gets each kept event's JSON (an assembler, R-ST-6). */
  onEvent?: ScannedEventSink;
  /** The reads are only assembled (R-ST-6): `push` forwards no bytes, the events go to `onEvent`. */
  assembleOnly?: boolean;
}

export const ANTHROPIC_MESSAGE_STOP_BYTES = Buffer.from('event: message_stop\ndata: {"type":"message_stop"}\n\n');

interface AnthropicEvent {
  type?: unknown;
  message?: { model?: unknown; usage?: Record<string, unknown> };
  content_block?: { type?: unknown; text?: unknown; id?: unknown; name?: unknown };
  delta?: { type?: unknown; text?: unknown; thinking?: unknown; partial_json?: unknown; stop_reason?: unknown };
  usage?: Record<string, unknown>;
  index?: unknown;
  error?: unknown;
}

/** Event names the scanner acts on; anything else (ping, new types) passes as sent. */
/** The event's name, read from the read's text (bytesAsText): usually its first line. */
function eventNameOf(bytes: Buffer, text: string, start: number, end: number): string | undefined {
  if (!text.startsWith("event:", start)) return eventField(bytes, start, end, "event")?.trim();
  let lineEnd = text.indexOf("\n", start);
  if (lineEnd === -1 || lineEnd > end) lineEnd = end;
  return text.slice(start + 6, lineEnd).trim();
}

function isContentStart(event: AnthropicEvent): boolean {
  const block = event.content_block;
  if (!block) return false;
  if (block.type === "text") return typeof block.text === "string" && block.text !== "";
  // Tool calls (client or server tools) are content from their first frame on (R-ST-1).
  return block.type === "tool_use" || block.type === "server_tool_use";
}

function isContentDelta(event: AnthropicEvent): boolean {
  const delta = event.delta;
  if (!delta) return false;
  if (delta.type === "text_delta") return typeof delta.text === "string" && delta.text !== "";
  // A thinking model streams its reasoning first; it reaches the client on this lane, so it commits.
  if (delta.type === "thinking_delta") return typeof delta.thinking === "string" && delta.thinking !== "";
  return delta.type === "input_json_delta";
}

export class AnthropicStreamScanner extends SameWireStreamScanner<Record<string, unknown>> {
  constructor(options: AnthropicScannerOptions) {
    super(options.shownModel, options.keepUpstreamModel !== true, options.onEvent, options.assembleOnly !== true);
  }

  end(): StreamScanEnd {
    // R-ST-2: a stop reason without the closing frame is a complete answer.
    return this.endWithTerminalFrame(ANTHROPIC_MESSAGE_STOP_BYTES);
  }

  delivered(): DeliveredAnswer {
    const answer: DeliveredAnswer = { text: "", toolCalls: [] };
    const bytes = this.forwardedBytes();
    const toolOfBlock = new Map<number, DeliveredAnswer["toolCalls"][number]>();
    const blocks: NonNullable<DeliveredAnswer["blocks"]> = { started: 0 };
    answer.blocks = blocks;
    forEachEvent(bytes, bytes.length, (start, end) => {
      const data = eventField(bytes, start, end, "data");
      const event = data === undefined ? undefined : (parseEventJson(data) as AnthropicEvent | undefined);
      if (!event || typeof event.index !== "number") return;
      if (event.type === "content_block_start") {
        blocks.started = Math.max(blocks.started, event.index + 1);
        if (event.content_block?.type === "text") blocks.openText = event.index;
        else delete blocks.openText;
      } else if (event.type === "content_block_stop" && blocks.openText === event.index) {
        delete blocks.openText;
      }
      if (event.type === "content_block_start" && event.content_block?.type === "tool_use") {
        const call = {
          index: toolOfBlock.size,
          ...(typeof event.content_block.id === "string" ? { id: event.content_block.id } : {}),
          ...(typeof event.content_block.name === "string" ? { name: event.content_block.name } : {}),
          arguments: "",
        };
        toolOfBlock.set(event.index, call);
        answer.toolCalls.push(call);
      } else if (event.type === "content_block_delta") {
        if (event.delta?.type === "text_delta" && typeof event.delta.text === "string") answer.text += event.delta.text;
        const call = toolOfBlock.get(event.index);
        if (call && event.delta?.type === "input_json_delta" && typeof event.delta.partial_json === "string") {
          call.arguments += event.delta.partial_json;
        }
      }
    });
    return answer;
  }

  protected scanEvent(bytes: Buffer, start: number, end: number, text: string): EventVerdict {
    const name = eventNameOf(bytes, text, start, end);
    const afterCommitQuiet =
      this.hasCommitted && (name === "content_block_delta" || name === "content_block_stop" || name === "content_block_start");
    if (afterCommitQuiet || name === "ping") return "keep";
    const data = eventField(bytes, start, end, "data");
    if (data === undefined) return "keep";
    const event = parseEventJson(data) as AnthropicEvent | undefined;
    this.parsedEvent = event;
    if (event === undefined || typeof event !== "object" || event === null) {
      this.malformedCount += 1;
      return "drop";
    }
    switch (name ?? event.type) {
      case "message_start": {
        const usage = event.message?.usage;
        if (usage) this.usageSeen = { ...usage };
        const swap = this.swapModel ? modelSwap(bytes.toString("utf8", start, end), this.shownModel) : undefined;
        return swap ? replaceAll(bytes.subarray(start, end), swap.needle, swap.replacement) : "keep";
      }
      case "content_block_start":
        if (isContentStart(event)) this.hasCommitted = true;
        return "keep";
      case "content_block_delta":
        if (isContentDelta(event)) this.hasCommitted = true;
        return "keep";
      case "message_delta":
        if (typeof event.delta?.stop_reason === "string") {
          this.finish = event.delta.stop_reason;
          this.hasCommitted = true;
        }
        if (event.usage) this.usageSeen = { ...(this.usageSeen ?? {}), ...event.usage };
        return "keep";
      case "message_stop":
        this.isComplete = true;
        this.hasCommitted = true;
        return "keep";
      case "error":
        this.failure = event.error ?? event;
        return "fail";
      default:
        return "keep";
    }
  }
}
