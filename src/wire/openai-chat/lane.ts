/**
 * The same-wire lane's reading of an OpenAI chat-completions body (SPEC R-GW-6, R-FB-8): its roles, its two
 * names for the output limit, and the usage option every upstream stream needs (R-ST-3) — a client that did
 * not ask for it never sees the usage chunk (the stream scanner drops it).
 */
import { chatFactsBound, chatShapeOk, clientWantsUsage, upstreamBodyFor } from "../shared/lane-body.js";
import type { SameWireLane } from "../wire-format.js";
import { OpenAiCompletionAssembler } from "./assemble-completion.js";
import { OpenAiChatStreamScanner } from "./stream-scanner.js";
import { answerStreamEvents } from "../shared/answer-stream-events.js";
import { encodeWholeStream } from "../shared/stream-encoder.js";
import { inBandErrorFrame } from "../shared/answer-stream-events.js";
import { parseWireJson } from "../shared/wire-json.js";
import { decodeOpenAiResponse } from "./decode-response.js";
import { createOpenAIStreamEncoder } from "./encode-stream.js";
import { openAiChatCompletionSchema } from "./schemas.js";

const ROLES: ReadonlySet<string> = new Set(["system", "developer", "user", "assistant", "tool", "function"]);

export const openAIChatLane: SameWireLane = {
  shapeOk: (body) => chatShapeOk(body, ROLES, false),
  // `max_completion_tokens ?? max_tokens`, as the request decoder reads them.
  factsBound: (body) => chatFactsBound(body, body.maxCompletionTokens?.value ?? body.maxTokens?.value),
  clientWantsUsage: (body, stream) => stream && clientWantsUsage(body),
  bodyFor: (body, model, stream) => upstreamBodyFor(body, model, stream),
  streamedBodyFor: (body, model) => upstreamBodyFor(body, model, true, true),
  clientHeaders: () => undefined,
  scanner: (options) =>
    new OpenAiChatStreamScanner({
      shownModel: options.shownModel,
      forwardUsageChunk: options.forwardUsage === true,
      ...(options.keepUpstreamModel !== undefined ? { keepUpstreamModel: options.keepUpstreamModel } : {}),
      ...(options.onEvent !== undefined ? { onEvent: options.onEvent } : {}),
      ...(options.assembleOnly !== undefined ? { assembleOnly: options.assembleOnly } : {}),
    }),
  assembler() {
    const assembler = new OpenAiCompletionAssembler();
    return { accept: (event) => assembler.accept(event), answer: () => assembler.completion() };
  },
  answerAsStream(body, options) {
    const text = body.toString("utf8");
    // An error object sent for a stream is the provider's error: as an in-band error chunk, the scanner reads
    // it as it reads one mid-stream.
    const error = inBandErrorFrame(text, (value) => value.error !== undefined && value.error !== null);
    if (error) return error;
    const parsed = parseWireJson(text, openAiChatCompletionSchema);
    if (!parsed.ok) return undefined;
    const completion = parsed.value;
    const { response } = decodeOpenAiResponse(completion);
    const fingerprint = completion.system_fingerprint;
    // Chunks of the answer's own id, creation time and fingerprint; the usage chunk always (the scanner drops
    // it for a client that did not ask for it, as it does for an upstream stream).
    const encoder = createOpenAIStreamEncoder({
      includeUsage: true,
      id: response.id,
      model: response.model,
      createdSeconds: typeof completion.created === "number" ? completion.created : options.createdSeconds,
      ...(typeof fingerprint === "string" ? { systemFingerprint: fingerprint } : {}),
    });
    return Buffer.from(encodeWholeStream(encoder, answerStreamEvents(response)).join(""));
  },
};
