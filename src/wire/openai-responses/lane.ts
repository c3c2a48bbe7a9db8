/**
 * The same-wire lane's reading of a Responses body (SPEC R-GW-6, R-FB-8). Responses bodies are always
 * decoded in full — server-held state (R-GW-6 pinning) and slash commands hide in many shapes — and their
 * turns are in `input`, not `messages`, so the scan bounds only whether they may carry images. Their streams
 * always carry usage (`response.completed`).
 */
import { modalitiesOnlyBound, upstreamBodyFor } from "../shared/lane-body.js";
import type { SameWireLane } from "../wire-format.js";
import { ResponsesAssembler } from "./assemble-response.js";
import { ResponsesStreamScanner } from "./stream-scanner.js";
import { answerStreamEvents } from "../shared/answer-stream-events.js";
import { encodeWholeStream } from "../shared/stream-encoder.js";
import { inBandErrorFrame } from "../shared/answer-stream-events.js";
import { parseWireJson } from "../shared/wire-json.js";
import { decodeResponsesResponse } from "./decode-response.js";
import { createResponsesStreamEncoder } from "./encode-stream.js";
import { responsesResponseSchema } from "./schemas.js";

/** OpenAI's error body (`{"error":{…}}`), not a response that failed (which has its id and status). */
function isErrorBody(value: Record<string, unknown>): boolean {
  return typeof value.error === "object" && value.error !== null && value.id === undefined;
}

export const openAIResponsesLane: SameWireLane = {
  shapeOk: () => false,
  factsBound: modalitiesOnlyBound,
  clientWantsUsage: () => true,
  bodyFor: (body, model) => upstreamBodyFor(body, model, false),
  streamedBodyFor: (body, model) => upstreamBodyFor(body, model, false, true),
  clientHeaders: () => undefined,
  scanner: (options) =>
    new ResponsesStreamScanner({
      shownModel: options.shownModel,
      ...(options.keepUpstreamModel !== undefined ? { keepUpstreamModel: options.keepUpstreamModel } : {}),
      ...(options.onEvent !== undefined ? { onEvent: options.onEvent } : {}),
      ...(options.assembleOnly !== undefined ? { assembleOnly: options.assembleOnly } : {}),
    }),
  assembler() {
    const assembler = new ResponsesAssembler();
    return { accept: (event) => assembler.accept(event), answer: () => assembler.response() };
  },
  answerAsStream(body, options) {
    const text = body.toString("utf8");
    // An error object sent for a stream (OpenAI's error body) is the provider's error: as the stream's `error`
    // event, the scanner reads it as it reads one mid-stream.
    const error = inBandErrorFrame(text, isErrorBody, "error", (value) => ({ ...(value.error as object), type: "error" }));
    if (error) return error;
    const parsed = parseWireJson(text, responsesResponseSchema);
    if (!parsed.ok) return undefined;
    const { response } = decodeResponsesResponse(parsed.value);
    const createdAt = parsed.value.created_at;
    const encoder = createResponsesStreamEncoder({
      id: response.id,
      model: response.model,
      createdSeconds: typeof createdAt === "number" ? createdAt : options.createdSeconds,
    });
    return Buffer.from(encodeWholeStream(encoder, answerStreamEvents(response)).join(""));
  },
};
