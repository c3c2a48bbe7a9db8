/**
 * R-GW-11: answers that are a provider's refusal although they arrive as a 200 — Anthropic
 * `stop_reason: "refusal"`, OpenAI chat `finish_reason: "content_filter"` or a `refusal` message, a
 * Responses answer `incomplete` for `content_filter` or holding a `refusal` part. The same-wire lane
 * forwards these bytes untouched; this only tells the runner what they are.
 */

/** Raw finish reasons as the same-wire stream scanners report them (Responses: `incomplete:<reason>`). */
const REFUSAL_FINISHES: ReadonlySet<string> = new Set(["refusal", "content_filter", "incomplete:content_filter"]);

export function isRefusalFinish(rawFinishReason: string | undefined): boolean {
  return rawFinishReason !== undefined && REFUSAL_FINISHES.has(rawFinishReason);
}

/**
 * The bytes a streamed refusal part starts with, per wire, as the upstream writes them (compact JSON): OpenAI
 * chat `delta.refusal` text (its finish reason may be a plain `stop`), a Responses `response.refusal.delta`
 * event. Anthropic states its refusal in the stop reason alone. Searched in each forwarded read as bytes.
 */
export const REFUSAL_STREAM_MARKERS: Readonly<Record<string, string>> = Object.freeze({
  "openai-chat": '"refusal":"',
  "openai-responses": '"type":"response.refusal.delta"',
});

/** Words a refusal body must contain; most answers have neither, so most bodies are never parsed here. */
const REFUSAL_WORDS = /"refusal"|"content_filter"/;

/** A non-streamed answer body (Anthropic message, OpenAI chat completion, Responses response) that refuses. */
export function isRefusalBody(body: Buffer | string): boolean {
  const text = typeof body === "string" ? body : body.toString("utf8");
  if (!REFUSAL_WORDS.test(text)) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  if (!isRecord(parsed)) return false;
  if (parsed["stop_reason"] === "refusal") return true;
  const choices = parsed["choices"];
  if (Array.isArray(choices) && choices.some(choiceRefuses)) return true;
  const incomplete = parsed["incomplete_details"];
  if (parsed["status"] === "incomplete" && isRecord(incomplete) && incomplete["reason"] === "content_filter") return true;
  const output = parsed["output"];
  return (
    Array.isArray(output) &&
    output.some(
      (item) =>
        isRecord(item) && Array.isArray(item["content"]) && item["content"].some((part) => isRecord(part) && part["type"] === "refusal"),
    )
  );
}

function choiceRefuses(choice: unknown): boolean {
  if (!isRecord(choice)) return false;
  if (choice["finish_reason"] === "content_filter") return true;
  const message = choice["message"];
  const refusal = isRecord(message) ? message["refusal"] : undefined;
  return typeof refusal === "string" && refusal !== "";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
