/** Gemini stream chunks → canonical stream events (R-GW-2, R-ST-2, R-ST-3). */
import type { CanonicalFinishReason, CanonicalStreamEvent, CanonicalUsage } from "../../ports/canonical.js";
import { canonicalFinish, googleUsage, partsOf, rawFinishReasonOf, type GoogleIds } from "./google-response.js";
import type { GoogleGenerateContentResponse } from "./google-wire.js";

/** Stream chunks carry text increments and whole function calls; usage is cumulative. */
export class GoogleStreamTranslator {
  private started = false;
  private nextToolIndex = 0;
  private finishReason: CanonicalFinishReason | undefined;
  private usage: CanonicalUsage | undefined;

  constructor(
    private readonly provider: string,
    private readonly fallback: { model: string } & GoogleIds,
  ) {}

  accept(chunk: GoogleGenerateContentResponse): CanonicalStreamEvent[] {
    const events: CanonicalStreamEvent[] = [];
    if (!this.started) {
      this.started = true;
      events.push({
        type: "message-start",
        id: chunk.responseId ?? this.fallback.createResponseId(),
        model: chunk.modelVersion ?? this.fallback.model,
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
    if (raw) this.finishReason = canonicalFinish(this.provider, raw, this.nextToolIndex > 0);
    return events;
  }

  /** Gemini streams have no end marker: the body ending after a finish reason is the end (R-ST-2). */
  finishAtEnd(): CanonicalStreamEvent[] | undefined {
    if (this.finishReason === undefined) return undefined;
    return [{ type: "finish", reason: this.finishReason, ...(this.usage ? { usage: this.usage } : {}) }];
  }
}
