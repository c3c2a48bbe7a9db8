/**
 * Canonical response → OpenAI Responses `response` object (R-GW-2; R-ST-3: `model` is who answered; R-GW-7
 * usage). The shape is the SDK's `Response`: the SDK adds `output_text` itself. Detour keeps nothing, so
 * `store` is false and there is no `previous_response_id`.
 */
import type { CanonicalResponse, CanonicalUsage } from "../../ports/canonical.js";
import { CANONICAL_TO_RESPONSES_STATUS } from "./status.js";
import { renderResponsesUsage } from "./usage.js";

export interface ResponsesRenderOptions {
  /** Unix seconds for `created_at`. */
  createdSeconds: number;
}

/** Item ids are derived from the response id so a stream and its final object name the same items. */
export function messageItemId(responseId: string, outputIndex: number): string {
  return `msg_${responseId}_${outputIndex}`;
}

export function functionCallItemId(responseId: string, outputIndex: number): string {
  return `fc_${responseId}_${outputIndex}`;
}

export function outputTextPart(text: string, logprobs?: unknown) {
  return { type: "output_text" as const, text, annotations: [], ...(Array.isArray(logprobs) ? { logprobs } : {}) };
}

export type ResponsesOutputItemJson = Record<string, unknown> & { type: string; id: string };

/** The `response` envelope; `output` and `usage` are filled by the caller (stream encoder or complete answer). */
export function responseEnvelope(input: {
  id: string;
  model: string;
  createdSeconds: number;
  status: "in_progress" | "completed" | "incomplete" | "failed";
  output: ResponsesOutputItemJson[];
  usage: CanonicalUsage | undefined;
  incompleteReason?: string;
  error?: { code: string; message: string };
}) {
  return {
    id: input.id,
    object: "response" as const,
    created_at: input.createdSeconds,
    status: input.status,
    ...(input.status === "completed" ? { completed_at: input.createdSeconds } : {}),
    error: input.error ?? null,
    incomplete_details: input.incompleteReason !== undefined ? { reason: input.incompleteReason } : null,
    instructions: null,
    max_output_tokens: null,
    metadata: {},
    model: input.model,
    output: input.output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: null,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [],
    top_p: null,
    truncation: "disabled",
    usage: input.usage ? renderResponsesUsage(input.usage) : null,
  };
}

export function renderResponsesResponse(response: CanonicalResponse, options: ResponsesRenderOptions) {
  const output: ResponsesOutputItemJson[] = [];
  const text = response.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
  if (text !== "" || !response.content.some((part) => part.type === "tool-call")) {
    output.push({
      type: "message",
      id: messageItemId(response.id, output.length),
      status: "completed",
      role: "assistant",
      content: [outputTextPart(text, response.logprobs)],
    });
  }
  for (const part of response.content) {
    if (part.type !== "tool-call") continue;
    output.push({
      type: "function_call",
      id: functionCallItemId(response.id, output.length),
      call_id: part.id,
      name: part.name,
      arguments: part.arguments,
      status: "completed",
    });
  }
  const finish = CANONICAL_TO_RESPONSES_STATUS[response.finishReason];
  return responseEnvelope({
    id: response.id,
    model: response.model,
    createdSeconds: options.createdSeconds,
    status: finish.status,
    output,
    usage: response.usage,
    ...(finish.incompleteReason !== undefined ? { incompleteReason: finish.incompleteReason } : {}),
  });
}
