/**
 * Canonical stream events → OpenAI Responses SSE events (`event: <type>` + `data: {type, …, sequence_number}`).
 * Pure: the encoder only returns strings. Order, as the API sends it: `response.created`,
 * `response.in_progress`, then per output item `output_item.added`, its deltas and `…done` events,
 * `output_item.done`, and finally `response.completed` (or `response.incomplete`) carrying the whole response
 * with usage. A failure becomes `response.failed` and nothing follows it (R-ST-2).
 */
import type { CanonicalStreamEvent, CanonicalUsage } from "../../ports/canonical.js";
import { describeStreamError } from "../shared/stream-error.js";
import { encodeWholeStream, endingEncoder, StreamOpening, type CanonicalStreamEncoder } from "../shared/stream-encoder.js";
import { functionCallItemId, messageItemId, outputTextPart, responseEnvelope, type ResponsesOutputItemJson } from "./encode-response.js";
import { CANONICAL_TO_RESPONSES_STATUS } from "./status.js";

export interface ResponsesStreamOptions {
  /** Used until a `message-start` event names them. */
  id?: string;
  model?: string;
  createdSeconds: number;
  /** Turns an `error` event's payload into the failure's message and code. */
  describeError?: (error: unknown) => { message: string; code?: string };
}

export type ResponsesStreamEncoder = CanonicalStreamEncoder;

export function responsesSseEvent(payload: { type: string } & Record<string, unknown>): string {
  return `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`;
}

interface OpenMessage {
  outputIndex: number;
  id: string;
  text: string;
  logprobs: unknown[];
}

interface OpenCall {
  outputIndex: number;
  id: string;
  callId: string;
  name: string;
  arguments: string;
}

function defaultDescribeError(error: unknown): { message: string; code?: string } {
  const { message, code } = describeStreamError(error);
  return { message, ...(code === undefined ? {} : { code }) };
}

