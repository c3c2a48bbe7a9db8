/**
 * OpenAI-dialect error bodies → classifier input. Shapes seen in the wild:
 *   OpenAI      {"error":{"message","type","param","code"}}
 *   OpenRouter  {"error":{"message","code":429,"metadata":{"raw","provider_name"}}}
 *   compatible  {"error":"text"} · {"message":"text"} · {"detail":"text"} · plain text / HTML
 */
import type { z } from "zod";
import type { WireErrorDetails } from "../shared/upstream-failure.js";
import { withBodyResets } from "../shared/body-reset-hints.js";
import { parseJsonText, validateWire } from "../../wire/shared/wire-json.js";
import { openAiErrorBodySchema, type openAiErrorObjectSchema } from "../../wire/openai-chat/schemas.js";

type OpenAiErrorObject = z.infer<typeof openAiErrorObjectSchema>;

/** Error body of a non-2xx HTTP response. The HTTP status itself is taken from the response. */
export function describeOpenAiError(bodyText: string): WireErrorDetails {
  const json = parseJsonText(bodyText);
  if (!json.ok) return { message: bodyText.trim() };
  const body = validateWire(json.value, openAiErrorBodySchema);
  if (body.ok) {
    const error = body.value.error;
    if (typeof error === "string") return { message: error };
    const { status: _inBodyStatus, ...details } = describeOpenAiErrorObject(error);
    // R-EC-6: a reset stated beside the error object (at the body's root) counts too.
    return withBodyResets(details, json.value);
  }
  return { message: looseMessageOf(json.value) ?? bodyText.trim() };
}

/**
 * The `error` object of a body or of an in-stream chunk. A numeric `code` is OpenRouter's HTTP
 * status; it matters for in-stream errors, which arrive after a 200.
 */
export function describeOpenAiErrorObject(error: OpenAiErrorObject): WireErrorDetails {
  const raw = error.metadata?.raw;
  const rawText = typeof raw === "string" ? raw : raw === undefined || raw === null ? "" : JSON.stringify(raw);
  const base = error.message ?? "";
  // OpenRouter's "Provider returned error" says nothing; the upstream's raw text is what classifies.
  const message = rawText && !base.includes(rawText) ? `${base} (${rawText})`.trim() : base;
  const code = typeof error.code === "string" ? error.code : undefined;
  const status = typeof error.code === "number" && error.code >= 400 && error.code <= 599 ? error.code : undefined;
  const details: WireErrorDetails = {
    message,
    ...(code !== undefined ? { code } : {}),
    ...(error.type ? { errorType: error.type } : {}),
    ...(status !== undefined ? { status } : {}),
  };
  // R-EC-6: ChatGPT/Codex `usage_limit_reached` states its reset in the error object (`resets_at`, `resets_in_seconds`).
  return withBodyResets(details, error);
}

function looseMessageOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  for (const key of ["message", "detail", "error_message"]) {
    const field = (value as Record<string, unknown>)[key];
    if (typeof field === "string") return field;
  }
  return undefined;
}
