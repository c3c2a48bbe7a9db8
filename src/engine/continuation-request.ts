/**
 * The request that continues a cut answer (SPEC R-ST-4). Pure: a canonical request and the delivered text
 * in, a canonical request out.
 *
 * - *prefill*: the conversation plus the delivered text as a trailing assistant message, which the model
 *   goes on from. Trailing whitespace is left out (Anthropic rejects a prefill that ends in whitespace); the
 *   seam trimmer drops the doubled space the continuation then starts with.
 * - *instructed*: the delivered text as an assistant turn, then a user turn asking to continue exactly where
 *   it stopped, never repeating. For models that do not continue a trailing assistant message.
 *
 * With nothing delivered yet (a stream cut during its reasoning), the original request is sent again.
 */
import type { CanonicalRequest } from "../ports/canonical.js";

export type ContinuationMode = "prefill" | "instructed";

export const CONTINUE_INSTRUCTION =
  "Your previous answer was cut off mid-stream. Continue it exactly where it stopped: start with the very " +
  "next characters, do not repeat any of the text already written, do not restart, summarise or comment.";

export function continuationRequest(request: CanonicalRequest, delivered: string, mode: ContinuationMode): CanonicalRequest {
  if (delivered.trim() === "") return request;
  if (mode === "prefill") {
    return { ...request, messages: [...request.messages, { role: "assistant", content: [{ type: "text", text: delivered.trimEnd() }] }] };
  }
  return {
    ...request,
    messages: [
      ...request.messages,
      { role: "assistant", content: [{ type: "text", text: delivered }] },
      { role: "user", content: [{ type: "text", text: CONTINUE_INSTRUCTION }] },
    ],
  };
}

/**
 * Per-provider-API defaults for prefill when neither `models[].supportsPrefill` nor the catalogue says:
 * Anthropic's Messages API continues a trailing assistant message (models that reject it answer 400 and get
 * the instructed form); OpenAI's chat completions answer a trailing assistant message anew instead of
 * continuing it, and so do the Google and Ollama wires as Detour calls them.
 */
export const PREFILL_DEFAULT_BY_API: Readonly<Record<string, boolean>> = Object.freeze({
  "anthropic-messages": true,
  "openai-chat": false,
  "openai-responses": false,
  "google-generative-ai": false,
  ollama: false,
});

/** The first form to try: a declaration (config, then catalogue) wins over the API's default. */
export function firstContinuationMode(declared: boolean | undefined, api: string | undefined): ContinuationMode {
  const prefill = declared ?? (api !== undefined ? PREFILL_DEFAULT_BY_API[api] : undefined) ?? false;
  return prefill ? "prefill" : "instructed";
}
