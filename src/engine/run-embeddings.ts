/**
 * `detour.embed(…)`, behind `POST /v1/embeddings`: an OpenAI embeddings request through the runner, so the
 * embedding model's provider rotates its profiles and puts failing ones on cooldown exactly as for chat.
 * Fallbacks go only to models declared with the same `embeddingSpace` (vectors of other spaces cannot be
 * compared with the ones a caller already stored); a model without one has none.
 *
 * OpenAI-compatible providers get the client's request with only `model` replaced and answer with their own
 * bytes; Ollama's `/api/embed` is translated both ways; other APIs are `incompatible` (skipped, nothing
 * recorded).
 */
import { modelAliases, sameEmbeddingSpace, type DetourConfig } from "../config/index.js";
import { resolveModelRef } from "../core/candidate-chain.js";
import { ModelSelectionError } from "../core/errors.js";
import type { Clock } from "../ports/clock.js";
import type { AttemptContext, RunOutcome } from "../runner/attempt.js";
import { encodedOrThrow, IncompatibleRequestError } from "../providers/shared/incompatible.js";
import { azureOpenAiEmbeddingsTarget, ollamaEmbedTarget, openAiEmbeddingsTarget } from "../providers/embeddings-targets.js";
import type { ResponseHeaders } from "../providers/shared/http-client.js";
import {
  looksLikeJsonObject,
  openPassThrough,
  readPassThroughBody,
  type PassThroughTarget,
} from "../providers/shared/pass-through-call.js";
import { unreadableResponseFailure } from "../providers/shared/upstream-failure.js";
import { encodeOllamaEmbedRequest, ollamaEmbedResponseSchema, openAiEmbeddingsFromOllama } from "../wire/ollama/embed.js";
import type { OpenAiEmbeddingsRequest } from "../wire/openai-embeddings/schemas.js";
import { embeddingsUsageOf } from "../wire/openai-embeddings/usage.js";
import { parseJsonText, validateWire } from "../wire/shared/wire-json.js";
import type { HeadroomRecorder } from "../pipe/headroom-recorder.js";
import { providerCallSettings } from "./provider-call-settings.js";
import type { RunnerDetour } from "../pipe/run-with.js";
import { normalizeRunError } from "../pipe/run-errors.js";
import { callContext } from "../pipe/run-options.js";

export interface EmbedOptions {
  agentId?: string;
  /** `provider/model` or an alias of an embedding model. */
  model: string;
  /** Narrows the same-space fallbacks (`"none"` or `[]`: none); models of another space are never used. */
  fallbacks?: readonly string[] | "none";
  /** The client's OpenAI embeddings request, as sent. */
  request: OpenAiEmbeddingsRequest;
  signal?: AbortSignal;
}

export interface EmbeddingsAnswer {
  /** An OpenAI embeddings answer: the provider's own bytes, or the translation of Ollama's. */
  body: Buffer;
  /** The upstream's response headers (same-wire answers only). */
  headers: ResponseHeaders;
  usage?: { inputTokens: number; outputTokens: number };
  /** Hints the provider's format could not carry (R-GW-6). */
  dropped: readonly string[];
}

export type EmbeddingsRunner = (options: EmbedOptions) => Promise<RunOutcome<EmbeddingsAnswer>>;

export function createEmbeddingsRunner(input: {
  detour: Pick<RunnerDetour, "runWith">;
  config: DetourConfig;
  clock: Clock;
  headroom?: HeadroomRecorder;
}): EmbeddingsRunner {
  const { config, clock } = input;
  const aliases = modelAliases(config);

  function fallbacksFor(provider: string, model: string, asked: EmbedOptions["fallbacks"]): readonly string[] | "none" {
    const sameSpace = sameEmbeddingSpace(config, provider, model);
    const allowed = asked === undefined ? sameSpace : asked === "none" ? [] : asked.filter((ref) => sameSpace.includes(ref));
    return allowed.length > 0 ? allowed : "none";
  }

  async function sameWire(target: PassThroughTarget, body: Buffer, context: AttemptContext, agentId: string | undefined) {
    const response = await openPassThrough(target, body, callContext(context, context.signal, input.headroom?.(agentId, context)));
    return { response, bytes: await readPassThroughBody(target, response, context.signal) };
  }

  async function attempt(context: AttemptContext, options: EmbedOptions): Promise<EmbeddingsAnswer> {
    const settings = providerCallSettings(config, context.provider);
    if (settings?.api === "openai-chat" || settings?.api === "azure-openai") {
      const target =
        settings.api === "azure-openai"
          ? azureOpenAiEmbeddingsTarget(settings, context.credential, context.model)
          : openAiEmbeddingsTarget(settings, context.credential);
      const { response, bytes } = await sameWire(
        target,
        Buffer.from(JSON.stringify({ ...options.request, model: context.model })),
        context,
        options.agentId,
      );
      if (!looksLikeJsonObject(bytes))
        throw unreadableResponseFailure(context.provider, "the body is not a JSON object", bytes.toString("utf8", 0, 500));
      const usage = embeddingsUsageOf(bytes);
      return { body: bytes, headers: response.headers, ...(usage ? { usage: { ...usage, outputTokens: 0 } } : {}), dropped: [] };
    }
    if (settings?.api === "ollama") {
      const { body, dropped } = encodedOrThrow(encodeOllamaEmbedRequest(options.request, context.model), context.provider, context.model);
      const target = ollamaEmbedTarget(settings, context.credential);
      const { bytes } = await sameWire(target, Buffer.from(JSON.stringify(body)), context, options.agentId);
      const parsed = parseJsonText(bytes.toString("utf8"));
      const answer = parsed.ok ? validateWire(parsed.value, ollamaEmbedResponseSchema) : parsed;
      if (!answer.ok) throw unreadableResponseFailure(context.provider, answer.problem, bytes.toString("utf8", 0, 500));
      const rendered = openAiEmbeddingsFromOllama(answer.value, answer.value.model ?? context.model, options.request.encoding_format);
      return {
        body: Buffer.from(JSON.stringify(rendered)),
        headers: {},
        usage: { inputTokens: rendered.usage.prompt_tokens, outputTokens: 0 },
        dropped,
      };
    }
    throw new IncompatibleRequestError(
      context.provider,
      context.model,
      "model",
      `Detour calls embeddings on OpenAI-compatible, Azure OpenAI and Ollama providers only, not on ${settings?.api ?? "an unconfigured provider"}.`,
    );
  }

  return async (options) => {
    const ref = resolveModelRef(options.model, { aliases });
    if (!ref) throw new ModelSelectionError({ input: options.model, origin: "embeddings model" });
    let lastAttempt: AttemptContext | undefined;
    try {
      return await input.detour.runWith<EmbeddingsAnswer>({
        ...(options.agentId !== undefined ? { agentId: options.agentId } : {}),
        model: `${ref.provider}/${ref.model}`,
        fallbacks: fallbacksFor(ref.provider, ref.model, options.fallbacks),
        ...(options.signal ? { signal: options.signal } : {}),
        attempt: (context) => {
          lastAttempt = context;
          return attempt(context, options);
        },
      });
    } catch (error) {
      throw normalizeRunError(error, clock, lastAttempt);
    }
  };
}
