/** Ollama native provider (`api: "ollama"`): `/api/chat` with NDJSON streaming; keyless by default. */
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent } from "../../ports/canonical.js";
import type { Provider, ProviderCallContext } from "../../ports/provider.js";
import { bearerHeaders } from "../shared/credentials.js";
import { joinUrl } from "../shared/http-client.js";
import { responseIdFactory, toolCallIdFactory } from "../shared/ids.js";
import { readNdjsonLines } from "../shared/ndjson.js";
import type { ProviderSettings } from "../shared/provider-settings.js";
import { streamEndedEarlyFailure, unreadableResponseFailure } from "../shared/upstream-failure.js";
import {
  completeWireCall,
  guardTransport,
  drainedWhenLeft,
  openWireStream,
  reportMalformedChunk,
  streamErrorFailure,
  type WireCall,
} from "../shared/wire-call.js";
import { parseJsonText, parseWireJson, validateWire } from "../../wire/shared/wire-json.js";
import { encodeOllamaRequest } from "../../wire/ollama/encode-request.js";
import { fromOllamaResponse, type OllamaIds } from "../../wire/ollama/decode-response.js";
import { OllamaStreamTranslator } from "../../wire/ollama/decode-stream.js";
import { ollamaChatResponseSchema, ollamaErrorBodySchema } from "../../wire/ollama/schemas.js";
import { encodedOrThrow } from "../shared/incompatible.js";
import { describeOllamaError } from "../../wire/ollama/read-error.js";

/** Users often configure Ollama's OpenAI-compatible URL (`…/v1`); the native API lives beside it. */
export function ollamaEndpoint(baseUrl: string, path: string): string {
  return joinUrl(baseUrl.replace(/\/+$/, "").replace(/\/(v1|api)$/, ""), path);
}

export function ollamaChatUrl(baseUrl: string): string {
  return ollamaEndpoint(baseUrl, "api/chat");
}

export class OllamaProvider implements Provider {
  readonly api = "ollama" as const;
  readonly id: string;

  constructor(private readonly settings: ProviderSettings) {
    this.id = settings.id;
  }

  async complete(request: CanonicalRequest, context: ProviderCallContext): Promise<CanonicalResponse> {
    const { call, dropped } = this.wireCall(request, context, false);
    const { text } = await completeWireCall(call);
    const parsed = parseWireJson(text, ollamaChatResponseSchema);
    if (!parsed.ok) throw unreadableResponseFailure(this.id, parsed.problem, text);
    const response = fromOllamaResponse(parsed.value, this.ids());
    return dropped.length > 0 ? { ...response, dropped } : response;
  }

  async *stream(request: CanonicalRequest, context: ProviderCallContext): AsyncGenerator<CanonicalStreamEvent> {
    const { call, dropped } = this.wireCall(request, context, true);
    const response = await openWireStream(call);
    const translator = new OllamaStreamTranslator({ ...this.ids(), dropped });
    for await (const line of guardTransport(readNdjsonLines(drainedWhenLeft(response.body)), { provider: this.id, signal: context.signal })) {
      const json = parseJsonText(line);
      if (!json.ok) {
        reportMalformedChunk(call, line, json.problem);
        continue;
      }
      const error = validateWire(json.value, ollamaErrorBodySchema);
      if (error.ok) throw streamErrorFailure(call, { message: error.value.error }, response.headers);
      const chunk = validateWire(json.value, ollamaChatResponseSchema);
      if (!chunk.ok) {
        reportMalformedChunk(call, line, chunk.problem);
        continue;
      }
      const step = translator.accept(chunk.value);
      yield* step.events;
      if (step.complete) return;
    }
    // Ollama's last line carries `done: true`; without it the answer was cut short.
    throw streamEndedEarlyFailure(this.id);
  }

  private ids(): OllamaIds {
    return { createToolCallId: toolCallIdFactory(this.settings), createResponseId: responseIdFactory(this.settings) };
  }

  /** Throws `IncompatibleRequestError` before any HTTP call when Ollama cannot carry a field (R-GW-6). */
  private wireCall(
    request: CanonicalRequest,
    context: ProviderCallContext,
    stream: boolean,
  ): { call: WireCall; dropped: readonly string[] } {
    const encoding = encodeOllamaRequest(request, { model: context.model, stream });
    const { body, dropped } = encodedOrThrow(encoding, this.id, context.model);
    const call: WireCall = {
      settings: this.settings,
      context,
      url: ollamaChatUrl(this.settings.baseUrl),
      // Keyless unless a credential is configured (Ollama behind an authenticating proxy, or ollama.com).
      headers: { ...bearerHeaders(context.credential), accept: stream ? "application/x-ndjson" : "application/json" },
      body,
      describeError: describeOllamaError,
    };
    return { call, dropped };
  }
}
