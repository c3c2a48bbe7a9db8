/** OpenAI Responses `response` object → canonical response (R-GW-2, R-ST-3, R-GW-7). */
import type { CanonicalResponse } from "../../ports/canonical.js";
import type { ResponsesOutputItem, ResponsesResponse } from "./schemas.js";
import { finishReasonFromResponses } from "./status.js";
import { usageFromResponses } from "./usage.js";

/** Text and tool calls of the output items, in order. Reasoning items stay with the wire that made them. */
export function contentOfOutput(output: readonly ResponsesOutputItem[]): CanonicalResponse["content"] {
  const content: CanonicalResponse["content"] = [];
  for (const item of output) {
    if (item.type === "message") {
      const text = (item.content ?? []).map((part) => part.text ?? part.refusal ?? "").join("");
      if (text !== "") content.push({ type: "text", text });
    } else if (item.type === "function_call") {
      content.push({ type: "tool-call", id: item.call_id ?? item.id ?? "", name: item.name ?? "", arguments: item.arguments ?? "" });
    }
  }
  return content;
}

/** The canonical answer and the raw status. A `failed` status is reported, not thrown: the caller decides. */
export function decodeResponsesResponse(response: ResponsesResponse): { response: CanonicalResponse; rawStatus?: string } {
  const content = contentOfOutput(response.output ?? []);
  const logprobs = (response.output ?? [])
    .flatMap((item) => (item.type === "message" ? (item.content ?? []) : []))
    .find((part) => Array.isArray(part.logprobs))?.logprobs;
  const finishReason = finishReasonFromResponses(
    response.status,
    response.incomplete_details?.reason,
    content.some((part) => part.type === "tool-call"),
  );
  return {
    response: {
      id: response.id,
      model: response.model ?? "",
      content,
      finishReason,
      usage: usageFromResponses(response.usage),
      ...(logprobs === undefined ? {} : { logprobs }),
    },
    ...(response.status !== undefined ? { rawStatus: response.status } : {}),
  };
}
