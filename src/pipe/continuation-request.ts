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
 * The first form to try: a declaration (config, then catalogue) decides. No provider API is assumed to take a
 * prefill: Claude models from 4.6 on answer one with 400, and the OpenAI, Google and Ollama wires answer a
 * trailing assistant message anew instead of continuing it. Unknown models get the instructed form.
 */
export function firstContinuationMode(declared: boolean | undefined): ContinuationMode {
  return declared === true ? "prefill" : "instructed";
}
