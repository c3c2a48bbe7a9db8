/** Google Gemini provider (`api: "google-generative-ai"`): generateContent and streamGenerateContent?alt=sse. */
import type { Credential } from "../../core/types.js";
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent } from "../../ports/canonical.js";
import type { Provider, ProviderCallContext } from "../../ports/provider.js";
import { credentialSecret } from "../shared/credentials.js";
import { answersWithJson, joinUrl, type ResponseHeaders } from "../shared/http-client.js";
import { responseIdFactory, toolCallIdFactory } from "../shared/ids.js";
import type { ProviderSettings } from "../shared/provider-settings.js";
import { readSseEvents } from "../shared/sse.js";
import { errorStopReasonFailure, streamEndedEarlyFailure, unreadableResponseFailure } from "../shared/upstream-failure.js";
import {
  completeWireCall,
  guardTransport,
  drainedWhenLeft,
  openWireStream,
  readJsonAnswer,
  reportMalformedChunk,
  streamErrorFailure,
  type WireCall,
} from "../shared/wire-call.js";
import { parseJsonText, parseWireJson, validateWire } from "../../wire/shared/wire-json.js";
import { encodeGoogleRequest } from "../../wire/google-generative-ai/encode-request.js";
import { fromGoogleResponse, type GoogleIds } from "../../wire/google-generative-ai/decode-response.js";
import { GoogleStreamTranslator } from "../../wire/google-generative-ai/decode-stream.js";
import { googleErrorObjectSchema, googleGenerateContentResponseSchema } from "../../wire/google-generative-ai/schemas.js";
import { encodedOrThrow } from "../shared/incompatible.js";
import { describeGoogleError, describeGoogleErrorObject } from "../../wire/google-generative-ai/read-error.js";

export function googleAuthHeaders(credential: Credential | undefined): Record<string, string> {
  const secret = credentialSecret(credential);
  if (!secret || !credential) return {};
  return credential.type === "api_key" ? { "x-goog-api-key": secret } : { authorization: `Bearer ${secret}` };
}

/**
 * `{base}/models/{model}:{method}`. A bare host gets the `v1beta` API version, which is where the
 * Gemini API documents function calling and `alt=sse` streaming.
 */
export function googleMethodUrl(baseUrl: string, model: string, method: "generateContent" | "streamGenerateContent"): string {
  let base = baseUrl;
  try {
    if (new URL(baseUrl).pathname.replace(/\/+$/, "") === "") base = joinUrl(baseUrl, "v1beta");
  } catch {
    // Not an absolute URL: used as given, the request will fail with a clear connection error.
  }
  const modelId = model.replace(/^models\//, "");
  const url = joinUrl(base, `models/${encodeURIComponent(modelId)}:${method}`);
  return method === "streamGenerateContent" ? `${url}?alt=sse` : url;
}

export class GoogleProvider implements Provider {
  readonly api = "google-generative-ai" as const;
  readonly id: string;

  constructor(private readonly settings: ProviderSettings) {
    this.id = settings.id;
  }

  async complete(request: CanonicalRequest, context: ProviderCallContext): Promise<CanonicalResponse> {
    const { call, dropped } = this.wireCall(request, context, false);
    const { text } = await completeWireCall(call);
    const parsed = parseWireJson(text, googleGenerateContentResponseSchema);
    if (!parsed.ok) throw unreadableResponseFailure(this.id, parsed.problem, text);
    const response = fromGoogleResponse(parsed.value, { model: context.model, ...this.ids() });
    if (response.finishReason === "error") {
      throw errorStopReasonFailure(this.id, parsed.value.candidates?.[0]?.finishReason ?? "OTHER");
    }
    return dropped.length > 0 ? { ...response, dropped } : response;
  }

  async *stream(request: CanonicalRequest, context: ProviderCallContext): AsyncGenerator<CanonicalStreamEvent> {
    const { call, dropped } = this.wireCall(request, context, true);
    const response = await openWireStream(call);
    const translator = new GoogleStreamTranslator({ model: context.model, dropped, ...this.ids() });
    if (answersWithJson(response.headers)) {
      // R-GW-10: `alt=sse` was not honoured: the body is the stream's chunks as one JSON array (Gemini without
      // `alt=sse`), or the whole answer as one object; either way the same chunks, read whole.
      const text = await readJsonAnswer(call, response);
      const json = parseJsonText(text);
      if (!json.ok) throw unreadableResponseFailure(this.id, json.problem, text);
      for (const value of Array.isArray(json.value) ? (json.value as unknown[]) : [json.value]) {
        yield* this.chunkEvents(call, response.headers, translator, value, () => JSON.stringify(value));
      }
    } else {
      for await (const sse of guardTransport(readSseEvents(drainedWhenLeft(response.body)), { provider: this.id, signal: context.signal })) {
        const json = parseJsonText(sse.data);
        if (!json.ok) {
          reportMalformedChunk(call, sse.data, json.problem);
          continue;
        }
        yield* this.chunkEvents(call, response.headers, translator, json.value, () => sse.data);
      }
    }
    const finish = translator.finishAtEnd();
    if (!finish) throw streamEndedEarlyFailure(this.id);
    yield* finish;
  }

  /** One streamed chunk's events: an error chunk thrown, a malformed one skipped and counted. */
  private *chunkEvents(
    call: WireCall,
    headers: ResponseHeaders,
    translator: GoogleStreamTranslator,
    value: unknown,
    raw: () => string,
  ): Generator<CanonicalStreamEvent> {
    if (typeof value === "object" && value !== null && "error" in value) {
      const error = validateWire((value as { error: unknown }).error, googleErrorObjectSchema);
      const details = error.ok ? describeGoogleErrorObject(error.value) : { message: raw() };
      throw streamErrorFailure(call, details, headers);
    }
    const chunk = validateWire(value, googleGenerateContentResponseSchema);
    if (!chunk.ok) {
      reportMalformedChunk(call, raw(), chunk.problem);
      return;
    }
    yield* translator.accept(chunk.value);
    if (translator.failedWith !== undefined) throw errorStopReasonFailure(this.id, translator.failedWith);
  }

  private ids(): GoogleIds {
    return { createToolCallId: toolCallIdFactory(this.settings), createResponseId: responseIdFactory(this.settings) };
  }

  /** Throws `IncompatibleRequestError` before any HTTP call when Gemini cannot carry a field (R-GW-6). */
  private wireCall(
    request: CanonicalRequest,
    context: ProviderCallContext,
    stream: boolean,
  ): { call: WireCall; dropped: readonly string[] } {
    const { body, dropped } = encodedOrThrow(encodeGoogleRequest(request), this.id, context.model);
    const call: WireCall = {
      settings: this.settings,
      context,
      url: googleMethodUrl(this.settings.baseUrl, context.model, stream ? "streamGenerateContent" : "generateContent"),
      headers: { ...googleAuthHeaders(context.credential), accept: stream ? "text/event-stream" : "application/json" },
      body,
      describeError: describeGoogleError,
    };
    return { call, dropped };
  }
}
