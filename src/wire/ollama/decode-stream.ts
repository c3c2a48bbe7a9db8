/** Ollama NDJSON stream lines → canonical stream events (R-GW-2, R-ST-3). */
import type { CanonicalStreamEvent } from "../../ports/canonical.js";
import { finishOf, toolCallsOf, usageOf, type OllamaIds } from "./decode-response.js";
import type { OllamaChatResponse } from "./schemas.js";

export class OllamaStreamTranslator {
  private started = false;
  private nextToolIndex = 0;

  constructor(private readonly ids: OllamaIds & { dropped?: readonly string[] }) {}

  /** Events for one line; `complete` on the `done: true` line, which carries reason and usage. */
  accept(line: OllamaChatResponse): { events: CanonicalStreamEvent[]; complete: boolean } {
    const events: CanonicalStreamEvent[] = [];
    if (!this.started) {
      this.started = true;
      const dropped = this.ids.dropped;
      events.push({
        type: "message-start",
        id: this.ids.createResponseId(),
        model: line.model,
        ...(dropped && dropped.length > 0 ? { dropped } : {}),
      });
    }
    if (line.message?.content) events.push({ type: "text-delta", text: line.message.content });
    for (const call of toolCallsOf(line, this.ids)) {
      events.push({ type: "tool-call-delta", index: this.nextToolIndex++, id: call.id, name: call.name, argumentsDelta: call.arguments });
    }
    if (!line.done) return { events, complete: false };
    events.push({ type: "finish", reason: finishOf(line, this.nextToolIndex > 0), usage: usageOf(line) });
    return { events, complete: true };
  }
}
