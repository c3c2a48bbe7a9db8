/**
 * Responses API errors → classifier input. An error body is OpenAI's (`wire/openai-chat/read-error.ts`); an
 * `error` event or the `error` of `response.failed` carries `message` and `code`.
 */
import { withBodyResets } from "../shared/body-reset-hints.js";
import type { WireErrorDetails } from "../shared/wire-error.js";

export { describeOpenAiError as describeResponsesError } from "../openai-chat/read-error.js";

/** What the Responses stream scanner reports for an `error` event or the `error` of `response.failed`. */
export function describeResponsesStreamError(raw: unknown): WireErrorDetails {
  if (typeof raw === "string") return { message: raw };
  if (typeof raw !== "object" || raw === null) return { message: "The response failed." };
  const { message, code } = raw as { message?: unknown; code?: unknown };
  const details: WireErrorDetails = {
    message: typeof message === "string" && message !== "" ? message : JSON.stringify(raw),
    ...(typeof code === "string" ? { code } : {}),
  };
  // A usage limit stated in the stream's `error` event (`resets_at`, `resets_in_seconds`).
  return withBodyResets(details, raw);
}
