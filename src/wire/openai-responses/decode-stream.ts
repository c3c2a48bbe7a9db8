/**
 * OpenAI Responses stream events → canonical stream events. Pure state machine: the provider feeds it
 * validated events and learns from each step whether the answer is complete or failed. Text comes from
 * `response.output_text.delta` (and refusals), tool calls from `function_call` output items and their
 * argument deltas; `response.completed` / `response.incomplete` end the answer with its usage.
 */
import type { CanonicalFinishReason, CanonicalStreamEvent, CanonicalUsage } from "../../ports/canonical.js";
import { contentOfOutput } from "./decode-response.js";
import type { ResponsesStreamEvent } from "./schemas.js";
import { finishReasonFromResponses } from "./status.js";
import { usageFromResponses } from "./usage.js";

export interface ResponsesStreamStep {
  events: CanonicalStreamEvent[];
  complete: boolean;
  /** An in-band failure (`error`, `response.failed`): message and code for the caller to throw. */
  failure?: { message: string; code?: string };
}

interface CallState {
  index: number;
  sawArguments: boolean;
}

export class ResponsesStreamTranslator {
  private started = false;
  private sawContent = false;
  private finishReason: CanonicalFinishReason | undefined;
  private usage: CanonicalUsage | undefined;
  /** Tool calls by item id, numbered in the order they appear. */
  private readonly calls = new Map<string, CallState>();

  constructor(private readonly fallback: { model: string; createId: () => string; dropped?: readonly string[] }) {}

  accept(event: ResponsesStreamEvent): ResponsesStreamStep {
    const events = this.startEvents(event.response);
    switch (event.type) {
      case "response.output_text.delta":
      case "response.refusal.delta":
        if (event.delta) {
          this.sawContent = true;
          const logprobs = Array.isArray(event.logprobs) && event.logprobs.length > 0 ? { logprobs: event.logprobs } : {};
          events.push({ type: "text-delta", text: event.delta, ...logprobs });
        }
        break;
      case "response.output_item.added": {
        const item = event.item;
        if (item?.type === "function_call") {
          const index = this.calls.size;
          this.calls.set(item.id ?? `item_${index}`, { index, sawArguments: false });
          this.sawContent = true;
          events.push({
            type: "tool-call-delta",
            index,
            ...(item.call_id ? { id: item.call_id } : {}),
            ...(item.name ? { name: item.name } : {}),
            ...(item.arguments ? { argumentsDelta: item.arguments } : {}),
          });
          if (item.arguments) (this.calls.get(item.id ?? `item_${index}`) as CallState).sawArguments = true;
        }
        break;
      }
      case "response.function_call_arguments.delta": {
        const call = this.calls.get(event.item_id ?? "");
        if (call && event.delta) {
          call.sawArguments = true;
          events.push({ type: "tool-call-delta", index: call.index, argumentsDelta: event.delta });
        }
        break;
      }
      case "response.function_call_arguments.done": {
        // Some servers send the arguments only whole, at the end.
        const call = this.calls.get(event.item_id ?? "");
        if (call && !call.sawArguments && event.arguments) {
          call.sawArguments = true;
          events.push({ type: "tool-call-delta", index: call.index, argumentsDelta: event.arguments });
        }
        break;
      }
      case "response.completed":
      case "response.incomplete": {
        const response = event.response;
        const output = response?.output ?? [];
        if (!this.sawContent) events.push(...this.contentFromFinalOutput(output));
        const hasToolCalls = this.calls.size > 0 || output.some((item) => item.type === "function_call");
        this.finishReason = finishReasonFromResponses(
          response?.status ?? (event.type === "response.completed" ? "completed" : "incomplete"),
          response?.incomplete_details?.reason,
          hasToolCalls,
        );
        this.usage = usageFromResponses(response?.usage);
        events.push({ type: "finish", reason: this.finishReason, usage: this.usage });
        return { events, complete: true };
      }
      case "response.failed": {
        const error = event.response?.error;
        return {
          events,
          complete: false,
          failure: { message: error?.message ?? "The response failed.", ...(error?.code ? { code: error.code } : {}) },
        };
      }
      case "error":
        return {
          events,
          complete: false,
          failure: { message: event.message ?? "The stream reported an error.", ...(event.code ? { code: event.code } : {}) },
        };
      default:
        break;
    }
    return { events, complete: false };
  }

  /** A server that streams no deltas still sends the whole output in `response.completed`. */
  private contentFromFinalOutput(output: NonNullable<NonNullable<ResponsesStreamEvent["response"]>["output"]>): CanonicalStreamEvent[] {
    const events: CanonicalStreamEvent[] = [];
    let toolIndex = 0;
    for (const part of contentOfOutput(output)) {
      if (part.type === "text") events.push({ type: "text-delta", text: part.text });
      else events.push({ type: "tool-call-delta", index: toolIndex++, id: part.id, name: part.name, argumentsDelta: part.arguments });
    }
    return events;
  }

  private startEvents(response: ResponsesStreamEvent["response"]): CanonicalStreamEvent[] {
    if (this.started) return [];
    this.started = true;
    const dropped = this.fallback.dropped;
    return [
      {
        type: "message-start",
        id: response?.id ?? this.fallback.createId(),
        model: response?.model ?? this.fallback.model,
        ...(dropped && dropped.length > 0 ? { dropped } : {}),
      },
    ];
  }
}
