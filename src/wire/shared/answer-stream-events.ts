/**
 * A complete canonical answer as the canonical stream that would have carried it (SPEC R-GW-10): an upstream
 * asked for a stream may answer with its whole non-streamed body instead, and that body is still the answer —
 * a streamed consumer gets it as events. The inverse of `CanonicalResponseAssembler`: assembling these events
 * gives the answer back (thinking blocks first, then the content in order, then the finish with its usage).
 * An error object sent instead of a stream is the provider's error: `inBandErrorFrame` makes it the stream
 * event that carries it, so it is read as the same error mid-stream is.
 */
import type { CanonicalResponse, CanonicalStreamEvent } from "../../ports/canonical.js";

export function answerStreamEvents(response: CanonicalResponse): CanonicalStreamEvent[] {
  const events: CanonicalStreamEvent[] = [
    {
      type: "message-start",
      id: response.id,
      model: response.model,
      ...(response.dropped && response.dropped.length > 0 ? { dropped: response.dropped } : {}),
    },
  ];
  (response.thinking ?? []).forEach((block, index) => {
    events.push({
      type: "thinking-delta",
      index,
      ...(block.text !== "" ? { text: block.text } : {}),
      ...(block.signature !== undefined ? { signature: block.signature } : {}),
      ...(block.redactedData !== undefined ? { redactedData: block.redactedData } : {}),
    });
  });
  // The answer's log probabilities travel with its first text (they are the answer's, not one delta's).
  let logprobs = response.logprobs;
  let toolIndex = 0;
  for (const part of response.content) {
    if (part.type === "text") {
      if (part.text === "") continue;
      events.push({ type: "text-delta", text: part.text, ...(logprobs !== undefined && logprobs !== null ? { logprobs } : {}) });
      logprobs = undefined;
      continue;
    }
    events.push({ type: "tool-call-delta", index: toolIndex, id: part.id, name: part.name, argumentsDelta: part.arguments });
    toolIndex += 1;
  }
  events.push({ type: "finish", reason: response.finishReason, usage: response.usage });
  return events;
}

/**
 * A JSON body that `isError` says is the format's error object, as the one stream event that carries it
 * (`event: <name>` when the format names its events); undefined for any other body.
 */
export function inBandErrorFrame(
  text: string,
  isError: (value: Record<string, unknown>) => boolean,
  eventName?: string,
  asEvent: (value: Record<string, unknown>) => unknown = (value) => value,
): Buffer | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value) || !isError(value as Record<string, unknown>)) return undefined;
  // One line of data, whatever the body's own layout.
  return Buffer.from(
    `${eventName === undefined ? "" : `event: ${eventName}\n`}data: ${JSON.stringify(asEvent(value as Record<string, unknown>))}\n\n`,
  );
}
