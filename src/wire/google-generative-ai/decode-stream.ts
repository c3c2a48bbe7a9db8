/** Gemini stream chunks → canonical stream events (R-GW-2, R-ST-2, R-ST-3). */
import type { CanonicalFinishReason, CanonicalStreamEvent, CanonicalUsage } from "../../ports/canonical.js";
import { canonicalFinish, googleUsage, partsOf, rawFinishReasonOf, type GoogleIds } from "./decode-response.js";
import type { GoogleGenerateContentResponse } from "./schemas.js";

/** Stream chunks carry text increments and whole function calls; usage is cumulative. */
export class GoogleStreamTranslator {
  private started = false;
  private nextToolIndex = 0;
  private finishReason: CanonicalFinishReason | undefined;
  private usage: CanonicalUsage | undefined;

  /** The raw finish reason when the answer ended with an `error`-class reason; the caller fails it. */
  failedWith: string | undefined;

  constructor(private readonly fallback: { model: string; dropped?: readonly string[] } & GoogleIds) {}

  accept(chunk: GoogleGenerateContentResponse): CanonicalStreamEvent[] {
    const events: CanonicalStreamEvent[] = [];
    if (!this.started) {
      this.started = true;
      events.push({
        type: "message-start",
        id: chunk.responseId ?? this.fallback.createResponseId(),
        model: chunk.modelVersion ?? this.fallback.model,
        ...(this.fallback.dropped && this.fallback.dropped.length > 0 ? { dropped: this.fallback.dropped } : {}),
      });
    }
    for (const part of partsOf(chunk, this.fallback)) {
      if (part.type === "text") events.push({ type: "text-delta", text: part.text });
      else {
        events.push({ type: "tool-call-delta", index: this.nextToolIndex++, id: part.id, name: part.name, argumentsDelta: part.arguments });
      }
    }
    if (chunk.usageMetadata) this.usage = googleUsage(chunk.usageMetadata);
    const raw = rawFinishReasonOf(chunk);
    if (raw) {
      this.finishReason = canonicalFinish(raw, this.nextToolIndex > 0);
      if (this.finishReason === "error") this.failedWith = raw;
    }
    return events;
  }

  /** Gemini streams have no end marker: the body ending after a finish reason is the end (R-ST-2). */
  finishAtEnd(): CanonicalStreamEvent[] | undefined {
    if (this.finishReason === undefined) return undefined;
    return [{ type: "finish", reason: this.finishReason, ...(this.usage ? { usage: this.usage } : {}) }];
  }
}
