/**
 * The one registry of wire formats (DESIGN §1): every format by its one id, and the older names configs and
 * dialects still use. Look a format up once — when a provider, a route or a lane is built — and keep the
 * `WireFormat` itself; nothing on a request's path looks a name up again.
 */
import { anthropicMessagesWire } from "./anthropic-messages/format.js";
import { bedrockWire } from "./bedrock/format.js";
import { googleGenerativeAiWire } from "./google-generative-ai/format.js";
import { ollamaWire } from "./ollama/format.js";
import { openAIChatWire } from "./openai-chat/format.js";
import { openAIResponsesWire } from "./openai-responses/format.js";
import type { WireFormat, WireFormatId } from "./wire-format.js";

export const WIRE_FORMATS: Readonly<Record<WireFormatId, WireFormat>> = Object.freeze({
  "openai-chat": openAIChatWire,
  "openai-responses": openAIResponsesWire,
  "anthropic-messages": anthropicMessagesWire,
  "google-generative-ai": googleGenerativeAiWire,
  ollama: ollamaWire,
  bedrock: bedrockWire,
});

export const WIRE_FORMAT_IDS = Object.freeze(Object.keys(WIRE_FORMATS) as WireFormatId[]);

const BY_NAME: ReadonlyMap<string, WireFormat> = new Map(
  Object.values(WIRE_FORMATS).flatMap((format) => [
    [format.id, format] as const,
    ...format.aliases.map((alias) => [alias, format] as const),
  ]),
);

/** The format of an id or of one of its older names; undefined for a name no format has. */
export function wireFormatNamed(name: string): WireFormat | undefined {
  return BY_NAME.get(name);
}

/** The one id of a format named by its id or an older name (config `api: "openai-completions"` → "openai-chat"). */
export function wireFormatIdOf(name: string): WireFormatId | undefined {
  return BY_NAME.get(name)?.id;
}

export type { WireFormat, WireFormatId } from "./wire-format.js";
