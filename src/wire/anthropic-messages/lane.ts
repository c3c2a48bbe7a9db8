/**
 * The same-wire lane's reading of an Anthropic Messages body (SPEC R-GW-6, R-FB-8): two roles, a required
 * `max_tokens`, streams that always carry their usage, and the client's version and beta flags, which
 * change what its body means and so travel with it.
 */
import { chatFactsBound, chatShapeOk, upstreamBodyFor } from "../shared/lane-body.js";
import type { ClientHeaders, SameWireLane } from "../wire-format.js";
import { AnthropicMessageAssembler } from "./assemble-message.js";
import { AnthropicStreamScanner } from "./stream-scanner.js";
import { answerStreamEvents } from "../shared/answer-stream-events.js";
import { encodeWholeStream } from "../shared/stream-encoder.js";
import { inBandErrorFrame } from "../shared/answer-stream-events.js";
import { parseWireJson } from "../shared/wire-json.js";
import { fromAnthropicResponse } from "./decode-response.js";
import { createAnthropicStreamEncoder } from "./encode-stream.js";
import { anthropicMessageSchema } from "./schemas.js";

const ROLES: ReadonlySet<string> = new Set(["user", "assistant"]);

/** The request headers that select Anthropic API behaviour. */
const FORWARDED_CLIENT_HEADERS = ["anthropic-version", "anthropic-beta"] as const;

function clientHeaders(headers: ClientHeaders): Readonly<Record<string, string>> {
  const forwarded: Record<string, string> = {};
  for (const name of FORWARDED_CLIENT_HEADERS) {
    const value = headers[name];
    if (typeof value === "string") forwarded[name] = value;
  }
  return forwarded;
}

/** The beta flags of forwarded client headers, one each: `anthropic-beta: a, b` → `["a", "b"]`. */
export function anthropicBetasOf(forwarded: Readonly<Record<string, string>> | undefined): string[] {
  return (forwarded?.["anthropic-beta"] ?? "")
    .split(",")
    .map((beta) => beta.trim())
    .filter((beta) => beta !== "");
}

export const anthropicMessagesLane: SameWireLane = {
  shapeOk: (body) => chatShapeOk(body, ROLES, true),
  factsBound: (body) => chatFactsBound(body, body.maxTokens?.value),
  clientWantsUsage: () => true,
  bodyFor: (body, model) => upstreamBodyFor(body, model, false),
  streamedBodyFor: (body, model) => upstreamBodyFor(body, model, false, true),
  clientHeaders,
  scanner: (options) =>
    new AnthropicStreamScanner({
      shownModel: options.shownModel,
      ...(options.keepUpstreamModel !== undefined ? { keepUpstreamModel: options.keepUpstreamModel } : {}),
      ...(options.onEvent !== undefined ? { onEvent: options.onEvent } : {}),
      ...(options.assembleOnly !== undefined ? { assembleOnly: options.assembleOnly } : {}),
    }),
  assembler() {
    const assembler = new AnthropicMessageAssembler();
    return { accept: (event) => assembler.accept(event), answer: () => assembler.message() };
  },
  answerAsStream(body) {
    const text = body.toString("utf8");
    // Anthropic's error object sent for a stream is its error: as an `error` event, the scanner reads it as it
    // reads one mid-stream.
    const error = inBandErrorFrame(text, (value) => value.type === "error", "error");
    if (error) return error;
    const parsed = parseWireJson(text, anthropicMessageSchema);
    if (!parsed.ok) return undefined;
    const response = fromAnthropicResponse(parsed.value);
    const encoder = createAnthropicStreamEncoder({ id: response.id, model: response.model, inputTokens: response.usage.inputTokens });
    return Buffer.from(encodeWholeStream(encoder, answerStreamEvents(response)).join(""));
  },
};