export function createResponsesStreamEncoder(options: ResponsesStreamOptions): ResponsesStreamEncoder {
  const created = options.createdSeconds;
  const describeError = options.describeError ?? defaultDescribeError;
  let sequence = 0;
  const ended = { finished: false };
  const output: ResponsesOutputItemJson[] = [];
  let message: OpenMessage | undefined;
  const calls = new Map<number, OpenCall>();
  let openCall: OpenCall | undefined;

  const emit = (type: string, fields: Record<string, unknown>) => responsesSseEvent({ type, ...fields, sequence_number: sequence++ });
  const envelope = (
    status: "in_progress" | "completed" | "incomplete" | "failed",
    usage?: CanonicalUsage,
    extra: { incompleteReason?: string; error?: { code: string; message: string } } = {},
  ) =>
    responseEnvelope({
      id: opening.id,
      model: opening.model,
      createdSeconds: created,
      status,
      output: status === "in_progress" ? [] : output,
      usage,
      ...extra,
    });

  const opening: StreamOpening = new StreamOpening({
    id: options.id ?? "resp_detour",
    model: options.model ?? "",
    started: false,
    frames: () => [
      emit("response.created", { response: envelope("in_progress") }),
      emit("response.in_progress", { response: envelope("in_progress") }),
    ],
  });
  const start = (): string[] => opening.start();

  const closeMessage = (): string[] => {
    if (!message) return [];
    const open = message;
    message = undefined;
    const part = outputTextPart(open.text, open.logprobs.length > 0 ? open.logprobs : undefined);
    const item = { type: "message", id: open.id, status: "completed", role: "assistant", content: [part] };
    output[open.outputIndex] = item;
    const where = { item_id: open.id, output_index: open.outputIndex, content_index: 0 };
    return [
      emit("response.output_text.done", { ...where, text: open.text, logprobs: open.logprobs }),
      emit("response.content_part.done", { ...where, part }),
      emit("response.output_item.done", { output_index: open.outputIndex, item }),
    ];
  };

  const closeCall = (): string[] => {
    if (!openCall) return [];
    const call = openCall;
    openCall = undefined;
    const item = {
      type: "function_call",
      id: call.id,
      call_id: call.callId,
      name: call.name,
      arguments: call.arguments,
      status: "completed",
    };
    output[call.outputIndex] = item;
    return [
      emit("response.function_call_arguments.done", {
        item_id: call.id,
        output_index: call.outputIndex,
        name: call.name,
        arguments: call.arguments,
      }),
      emit("response.output_item.done", { output_index: call.outputIndex, item }),
    ];
  };

  const text = (delta: string, logprobs: unknown): string[] => {
    const frames = [...start(), ...closeCall()];
    if (!message) {
      const outputIndex = output.length;
      message = { outputIndex, id: messageItemId(opening.id, outputIndex), text: "", logprobs: [] };
      output.push({ type: "message", id: message.id, status: "in_progress", role: "assistant", content: [] });
      frames.push(
        emit("response.output_item.added", { output_index: outputIndex, item: output[outputIndex] }),
        emit("response.content_part.added", { item_id: message.id, output_index: outputIndex, content_index: 0, part: outputTextPart("") }),
      );
    }
    message.text += delta;
    const deltaLogprobs = Array.isArray(logprobs) ? logprobs : [];
    message.logprobs.push(...deltaLogprobs);
    frames.push(
      emit("response.output_text.delta", {
        item_id: message.id,
        output_index: message.outputIndex,
        content_index: 0,
        delta,
        logprobs: deltaLogprobs,
      }),
    );
    return frames;
  };

  const toolCall = (event: Extract<CanonicalStreamEvent, { type: "tool-call-delta" }>): string[] => {
    const frames = [...start(), ...closeMessage()];
    let call = calls.get(event.index);
    if (!call) {
      frames.push(...closeCall());
      const outputIndex = output.length;
      call = {
        outputIndex,
        id: functionCallItemId(opening.id, outputIndex),
        callId: event.id ?? `call_${outputIndex}`,
        name: event.name ?? "",
        arguments: "",
      };
      calls.set(event.index, call);
      openCall = call;
      const item = { type: "function_call", id: call.id, call_id: call.callId, name: call.name, arguments: "", status: "in_progress" };
      output.push(item);
      frames.push(emit("response.output_item.added", { output_index: outputIndex, item }));
    }
    if (event.argumentsDelta) {
      call.arguments += event.argumentsDelta;
      frames.push(
        emit("response.function_call_arguments.delta", { item_id: call.id, output_index: call.outputIndex, delta: event.argumentsDelta }),
      );
    }
    return frames;
  };

  const fail = (error: { message: string; code?: string }): string[] => {
    ended.finished = true;
    // Not `start()`: an encoder that only reports a failure (a same-wire stream cut after its own start) must not
    // announce a second response.
    const frames = [...closeMessage(), ...closeCall()];
    frames.push(
      emit("response.failed", {
        response: envelope("failed", undefined, { error: { code: error.code ?? "server_error", message: error.message } }),
      }),
    );
    return frames;
  };

  return endingEncoder(ended, (event) => {
    switch (event.type) {
      case "message-start":
        return opening.messageStart(event);
      case "text-delta":
        return text(event.text, event.logprobs);
      case "thinking-delta":
        // Another format's reasoning blocks are signed for it; they stay with the wire that made them.
        return [];
      case "tool-call-delta":
        return toolCall(event);
      case "finish": {
        if (event.reason === "error") return fail({ message: "The upstream model stopped with an error.", code: "server_error" });
        ended.finished = true;
        const frames = [...start(), ...closeMessage(), ...closeCall()];
        const finish = CANONICAL_TO_RESPONSES_STATUS[event.reason];
        const response = envelope(finish.status, event.usage, finish.incompleteReason ? { incompleteReason: finish.incompleteReason } : {});
        frames.push(emit(finish.status === "completed" ? "response.completed" : "response.incomplete", { response }));
        return frames;
      }
      case "error":
        return fail(describeError(event.error));
    }
  });
}

/** All frames for a complete event sequence. */
export function encodeResponsesStream(events: Iterable<CanonicalStreamEvent>, options: ResponsesStreamOptions): string[] {
  return encodeWholeStream(createResponsesStreamEncoder(options), events);
}
