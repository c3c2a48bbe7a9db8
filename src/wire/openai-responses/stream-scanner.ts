/**
 * The OpenAI Responses stream scanner of the same-wire lane (SPEC R-GW-6, R-ST-1…R-ST-3): finds the commit
 * point (the first output delta or function call), the end (`response.completed` / `response.incomplete`,
 * with the usage), and in-band failures (`error`, `response.failed`) on the bytes of each upstream read.
 * Only the event name is read for most events; JSON is parsed for the first event (the model swap), the
 * function-call items and the terminal events. One forwarded buffer per read; the one edit to the bytes is
 * the `model` value, which names the model that answered (R-ST-3). The stream has no `[DONE]`.
 */
import { SameWireStreamScanner, type EventVerdict, type ScannedEventSink } from "../shared/same-wire-scanner.js";
import { eventField, forEachEvent, parseEventJson, type DeliveredAnswer, type StreamScanEnd } from "../shared/sse-bytes.js";

export interface ResponsesScannerOptions {
  /** `provider/model` shown in the events (R-ST-3). */
  shownModel: string;
  /** The reads are assembled into one answer renamed once (R-ST-6): the events keep the upstream model. */
  keepUpstreamModel?: boolean;
  /** Gets each kept event's JSON (an assembler, R-ST-6). */
  onEvent?: ScannedEventSink;
  /** The reads are only assembled (R-ST-6): `push` forwards no bytes, the events go to `onEvent`. */
  assembleOnly?: boolean;
}

/** Events that carry the first content of an answer. */
const COMMIT_EVENTS: ReadonlySet<string> = new Set([
  "response.output_text.delta",
  "response.refusal.delta",
  "response.function_call_arguments.delta",
  "response.reasoning_summary_text.delta",
  "response.reasoning_text.delta",
]);
const TERMINAL_EVENTS: ReadonlySet<string> = new Set(["response.completed", "response.incomplete"]);
const FAILURE_EVENTS: ReadonlySet<string> = new Set(["error", "response.failed"]);

interface ScannedEvent {
  type?: unknown;
  delta?: unknown;
  item_id?: unknown;
  item?: { type?: unknown; id?: unknown; call_id?: unknown; name?: unknown; arguments?: unknown };
  response?: { status?: unknown; usage?: unknown; error?: unknown; incomplete_details?: { reason?: unknown } | null };
  message?: unknown;
  code?: unknown;
}

function typeOf(bytes: Buffer, start: number, end: number): { name: string | undefined; data: string | undefined } {
  const data = eventField(bytes, start, end, "data");
  const name = eventField(bytes, start, end, "event");
  if (name !== undefined || data === undefined) return { name, data };
  // Servers that omit `event:` lines still name the type inside the data.
  const parsed = parseEventJson(data) as ScannedEvent | undefined;
  return { name: typeof parsed?.type === "string" ? parsed.type : undefined, data };
}

export class ResponsesStreamScanner extends SameWireStreamScanner {
  constructor(options: ResponsesScannerOptions) {
    super(options.shownModel, options.keepUpstreamModel !== true, options.onEvent, options.assembleOnly !== true);
  }

  end(): StreamScanEnd {
    // No terminal event, no answer: a cut stream is never made to look complete (R-ST-2).
    return { complete: this.isComplete };
  }

  delivered(): DeliveredAnswer {
    const answer: DeliveredAnswer = { text: "", toolCalls: [] };
    const byItem = new Map<string, DeliveredAnswer["toolCalls"][number]>();
    const bytes = this.forwardedBytes();
    forEachEvent(bytes, bytes.length, (start, end) => {
      const data = eventField(bytes, start, end, "data");
      const event = data === undefined ? undefined : (parseEventJson(data) as ScannedEvent | undefined);
      if (!event) return;
      if (event.type === "response.output_text.delta" && typeof event.delta === "string") answer.text += event.delta;
      if (event.type === "response.output_item.added" && event.item?.type === "function_call") {
        const call = {
          index: answer.toolCalls.length,
          ...(typeof event.item.call_id === "string" ? { id: event.item.call_id } : {}),
          ...(typeof event.item.name === "string" ? { name: event.item.name } : {}),
          arguments: typeof event.item.arguments === "string" ? event.item.arguments : "",
        };
        answer.toolCalls.push(call);
        if (typeof event.item.id === "string") byItem.set(event.item.id, call);
      }
      if (event.type === "response.function_call_arguments.delta" && typeof event.delta === "string") {
        const call = byItem.get(String(event.item_id));
        if (call) call.arguments += event.delta;
      }
    });
    return answer;
  }

  protected scanEvent(bytes: Buffer, start: number, end: number): EventVerdict {
    const { name, data } = typeOf(bytes, start, end);
    // Comments and keep-alives pass as they are.
    if (data === undefined) return "keep";
    const trimmed = data.trim();
    if (!trimmed.startsWith("{") || !trimmed.endsWith("}")) {
      this.malformedCount += 1;
      return "drop";
    }
    const needsJson =
      !this.modelSwapKnown || FAILURE_EVENTS.has(name ?? "") || TERMINAL_EVENTS.has(name ?? "") || name === "response.output_item.added";
    const event = needsJson ? (parseEventJson(trimmed) as ScannedEvent | undefined) : undefined;
    if (event !== undefined) this.parsedEvent = event;
    if (needsJson && event === undefined) {
      this.malformedCount += 1;
      return "drop";
    }
    if (!this.modelSwapKnown) this.learnModelSwap(trimmed);
    if (name !== undefined && FAILURE_EVENTS.has(name)) {
      this.failure =
        name === "error" ? { message: event?.message, code: event?.code } : (event?.response?.error ?? { message: "The response failed." });
      return "fail";
    }
    if (name !== undefined && COMMIT_EVENTS.has(name)) this.hasCommitted = true;
    if (name === "response.output_item.added" && event?.item?.type === "function_call") this.hasCommitted = true;
    if (name !== undefined && TERMINAL_EVENTS.has(name)) {
      const response = event?.response;
      const status = typeof response?.status === "string" ? response.status : name === "response.completed" ? "completed" : "incomplete";
      const reason = response?.incomplete_details?.reason;
      // The finish reason is the response's `status` (`completed`, `incomplete:<reason>`), as the finish tables read it.
      this.finish = status === "incomplete" && typeof reason === "string" ? `incomplete:${reason}` : status;
      this.usageSeen = response?.usage;
      // An empty answer is still an answer (R-ST-1).
      this.hasCommitted = true;
      this.isComplete = true;
    }
    return "keep";
  }
}
