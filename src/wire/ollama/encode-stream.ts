/**
 * Canonical stream events → Ollama `/api/chat` NDJSON lines: the server side of the format (the mock
 * provider streams with it). One line per text or thinking delta; tool calls go out whole, as Ollama sends
 * them, once their arguments are complete; the `done: true` line carries the finish reason and the counts.
 * An error ends the stream with an `{"error":…}` line (R-ST-2).
 */
import { PendingToolCalls, type WholeToolCall } from "../shared/pending-tool-calls.js";
import { describeStreamError } from "../shared/stream-error.js";
import { endingEncoder, type CanonicalStreamEncoder } from "../shared/stream-encoder.js";
import type { StreamEncoderOptions } from "../wire-format.js";
import { ollamaCreatedAt, ollamaToolCalls, renderOllamaUsage } from "./encode-response.js";
import { renderOllamaError } from "./errors.js";
import { CANONICAL_TO_OLLAMA_FINISH_REASON } from "./finish-reasons.js";

function line(payload: unknown): string {
  return `${JSON.stringify(payload)}\n`;
}

export function createOllamaStreamEncoder(options: StreamEncoderOptions): CanonicalStreamEncoder {
  let model = options.model;
  const createdAt = ollamaCreatedAt(options.createdSeconds);
  const ended = { finished: false };
  const calls = new PendingToolCalls();

  const message = (fields: Record<string, unknown>, done: Record<string, unknown> = { done: false }) =>
    line({ model, created_at: createdAt, message: { role: "assistant", content: "", ...fields }, ...done });
  const callLine = (call: WholeToolCall) => message({ tool_calls: ollamaToolCalls([call]) });
  const fail = (error: unknown) => {
    ended.finished = true;
    const { message: text, status } = describeStreamError(error);
    return [line(renderOllamaError({ message: text, status: status ?? 500 }))];
  };

  return endingEncoder(ended, (event) => {
    switch (event.type) {
      case "message-start":
        model = event.model;
        return [];
      case "text-delta":
        return [message({ content: event.text })];
      case "thinking-delta":
        return event.text ? [message({ thinking: event.text })] : [];
      case "tool-call-delta": {
        const call = calls.accept(event);
        return call ? [callLine(call)] : [];
      }
      case "finish": {
        const unsent = calls.flush().map(callLine);
        if (event.reason === "error") return [...unsent, ...fail({ message: "The model stopped with an error.", status: 502 })];
        ended.finished = true;
        const done = {
          done: true,
          done_reason: CANONICAL_TO_OLLAMA_FINISH_REASON[event.reason],
          ...(event.usage ? renderOllamaUsage(event.usage) : {}),
        };
        return [...unsent, message({}, done)];
      }
      case "error":
        return fail(event.error);
    }
  });
}
