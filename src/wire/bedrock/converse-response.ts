/**
 * Bedrock Converse answer ↔ canonical answer: `output.message.content` (text, toolUse, reasoningContent
 * blocks), `stopReason` and `usage`. A Converse answer carries no id and no model: the fallback gives them.
 */
import type { CanonicalResponse, CanonicalThinking, CanonicalToolCall, CanonicalText } from "../../ports/canonical.js";
import { lookupFinishReason } from "../shared/finish-reasons.js";
import { toolArgumentsObject } from "../shared/tool-arguments.js";
import type { DecodeFallback, ProviderResponseDecode } from "../wire-format.js";
import { parseJsonText } from "../shared/wire-json.js";
import { CANONICAL_TO_CONVERSE_STOP_REASON, CONVERSE_FINISH_REASONS } from "./finish-reasons.js";
import { renderConverseUsage, usageFromConverse } from "./usage.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True for a JSON value shaped like a Converse answer (as opposed to a Claude InvokeModel message). */
export function isConverseAnswer(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && isRecord(value.output);
}

export function decodeConverseAnswer(value: Record<string, unknown>, fallback: DecodeFallback): ProviderResponseDecode {
  const output = value.output as Record<string, unknown>;
  const message = output.message;
  if (!isRecord(message) || !Array.isArray(message.content)) return { ok: false, problem: "schema mismatch at output.message.content" };
  const usage = usageFromConverse(value.usage);
  if (!usage) return { ok: false, problem: "schema mismatch at usage" };
  const content: (CanonicalText | CanonicalToolCall)[] = [];
  const thinking: CanonicalThinking[] = [];
  for (const block of message.content as unknown[]) {
    if (!isRecord(block)) continue;
    if (typeof block.text === "string") content.push({ type: "text", text: block.text });
    else if (isRecord(block.toolUse)) {
      const use = block.toolUse;
      content.push({
        type: "tool-call",
        id: typeof use.toolUseId === "string" ? use.toolUseId : fallback.createToolCallId(),
        name: typeof use.name === "string" ? use.name : "",
        arguments: JSON.stringify(use.input ?? {}),
      });
    } else if (isRecord(block.reasoningContent)) {
      const reasoning = block.reasoningContent;
      if (typeof reasoning.redactedContent === "string")
        thinking.push({ type: "thinking", text: "", redactedData: reasoning.redactedContent });
      else if (isRecord(reasoning.reasoningText)) {
        const text = reasoning.reasoningText;
        thinking.push({
          type: "thinking",
          text: typeof text.text === "string" ? text.text : "",
          ...(typeof text.signature === "string" ? { signature: text.signature } : {}),
        });
      }
    }
  }
  const rawFinishReason = typeof value.stopReason === "string" ? value.stopReason : undefined;
  const response: CanonicalResponse = {
    id: fallback.createResponseId(),
    model: fallback.model,
    content,
    ...(thinking.length > 0 ? { thinking } : {}),
    finishReason: rawFinishReason === undefined ? "stop" : lookupFinishReason(CONVERSE_FINISH_REASONS, rawFinishReason),
    usage,
  };
  return { ok: true, response, ...(rawFinishReason !== undefined ? { rawFinishReason } : {}) };
}

export function decodeConverseText(text: string, fallback: DecodeFallback): ProviderResponseDecode {
  const json = parseJsonText(text);
  if (!json.ok) return { ok: false, problem: json.problem };
  if (!isConverseAnswer(json.value)) return { ok: false, problem: "schema mismatch at output: not a Converse answer" };
  return decodeConverseAnswer(json.value, fallback);
}

/** The answer as Converse writes it, for servers (the mock provider) that answer in this format. */
export function renderConverseResponse(response: CanonicalResponse): Record<string, unknown> {
  const content: Record<string, unknown>[] = [];
  for (const part of response.thinking ?? []) {
    content.push(
      part.redactedData !== undefined
        ? { reasoningContent: { redactedContent: part.redactedData } }
        : { reasoningContent: { reasoningText: { text: part.text, ...(part.signature ? { signature: part.signature } : {}) } } },
    );
  }
  for (const part of response.content) {
    if (part.type === "text") content.push({ text: part.text });
    else content.push({ toolUse: { toolUseId: part.id, name: part.name, input: toolArgumentsObject(part.arguments) } });
  }
  return {
    output: { message: { role: "assistant", content } },
    stopReason: CANONICAL_TO_CONVERSE_STOP_REASON[response.finishReason],
    usage: renderConverseUsage(response.usage),
    metrics: { latencyMs: 0 },
  };
}
