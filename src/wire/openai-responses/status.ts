/**
 * Responses `status` (+ `incomplete_details.reason`) ↔ canonical finish reason: the one table the provider,
 * the gateway dialect and the mock provider share. The Responses API has no finish reason: a tool-call turn
 * is a `completed` response whose output holds `function_call` items.
 */
import type { CanonicalFinishReason } from "../../ports/canonical.js";
import { lookupFinishReason, type FinishReasonTable } from "../shared/finish-reasons.js";

/** Keys: `status` or `incomplete:<reason>`. */
export const RESPONSES_FINISH_REASONS: FinishReasonTable = {
  completed: "stop",
  "incomplete:max_output_tokens": "length",
  "incomplete:content_filter": "content_filter",
  // An incomplete answer without a stated reason ran out of room in practice.
  incomplete: "length",
  failed: "error",
  cancelled: "error",
};

export type ResponsesStatus = "completed" | "incomplete";

/** What a canonical finish looks like on this wire. `error` never renders: the stream encoder fails instead. */
export const CANONICAL_TO_RESPONSES_STATUS: Readonly<
  Record<CanonicalFinishReason, { status: ResponsesStatus; incompleteReason?: "max_output_tokens" | "content_filter" }>
> = {
  stop: { status: "completed" },
  tool_calls: { status: "completed" },
  length: { status: "incomplete", incompleteReason: "max_output_tokens" },
  content_filter: { status: "incomplete", incompleteReason: "content_filter" },
  error: { status: "completed" },
};

export function finishReasonFromResponses(
  status: string | undefined,
  incompleteReason: string | undefined,
  hasToolCalls: boolean,
): CanonicalFinishReason {
  if (
    status === "incomplete" &&
    incompleteReason !== undefined &&
    Object.hasOwn(RESPONSES_FINISH_REASONS, `incomplete:${incompleteReason}`)
  ) {
    return RESPONSES_FINISH_REASONS[`incomplete:${incompleteReason}`] as CanonicalFinishReason;
  }
  const reason = lookupFinishReason(RESPONSES_FINISH_REASONS, status ?? "completed");
  return reason === "stop" && hasToolCalls ? "tool_calls" : reason;
}
